-- Reconciliation of gateway payments whose callback never arrived (src/modules/payments/reconcile.ts):
-- how often the gateway's status API was asked, and when to ask next (NULL: created_at plus
-- PAYMENT_RECONCILE_AFTER_SECONDS).
ALTER TABLE payments
  ADD COLUMN reconcile_attempts int NOT NULL DEFAULT 0,
  ADD COLUMN reconcile_at timestamptz;
-- The job scans only payments still waiting for their gateway.
CREATE INDEX payments_initiated_idx ON payments (created_at) WHERE status = 'initiated';
