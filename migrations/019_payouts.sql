-- Venues get paid (docs/payments.md, "What a venue sees"): commission rates, payout details and
-- the payouts recorded against a venue's balance with the platform (src/modules/payouts/).

-- NULL: the platform default (PLATFORM_COMMISSION_PERCENT). desk_commission_percent NULL: no
-- commission on desk money (the venue's own).
ALTER TABLE venues
  ADD COLUMN commission_percent numeric(5, 2) CHECK (commission_percent BETWEEN 0 AND 100),
  ADD COLUMN desk_commission_percent numeric(5, 2) CHECK (desk_commission_percent BETWEEN 0 AND 100),
  ADD COLUMN payout_account jsonb;

CREATE TABLE payouts (
  id bigserial PRIMARY KEY,
  venue_id bigint NOT NULL REFERENCES venues (id),
  amount bigint NOT NULL CHECK (amount > 0),
  reference text NOT NULL,
  paid_on date NOT NULL,
  created_by bigint REFERENCES users (id),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX payouts_venue_idx ON payouts (venue_id, paid_on DESC, id DESC);
