-- Cache tags for court bookings and signed-in users (see src/lib/cache.ts).

-- Court bookings announce 'slots:<court_id>' instead of 'court:<court_id>': a booking changes the
-- court's availability, not the court itself, so cached court resources (tagged 'court:<id>') stay
-- cached through a booking rush. Availability entries carry both tags.
-- Its own function: it runs on every booking write, and reading the column directly is cheaper than
-- the generic function's row-to-jsonb conversion.
CREATE FUNCTION courtside_cache_notify_slots() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM pg_notify('courtside_cache', 'slots:' || OLD.court_id);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM pg_notify('courtside_cache', 'slots:' || NEW.court_id);
  END IF;
  RETURN NULL;
END
$$;
DROP TRIGGER bookings_cache ON bookings;
CREATE TRIGGER bookings_cache AFTER INSERT OR UPDATE OR DELETE ON bookings
  FOR EACH ROW EXECUTE FUNCTION courtside_cache_notify_slots();

-- Signed-in users are cached per token (src/lib/auth.ts), and profiles embedded in new bookings per
-- user. A deleted token, and any change to a user's profile, verification, suspension or roles,
-- drops those entries on every instance. Touching api_tokens.last_used_at and wallet balance
-- changes announce nothing.
CREATE TRIGGER api_tokens_cache AFTER DELETE OR UPDATE OF user_id, token_hash ON api_tokens
  FOR EACH ROW EXECUTE FUNCTION courtside_cache_notify('token', 'id');
CREATE TRIGGER users_cache AFTER DELETE OR UPDATE OF name, email, phone, is_active, avatar_path, email_verified_at,
  phone_verified_at ON users
  FOR EACH ROW EXECUTE FUNCTION courtside_cache_notify('user', 'id');
CREATE TRIGGER user_roles_cache AFTER INSERT OR UPDATE OR DELETE ON user_roles
  FOR EACH ROW EXECUTE FUNCTION courtside_cache_notify('user', 'user_id');
