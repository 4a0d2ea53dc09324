-- Calendar feeds (src/modules/calendar, docs/calendar.md): one secret feed URL per user and one per
-- venue. The secret is 256 random bits (base64url); it is kept as is because GET …/calendar/feed
-- shows the same URL every time. Rotating replaces it, so the old URL is unknown at once.
CREATE TABLE calendar_feeds (
  id bigserial PRIMARY KEY,
  user_id bigint UNIQUE REFERENCES users (id) ON DELETE CASCADE,
  venue_id bigint UNIQUE REFERENCES venues (id) ON DELETE CASCADE,
  secret text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  rotated_at timestamptz,
  CHECK ((user_id IS NULL) <> (venue_id IS NULL))
);

-- The SEQUENCE of a booking's calendar event (RFC 5545 3.8.7.4): a counter that grows with every
-- change a calendar shows (status, day, times, court or game, customer name, notes), kept by the
-- database so every code path that changes a booking bumps it.
ALTER TABLE bookings ADD COLUMN calendar_sequence int NOT NULL DEFAULT 0;
ALTER TABLE indoor_game_bookings ADD COLUMN calendar_sequence int NOT NULL DEFAULT 0;

CREATE FUNCTION courtside_calendar_sequence() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF jsonb_build_array(NEW.status, NEW.date, NEW.start_time, NEW.end_time, to_jsonb(NEW) -> TG_ARGV[0],
       NEW.customer_name, NEW.notes)
     IS DISTINCT FROM
     jsonb_build_array(OLD.status, OLD.date, OLD.start_time, OLD.end_time, to_jsonb(OLD) -> TG_ARGV[0],
       OLD.customer_name, OLD.notes) THEN
    NEW.calendar_sequence := OLD.calendar_sequence + 1;
  END IF;
  RETURN NEW;
END;
$$;

CREATE TRIGGER bookings_calendar_sequence BEFORE UPDATE ON bookings
  FOR EACH ROW EXECUTE FUNCTION courtside_calendar_sequence('court_id');
CREATE TRIGGER indoor_game_bookings_calendar_sequence BEFORE UPDATE ON indoor_game_bookings
  FOR EACH ROW EXECUTE FUNCTION courtside_calendar_sequence('indoor_game_id');
