-- Recurring series (src/modules/bookings/series.ts): a weekly booking made once. Each occurrence is
-- an ordinary row of `bookings` carrying series_id; the exclusion constraint still decides every slot.
CREATE TABLE booking_series (
  id bigserial PRIMARY KEY,
  user_id bigint REFERENCES users(id),
  court_id bigint NOT NULL REFERENCES courts(id),
  venue_id bigint NOT NULL REFERENCES venues(id),
  type text NOT NULL DEFAULT 'online' CHECK (type IN ('online', 'offline', 'walkin')),
  weekday smallint NOT NULL CHECK (weekday BETWEEN 0 AND 6),
  start_date date NOT NULL,
  weeks int NOT NULL CHECK (weeks BETWEEN 2 AND 26),
  start_time time NOT NULL,
  end_time time NOT NULL CHECK (end_time > start_time),
  customer_name text NOT NULL,
  customer_phone text,
  created_by bigint REFERENCES users(id),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX booking_series_user_idx ON booking_series (user_id);
ALTER TABLE bookings ADD COLUMN series_id bigint REFERENCES booking_series(id);
CREATE INDEX bookings_series_idx ON bookings (series_id) WHERE series_id IS NOT NULL;

-- Waitlist (src/modules/waitlist): customers waiting for a taken court slot. An offer is an ordinary
-- pending booking (offer_booking_id) held for WAITLIST_OFFER_MINUTES by the payment-hold mechanism.
-- status: waiting → offered → (booked | expired | declined); booked is shown, not stored (the offer's
-- booking is confirmed).
CREATE TABLE waitlist_entries (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users(id),
  court_id bigint NOT NULL REFERENCES courts(id),
  venue_id bigint NOT NULL REFERENCES venues(id),
  date date NOT NULL,
  start_time time NOT NULL,
  end_time time NOT NULL CHECK (end_time > start_time),
  status text NOT NULL DEFAULT 'waiting' CHECK (status IN ('waiting', 'offered', 'expired', 'declined')),
  offer_booking_id bigint REFERENCES bookings(id),
  offered_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
-- One live entry per user and slot.
CREATE UNIQUE INDEX waitlist_entries_user_slot_idx ON waitlist_entries (user_id, court_id, date, start_time, end_time)
  WHERE status IN ('waiting', 'offered');
CREATE INDEX waitlist_entries_court_date_idx ON waitlist_entries (court_id, date, id) WHERE status = 'waiting';
CREATE INDEX waitlist_entries_offer_idx ON waitlist_entries (offer_booking_id) WHERE offer_booking_id IS NOT NULL;
