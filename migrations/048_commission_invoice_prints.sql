-- Every print of the platform's commission invoice PDF (GET /api/venues/{venue}/commission-invoices/{id}/pdf;
-- src/modules/payouts/commission-invoices.ts): copy 0 is the original, 1, 2… the copies
-- ("Copy of Original (n)"), as receipt_prints does for the venues' own invoices (migration 040).
CREATE TABLE commission_invoice_prints (
  id bigserial PRIMARY KEY,
  invoice_id bigint NOT NULL REFERENCES commission_invoices (id),
  copy_number integer NOT NULL CHECK (copy_number >= 0),
  printed_by bigint NOT NULL,
  printed_at timestamptz NOT NULL,
  UNIQUE (invoice_id, copy_number)
);
CREATE TRIGGER commission_invoice_prints_append_only BEFORE UPDATE OR DELETE ON commission_invoice_prints
  FOR EACH ROW EXECUTE FUNCTION receipts_append_only();
