-- Split payment (docs/payments.md, "Split payment"): a pending booking split into N equal shares,
-- each paid by whoever opens its link. A share is paid by one payment (its own ledger entry and
-- receipt, payments.user_id = the payer); share_payments records every payment started for shares,
-- so a gateway payment that arrives late still finds the shares it was for.
CREATE TABLE booking_splits (
  id bigserial PRIMARY KEY,
  booking_type varchar(10) NOT NULL CHECK (booking_type IN ('court', 'indoor')),
  booking_id bigint NOT NULL,
  deadline timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (booking_type, booking_id)
);

CREATE TABLE booking_shares (
  id bigserial PRIMARY KEY,
  split_id bigint NOT NULL REFERENCES booking_splits (id) ON DELETE CASCADE,
  position integer NOT NULL CHECK (position >= 1),
  amount bigint NOT NULL CHECK (amount > 0),
  token varchar(64) NOT NULL UNIQUE,
  -- unpaid, or paid by payer_id through payment_id (a refund of that payment shows it refunded).
  payer_id bigint REFERENCES users (id),
  payment_id bigint REFERENCES payments (id),
  paid_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (split_id, position),
  CHECK ((payment_id IS NULL) = (payer_id IS NULL) AND (payment_id IS NULL) = (paid_at IS NULL))
);
CREATE INDEX booking_shares_payment_idx ON booking_shares (payment_id) WHERE payment_id IS NOT NULL;

-- Which shares a payment was started for (one share, or all unpaid shares of a settle). share_id is
-- cleared when a re-split replaces the shares: such a payment arriving goes back to its payer.
CREATE TABLE share_payments (
  id bigserial PRIMARY KEY,
  payment_id bigint NOT NULL REFERENCES payments (id),
  share_id bigint REFERENCES booking_shares (id) ON DELETE SET NULL
);
CREATE INDEX share_payments_payment_idx ON share_payments (payment_id);
