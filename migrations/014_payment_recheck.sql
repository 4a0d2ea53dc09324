-- Re-checking failed gateway payments (src/modules/payments/recheck.ts, docs/payments.md
-- "Re-checking failed payments"): a payment failed after asking the gateway's status API is asked
-- again, with back-off, for PAYMENT_RECHECK_HOURS after it was created. While a payment is
-- `failed`, reconcile_attempts counts these re-checks and reconcile_at is the next one (NULL:
-- gateway_checked_at plus the first wait).
--   gateway_checked_at  when the status API was last asked about it while it failed (or by the
--                       check that failed it); NULL: failed without asking the gateway (refused
--                       at initiate), never re-checked
--   gateway_verdict     what the status API said then: completed | pending | not_found | failed
--                       (NULL: not recorded, a payment failed before this migration)
--   gateway_amount      the amount (paisa) it named with `completed`
-- A `failed` payment whose gateway_verdict is `completed` holds money at the gateway that could
-- not be applied here: GET /api/admin/payments/mismatched lists it.
ALTER TABLE payments
  ADD COLUMN gateway_checked_at timestamptz,
  ADD COLUMN gateway_verdict text CHECK (gateway_verdict IN ('completed', 'pending', 'not_found', 'failed')),
  ADD COLUMN gateway_amount bigint;

-- Payments already failed by a status check (their payload keeps the gateway's answer) are
-- re-checked too, from the moment they failed; their next check starts the back-off afresh.
UPDATE payments
SET gateway_checked_at = updated_at, reconcile_attempts = 0, reconcile_at = NULL
WHERE status = 'failed'
  AND method IN ('gateway_1', 'gateway_2', 'gateway_3')
  AND gateway_payload -> 'verification' IS NOT NULL;

CREATE INDEX payments_recheck_idx ON payments (created_at)
  WHERE status = 'failed' AND gateway_checked_at IS NOT NULL;
CREATE INDEX payments_mismatched_idx ON payments (gateway_checked_at)
  WHERE status = 'failed' AND gateway_verdict = 'completed';
