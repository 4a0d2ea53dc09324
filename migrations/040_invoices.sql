-- Invoices an auditor accepts (issue 49; docs/payments.md, "Receipts and IRD"; src/modules/receipts/).
-- A receipt row stays append-only (018): what this adds to an issued invoice later (the desk's buyer
-- details, each print, the CBMS sync state) lives in tables of its own.

-- What an invoice prints about the sale, fixed at issue. Rows issued before this migration keep
-- their single line and get the defaults.
ALTER TABLE receipts
  -- The booking's customer account (the buyer), when it has one.
  ADD COLUMN user_id bigint,
  -- Buyer's PAN and address as the customer's profile had them at issue.
  ADD COLUMN buyer_pan text,
  ADD COLUMN buyer_address text,
  -- Discounts printed as their own lines (paisa, positive), and the platform-funded coupon share
  -- included in the taxable consideration though the customer did not pay it.
  ADD COLUMN discount_amount bigint NOT NULL DEFAULT 0,
  ADD COLUMN platform_share bigint NOT NULL DEFAULT 0,
  -- A credit note: what actually reached the customer and where (a Fonepay promotion is not refunded
  -- to the customer), and the original invoice's date.
  ADD COLUMN refunded_amount bigint,
  ADD COLUMN refunded_to text,
  ADD COLUMN original_issued_on date,
  -- The invoice register's "entered by" (staff who took desk money; null: online, the system) and
  -- "transaction id" (the gateway's reference).
  ADD COLUMN entered_by bigint,
  ADD COLUMN transaction_id text;

-- A customer's own invoice details, printed on invoices issued to them from then on.
CREATE TABLE customer_invoice_details (
  user_id bigint PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  buyer_pan text CHECK (buyer_pan ~ '^[0-9]{9}$'),
  buyer_address text,
  updated_at timestamptz NOT NULL
);

-- The buyer's PAN and address added by the desk before the first print (never after).
CREATE TABLE receipt_buyers (
  receipt_id bigint PRIMARY KEY REFERENCES receipts (id),
  buyer_pan text CHECK (buyer_pan ~ '^[0-9]{9}$'),
  buyer_address text,
  set_by bigint NOT NULL,
  set_at timestamptz NOT NULL
);

-- Every print of an invoice: copy 0 is the original, 1, 2… the copies ("Copy of Original (n)").
CREATE TABLE receipt_prints (
  id bigserial PRIMARY KEY,
  receipt_id bigint NOT NULL REFERENCES receipts (id),
  copy_number integer NOT NULL CHECK (copy_number >= 0),
  printed_by bigint NOT NULL,
  printed_at timestamptz NOT NULL,
  UNIQUE (receipt_id, copy_number)
);
CREATE TRIGGER receipt_prints_append_only BEFORE UPDATE OR DELETE ON receipt_prints
  FOR EACH ROW EXECUTE FUNCTION receipts_append_only();

-- A venue's IRD Central Billing Monitoring System account; the password is AES-256-GCM under the
-- app key and never leaves the service except to CBMS.
CREATE TABLE venue_ird_settings (
  venue_id bigint PRIMARY KEY REFERENCES venues (id),
  enabled boolean NOT NULL,
  username text NOT NULL,
  password_encrypted text NOT NULL,
  seller_pan text NOT NULL CHECK (seller_pan ~ '^[0-9]{9}$'),
  updated_by bigint NOT NULL,
  updated_at timestamptz NOT NULL
);

-- Each invoice's CBMS sync: pending until CBMS answers 200 (or 101, already there), failed when it
-- refuses or the retries run out. An invoice of a venue without CBMS has no row (not_required).
CREATE TABLE receipt_ird_sync (
  receipt_id bigint PRIMARY KEY REFERENCES receipts (id),
  venue_id bigint NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'synced', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  last_code integer,
  last_error text,
  realtime boolean NOT NULL,
  synced_at timestamptz,
  updated_at timestamptz NOT NULL
);
CREATE INDEX receipt_ird_sync_failed_idx ON receipt_ird_sync (venue_id) WHERE status = 'failed';

CREATE INDEX receipts_venue_issued_idx ON receipts (venue_id, issued_on, id);
