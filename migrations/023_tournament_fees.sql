-- Tournament entry fees paid online (issue 35): a registered team's user pays the registration fee
-- from their wallet (ledger: wallet → the venue's balance with the platform, like a booking's wallet
-- payment). Cancelling the tournament refunds every paid fee to the wallet it came from, charged to
-- the venue's balance (refund_to_wallet). The amount paid is kept on the team; refunded_at is set
-- once, so a fee is never refunded twice.
ALTER TABLE tournament_teams
  ADD COLUMN fee_paid bigint NOT NULL DEFAULT 0 CHECK (fee_paid >= 0),
  ADD COLUMN fee_paid_at timestamptz,
  ADD COLUMN fee_refunded_at timestamptz;
