-- Revocation reaches the desk's event streams at once (src/modules/desk/events.ts): a user added to
-- or removed from a venue's staff, or whose role there changes, is announced as 'user:<id>' like
-- any other change to who a user is (migration 005), so every instance re-checks that user's open
-- streams when the change commits instead of at the next heartbeat.
CREATE TRIGGER venue_staff_cache AFTER INSERT OR UPDATE OR DELETE ON venue_staff
  FOR EACH ROW EXECUTE FUNCTION courtside_cache_notify('user', 'user_id');
