-- Gateway money at the desk is verified, never typed (docs/payments.md, "Gateway payments at the
-- desk"). A desk payment by eSewa, Khalti or Fonepay is now a gateway payment staff start (a QR the
-- customer scans) and counts only when the gateway confirms it. Such money goes back through the
-- gateway: a refund of it is a gateway refund, due until the gateway has made it (Khalti's refund
-- API) or the owner marks it done with the gateway's reference.
-- - payments.unverified: a desk payment whose gateway money nobody verified (a reference staff
--   typed before this rule). Its rows and money stay as they were; ledger reports and payment
--   records show them as unverified.
-- - gateway_refunds: gateway money taken at the desk, refunded, and due at the gateway until done;
--   sent_at: when the refund job asked the gateway's refund API (asked once, never again).
-- - the chart of accounts gains venue:N:gateway_refund_due (credit-normal, never negative).
ALTER TABLE payments ADD COLUMN unverified boolean NOT NULL DEFAULT false;
UPDATE payments SET unverified = true
WHERE recorded_by IS NOT NULL AND method IN ('gateway_1', 'gateway_2', 'gateway_3') AND status <> 'initiated';

CREATE TABLE gateway_refunds (
  id bigserial PRIMARY KEY,
  venue_id bigint NOT NULL REFERENCES venues (id) ON DELETE CASCADE,
  booking_type text NOT NULL CHECK (booking_type IN ('court', 'indoor')),
  booking_id bigint NOT NULL,
  payment_id bigint NOT NULL REFERENCES payments (id),
  method varchar(32) NOT NULL,
  user_id bigint REFERENCES users (id),
  amount bigint NOT NULL CHECK (amount > 0),
  reason text,
  status varchar(16) NOT NULL DEFAULT 'due' CHECK (status IN ('due', 'done')),
  gateway_reference varchar(100),
  last_error text,
  sent_at timestamptz,
  done_by bigint REFERENCES users (id),
  done_at timestamptz,
  created_at timestamptz NOT NULL,
  CHECK ((status = 'done') = (done_at IS NOT NULL))
);
CREATE INDEX gateway_refunds_venue_status ON gateway_refunds (venue_id, status, created_at);
CREATE INDEX gateway_refunds_payment ON gateway_refunds (payment_id);
CREATE UNIQUE INDEX gateway_refunds_reference_key ON gateway_refunds (method, lower(btrim(gateway_reference)))
  WHERE gateway_reference IS NOT NULL;

ALTER TABLE ledger_lines DROP CONSTRAINT ledger_lines_account_known;
ALTER TABLE ledger_lines ADD CONSTRAINT ledger_lines_account_known CHECK (
  account ~ '^(wallet:[0-9]+|venue:[0-9]+:(balance|desk|desk_sales|cash_back_due|gateway_refund_due)|gateway:[a-z0-9_]+:(clearing|promotion)|discount:(platform|venue:[0-9]+)|commission:platform|platform:(payouts|opening_balances))$'
) NOT VALID;
