-- Per-venue booking rules and no-show strikes (docs/bookings.md, "Booking rules" and "No-shows").
-- Customers only; a venue's owner, managers and staff are exempt.
--   booking_window_days  how many days ahead a customer may book (the date at most today + this)
--   min_notice_minutes   how long before its start a customer's booking must be made
--   max_hours_per_day    the hours of live bookings one customer may hold at the venue on one
--                        date, court and indoor together (NULL: no limit)
--   no_show_limit        with this many no-shows at the venue in the last 90 days a customer may
--                        only book there by paying online at once (NULL: no limit)
ALTER TABLE venues
  ADD COLUMN booking_window_days integer NOT NULL DEFAULT 30 CHECK (booking_window_days BETWEEN 1 AND 365),
  ADD COLUMN min_notice_minutes integer NOT NULL DEFAULT 0 CHECK (min_notice_minutes BETWEEN 0 AND 10080),
  ADD COLUMN max_hours_per_day integer CHECK (max_hours_per_day BETWEEN 1 AND 24),
  ADD COLUMN no_show_limit integer DEFAULT 2 CHECK (no_show_limit BETWEEN 1 AND 100);

-- Staff clearing a customer's no-show strikes at a venue: one row per clearing, never deleted or
-- updated. Only no-shows of bookings that started after the latest cleared_at count as strikes;
-- the no-show bookings themselves stay as they are.
CREATE TABLE venue_no_show_clearances (
  id bigserial PRIMARY KEY,
  venue_id bigint NOT NULL REFERENCES venues(id) ON DELETE CASCADE,
  user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  cleared_at timestamptz NOT NULL,
  cleared_by bigint REFERENCES users(id) ON DELETE SET NULL,
  no_shows integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX venue_no_show_clearances_lookup ON venue_no_show_clearances (venue_id, user_id, cleared_at DESC);

-- Strikes are counted per customer and venue.
CREATE INDEX bookings_no_shows ON bookings (user_id, venue_id, date) WHERE status = 'no_show';
CREATE INDEX indoor_game_bookings_no_shows ON indoor_game_bookings (user_id, venue_id, date) WHERE status = 'no_show';
