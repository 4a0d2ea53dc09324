-- Reports and the desk's cash-up (docs/reports.md, src/modules/reports/).

-- A day's cash-up at a venue's desk: what the drawer should hold (cash received that venue-local
-- day less the cash-backs handed over), what was counted, the difference, who closed it and when.
-- One per venue and day: the unique constraint decides between two closes at once. A closed day is
-- viewed, never changed: UPDATE is refused by the trigger below.
CREATE TABLE cash_ups (
  id bigserial PRIMARY KEY,
  venue_id bigint NOT NULL REFERENCES venues (id),
  date date NOT NULL,
  cash_received bigint NOT NULL,
  counter_received bigint NOT NULL,
  cash_backs_paid bigint NOT NULL,
  expected_cash bigint NOT NULL,
  counted_cash bigint NOT NULL CHECK (counted_cash >= 0),
  difference bigint NOT NULL,
  note text,
  by_staff jsonb NOT NULL DEFAULT '[]'::jsonb,
  closed_by bigint REFERENCES users (id),
  closed_at timestamptz NOT NULL,
  CONSTRAINT cash_ups_venue_date_key UNIQUE (venue_id, date),
  CONSTRAINT cash_ups_expected_check CHECK (expected_cash = cash_received - cash_backs_paid),
  CONSTRAINT cash_ups_difference_check CHECK (difference = counted_cash - expected_cash)
);

CREATE FUNCTION cash_ups_closed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'a closed cash-up is never changed (cash_ups %)', OLD.id;
END;
$$;

CREATE TRIGGER cash_ups_no_update BEFORE UPDATE ON cash_ups
  FOR EACH ROW EXECUTE FUNCTION cash_ups_closed();

-- Payments by the instant money was received: the cash-up's desk payments of a day and the
-- payments export of a range read this instead of every payment of the venue.
CREATE INDEX payments_completed_idx ON payments (completed_at) WHERE completed_at IS NOT NULL;
