-- The catalogue's cards show each venue's lowest hourly price today (min_price, docs/catalogue.md):
-- a change of the pricing rules, court schedules or venue holidays it is read from now also drops
-- the cached catalogue pages ('catalogue'), as courts, games and venues already do (migrations/003).
CREATE TRIGGER pricing_rules_catalogue AFTER INSERT OR UPDATE OR DELETE ON pricing_rules
  FOR EACH STATEMENT EXECUTE FUNCTION courtside_cache_notify('catalogue', '');
CREATE TRIGGER court_schedules_catalogue AFTER INSERT OR UPDATE OR DELETE ON court_schedules
  FOR EACH STATEMENT EXECUTE FUNCTION courtside_cache_notify('catalogue', '');
CREATE TRIGGER venue_holidays_catalogue AFTER INSERT OR UPDATE OR DELETE ON venue_holidays
  FOR EACH STATEMENT EXECUTE FUNCTION courtside_cache_notify('catalogue', '');
