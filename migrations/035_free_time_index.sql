-- The free-time search (docs/catalogue.md, "Free-time search") reads, for one date, the live
-- bookings of the venues near the player: one index range of (date, venue) with every column it
-- needs, so the scan never visits the table for rows it then throws away.
CREATE INDEX bookings_free_time_idx ON bookings (date, venue_id) INCLUDE (court_id, start_time, end_time, hold_expires_at)
  WHERE status IN ('pending', 'confirmed', 'playing');
CREATE INDEX indoor_bookings_free_time_idx ON indoor_game_bookings (date, venue_id)
  INCLUDE (indoor_game_id, start_time, end_time, hold_expires_at) WHERE status IN ('pending', 'confirmed', 'playing');
CREATE INDEX court_blocks_date_idx ON court_blocks (date);
