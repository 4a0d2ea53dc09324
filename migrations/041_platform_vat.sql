-- The platform's own VAT on its commission, and the monthly commission invoice to each venue
-- (issue 49; docs/payments.md, "The platform's VAT on commission"; src/modules/payouts/commission-invoices.ts).

-- The VAT the platform charges on its commission is owed to IRD: `vat:payable` (credit-normal).
ALTER TABLE ledger_lines DROP CONSTRAINT ledger_lines_account_known;
ALTER TABLE ledger_lines ADD CONSTRAINT ledger_lines_account_known CHECK (
  account ~ '^(wallet:[0-9]+|venue:[0-9]+:(balance|desk|desk_sales|cash_back_due|gateway_refund_due)|gateway:[a-z0-9_]+:(clearing|promotion)|discount:(platform|venue:[0-9]+)|commission:platform|vat:payable|platform:(payouts|opening_balances))$'
) NOT VALID;

-- The platform's invoice numbers: one series for all venues per Nepali fiscal year, without gaps
-- (the same counter pattern as receipt_counters).
CREATE TABLE commission_invoice_counters (
  fiscal_year text PRIMARY KEY,
  last_number integer NOT NULL CHECK (last_number > 0)
);

-- One invoice per venue and BS month for the commission taken that month, net of commission given
-- back: what the platform printed (its own name and PAN, the venue's) kept as issued. Paisa.
CREATE TABLE commission_invoices (
  id bigserial PRIMARY KEY,
  venue_id bigint NOT NULL REFERENCES venues (id),
  fiscal_year text NOT NULL,
  sequence integer NOT NULL CHECK (sequence > 0),
  invoice_number text NOT NULL UNIQUE,
  bs_month text NOT NULL,
  period_from date NOT NULL,
  period_to date NOT NULL,
  total bigint NOT NULL,
  taxable_amount bigint NOT NULL,
  vat_amount bigint NOT NULL,
  issued_at timestamptz NOT NULL,
  issued_on date NOT NULL,
  issued_on_bs text NOT NULL,
  platform_name text NOT NULL,
  platform_pan text,
  venue_legal_name text NOT NULL,
  venue_pan text,
  UNIQUE (fiscal_year, sequence),
  UNIQUE (venue_id, bs_month),
  CHECK (taxable_amount + vat_amount = total)
);
CREATE TRIGGER commission_invoices_append_only BEFORE UPDATE OR DELETE ON commission_invoices
  FOR EACH ROW EXECUTE FUNCTION receipts_append_only();
