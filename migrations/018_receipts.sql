-- Receipts and credit notes (docs/payments.md, "Receipts and VAT"; src/modules/receipts/).

-- The venue's tax identity, set by its owner (PATCH /api/venues/{venue}) and printed on receipts.
-- pan_number: the 9-digit Permanent Account Number of the Inland Revenue Department.
ALTER TABLE venues
  ADD COLUMN pan_number text CHECK (pan_number ~ '^[0-9]{9}$'),
  ADD COLUMN vat_registered boolean NOT NULL DEFAULT false,
  ADD COLUMN legal_name text;

-- One counter row per venue, Nepali fiscal year ("2082/83") and series: the next number is taken by
-- INSERT … ON CONFLICT DO UPDATE … RETURNING in the payment's (or refund's) own transaction. The
-- row stays locked until that transaction ends, so a venue's receipts are numbered one after
-- another, and a transaction that rolls back gives its number back: no gaps, no duplicates.
CREATE TABLE receipt_counters (
  venue_id bigint NOT NULL,
  fiscal_year text NOT NULL,
  series text NOT NULL CHECK (series IN ('receipt', 'credit_note')),
  last_number integer NOT NULL CHECK (last_number > 0),
  PRIMARY KEY (venue_id, fiscal_year, series)
);

-- A receipt (money received for a booking) or a credit note (money refunded). What it printed is
-- kept as it was at issue (the venue's legal name, address and PAN, the customer's name, the
-- lines), so a later change of the venue never rewrites an issued document. Amounts in paisa.
CREATE TABLE receipts (
  id bigserial PRIMARY KEY,
  venue_id bigint NOT NULL,
  type text NOT NULL CHECK (type IN ('receipt', 'credit_note')),
  fiscal_year text NOT NULL,
  sequence integer NOT NULL CHECK (sequence > 0),
  receipt_number text NOT NULL,
  payment_id bigint NOT NULL,
  booking_type text NOT NULL CHECK (booking_type IN ('court', 'indoor')),
  booking_id bigint NOT NULL,
  booking_number text NOT NULL,
  -- For a credit note: the receipt of the payment it refunds (null when that payment has none).
  credit_of bigint REFERENCES receipts (id),
  method text NOT NULL,
  issued_at timestamptz NOT NULL,
  issued_on date NOT NULL,
  issued_on_bs text NOT NULL,
  customer_name text NOT NULL,
  venue_legal_name text NOT NULL,
  venue_address text NOT NULL,
  venue_pan text,
  vat_registered boolean NOT NULL,
  lines jsonb NOT NULL,
  total bigint NOT NULL CHECK (total > 0),
  taxable_amount bigint,
  vat_amount bigint,
  reason text,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (venue_id, fiscal_year, type, sequence),
  CHECK ((taxable_amount IS NULL) = (vat_amount IS NULL)),
  CHECK (taxable_amount IS NULL OR taxable_amount + vat_amount = total)
);
CREATE INDEX receipts_booking_idx ON receipts (booking_type, booking_id, id);
CREATE INDEX receipts_payment_idx ON receipts (payment_id, id);

-- An issued receipt is never changed or removed: a mistake is corrected by a credit note.
CREATE FUNCTION receipts_append_only() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'receipts are append-only (% on %)', TG_OP, TG_TABLE_NAME USING ERRCODE = 'insufficient_privilege';
END
$$;
CREATE TRIGGER receipts_append_only BEFORE UPDATE OR DELETE ON receipts
  FOR EACH ROW EXECUTE FUNCTION receipts_append_only();
