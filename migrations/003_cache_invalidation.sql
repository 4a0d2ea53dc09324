-- Read-cache invalidation: every change to data that availability or the public catalogue is built
-- from sends a NOTIFY on channel courtside_cache when its transaction commits. Each instance LISTENs
-- and drops the cached entries tagged with the payload ('court:<id>', 'game:<id>', 'venue:<id>',
-- 'catalogue'). Identical payloads within one transaction are delivered once.
CREATE FUNCTION courtside_cache_notify() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  i int := 0;
  tag text;
  col text;
BEGIN
  WHILE i < TG_NARGS LOOP
    tag := TG_ARGV[i];
    col := TG_ARGV[i + 1];
    IF col = '' THEN
      PERFORM pg_notify('courtside_cache', tag);
    ELSE
      IF TG_OP <> 'INSERT' THEN
        PERFORM pg_notify('courtside_cache', tag || ':' || coalesce(to_jsonb(OLD) ->> col, ''));
      END IF;
      IF TG_OP <> 'DELETE' THEN
        PERFORM pg_notify('courtside_cache', tag || ':' || coalesce(to_jsonb(NEW) ->> col, ''));
      END IF;
    END IF;
    i := i + 2;
  END LOOP;
  RETURN NULL;
END
$$;

CREATE TRIGGER bookings_cache AFTER INSERT OR UPDATE OR DELETE ON bookings
  FOR EACH ROW EXECUTE FUNCTION courtside_cache_notify('court', 'court_id');
CREATE TRIGGER indoor_game_bookings_cache AFTER INSERT OR UPDATE OR DELETE ON indoor_game_bookings
  FOR EACH ROW EXECUTE FUNCTION courtside_cache_notify('game', 'indoor_game_id');
CREATE TRIGGER court_blocks_cache AFTER INSERT OR UPDATE OR DELETE ON court_blocks
  FOR EACH ROW EXECUTE FUNCTION courtside_cache_notify('court', 'court_id');
CREATE TRIGGER court_schedules_cache AFTER INSERT OR UPDATE OR DELETE ON court_schedules
  FOR EACH ROW EXECUTE FUNCTION courtside_cache_notify('court', 'court_id');
CREATE TRIGGER pricing_rules_cache AFTER INSERT OR UPDATE OR DELETE ON pricing_rules
  FOR EACH ROW EXECUTE FUNCTION courtside_cache_notify('court', 'court_id');
CREATE TRIGGER venue_holidays_cache AFTER INSERT OR UPDATE OR DELETE ON venue_holidays
  FOR EACH ROW EXECUTE FUNCTION courtside_cache_notify('venue', 'venue_id');
CREATE TRIGGER courts_cache AFTER INSERT OR UPDATE OR DELETE ON courts
  FOR EACH ROW EXECUTE FUNCTION courtside_cache_notify('court', 'id', 'catalogue', '');
CREATE TRIGGER indoor_games_cache AFTER INSERT OR UPDATE OR DELETE ON indoor_games
  FOR EACH ROW EXECUTE FUNCTION courtside_cache_notify('game', 'id', 'catalogue', '');
CREATE TRIGGER venues_cache AFTER INSERT OR UPDATE OR DELETE ON venues
  FOR EACH ROW EXECUTE FUNCTION courtside_cache_notify('venue', 'id', 'catalogue', '');
CREATE TRIGGER venue_amenities_cache AFTER INSERT OR UPDATE OR DELETE ON venue_amenities
  FOR EACH STATEMENT EXECUTE FUNCTION courtside_cache_notify('catalogue', '');
CREATE TRIGGER amenities_cache AFTER INSERT OR UPDATE OR DELETE ON amenities
  FOR EACH STATEMENT EXECUTE FUNCTION courtside_cache_notify('catalogue', '');
CREATE TRIGGER sports_cache AFTER INSERT OR UPDATE OR DELETE ON sports
  FOR EACH STATEMENT EXECUTE FUNCTION courtside_cache_notify('catalogue', '');
CREATE TRIGGER media_cache AFTER INSERT OR UPDATE OR DELETE ON media
  FOR EACH STATEMENT EXECUTE FUNCTION courtside_cache_notify('catalogue', '');
CREATE TRIGGER reviews_cache AFTER INSERT OR UPDATE OR DELETE ON reviews
  FOR EACH STATEMENT EXECUTE FUNCTION courtside_cache_notify('catalogue', '');
