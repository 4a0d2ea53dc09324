-- A booking never lands in a maintenance block (issue 32), whoever commits first. Creating a block
-- takes the court's advisory lock and then refuses live bookings (src/modules/courts); a booking's
-- INSERT takes the same lock (allocatedNumber), but its statement's snapshot is older than the lock,
-- so it could miss a block committed while it waited. This trigger takes the lock (held already:
-- locks are re-entrant) and then looks for a block with a fresh snapshot (each statement of a
-- volatile plpgsql function takes one), refusing the row like an overlapping booking (23P01, which
-- the app answers 409). Also when a cancelled booking comes back (a late payment's reinstatement).
CREATE FUNCTION bookings_refuse_blocked() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status NOT IN ('pending', 'confirmed', 'playing') THEN
    RETURN NEW;
  END IF;
  PERFORM pg_advisory_xact_lock(1001, NEW.court_id::int);
  IF EXISTS (
    SELECT 1 FROM court_blocks k
    WHERE k.court_id = NEW.court_id AND k.date = NEW.date
      AND k.start_time < NEW.end_time AND NEW.start_time < k.end_time
  ) THEN
    RAISE EXCEPTION 'the slot is blocked for maintenance' USING ERRCODE = 'exclusion_violation';
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER bookings_refuse_blocked BEFORE INSERT ON bookings
  FOR EACH ROW EXECUTE FUNCTION bookings_refuse_blocked();
CREATE TRIGGER bookings_refuse_blocked_on_return BEFORE UPDATE OF status ON bookings
  FOR EACH ROW WHEN (OLD.status IN ('cancelled', 'no_show', 'completed') AND NEW.status IN ('pending', 'confirmed', 'playing'))
  EXECUTE FUNCTION bookings_refuse_blocked();
