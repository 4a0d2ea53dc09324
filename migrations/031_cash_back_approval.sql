-- Cash-backs are visible and bounded (docs/payments.md, "Cash-backs"): who cancelled or refunded the
-- booking (the cash-back's cause) and who approved paying out one above CASH_BACK_APPROVAL_AMOUNT.
-- Who took the refunded payment is the payment's recorded_by; who handed it over is paid_by.
ALTER TABLE cash_backs
  ADD COLUMN cancelled_by bigint REFERENCES users (id),
  ADD COLUMN approved_by bigint REFERENCES users (id),
  ADD COLUMN approved_at timestamptz,
  ADD CONSTRAINT cash_backs_approval_check CHECK ((approved_by IS NULL) = (approved_at IS NULL));

-- The cash-up lists the cash-backs that fell due on a day as well as those handed over.
CREATE INDEX cash_backs_created_idx ON cash_backs (venue_id, created_at);
