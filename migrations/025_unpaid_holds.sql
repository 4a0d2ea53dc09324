-- What a customer holds unpaid (issue 32; docs/bookings.md, "Unpaid bookings and series"), defined
-- once in the database so that a customer's court booking is one statement (issue 36).
--
-- courtside_unpaid_held(user, now, wall): the customer's own pending online bookings of both kinds
-- that have not started (wall: now on the venue wall clock) and whose payment hold has not run out
-- at now; of a weekly series only its next unpaid week counts, so a series counts once. `bookings`
-- counts everything (a series once); `series` the series with unpaid weeks. Bookings staff made
-- (offline, walk-in, anyone's but the customer's own) are not counted.
CREATE FUNCTION courtside_unpaid_held(p_user bigint, p_now timestamptz, p_wall timestamp)
RETURNS TABLE (bookings bigint, series bigint)
LANGUAGE sql STABLE AS $$
  WITH court AS (
    SELECT b.series_id FROM bookings b
     WHERE b.user_id = p_user AND b.status = 'pending' AND b.type = 'online' AND b.created_by = b.user_id
       AND (b.hold_expires_at IS NULL OR b.hold_expires_at > p_now)
       AND b.date >= p_wall::date AND (b.date + b.start_time) > p_wall
  ), counts AS (
    SELECT (SELECT count(*) FROM court WHERE series_id IS NULL) AS single,
           (SELECT count(DISTINCT series_id) FROM court) AS series,
           (SELECT count(*) FROM indoor_game_bookings i
             WHERE i.user_id = p_user AND i.status = 'pending' AND i.type = 'online' AND i.created_by = i.user_id
               AND (i.hold_expires_at IS NULL OR i.hold_expires_at > p_now)
               AND i.date >= p_wall::date AND (i.date + i.start_time) > p_wall) AS indoor
  )
  SELECT single + series + indoor, series FROM counts
$$;

-- courtside_hold_unpaid(user, max, now, wall): takes the customer's transaction-scoped advisory
-- lock (class 1003, as src/modules/booking-core/repository/unpaid.ts lockCustomerHolds), then counts
-- with a fresh snapshot (each statement of a volatile plpgsql function takes one, so a booking
-- committed by whoever held the lock before is seen) and refuses one more unpaid booking at `max`:
-- SQLSTATE CSU01, the count in DETAIL, which the app answers 422. Returns the count otherwise.
-- A customer's court booking calls it inside its INSERT, before the court's lock (the booking
-- number's), so the cap costs no round trip of its own; the lock is held until that INSERT's
-- transaction ends, and two bookings at the cap count one after the other.
CREATE FUNCTION courtside_hold_unpaid(p_user bigint, p_max integer, p_now timestamptz, p_wall timestamp)
RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  held bigint;
BEGIN
  PERFORM pg_advisory_xact_lock(1003, p_user::int);
  SELECT u.bookings INTO held FROM courtside_unpaid_held(p_user, p_now, p_wall) u;
  IF held >= p_max THEN
    RAISE EXCEPTION 'the customer holds the most unpaid bookings allowed' USING ERRCODE = 'CSU01', DETAIL = held::text;
  END IF;
  RETURN held;
END
$$;
