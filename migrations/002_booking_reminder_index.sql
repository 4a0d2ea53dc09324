-- The reminder job looks for live bookings starting within the next 24 hours that have not been
-- reminded yet; these partial indexes keep that lookup small however many past bookings exist.
CREATE INDEX IF NOT EXISTS bookings_reminder_due_idx ON bookings (date, start_time)
  WHERE reminder_sent_at IS NULL AND status IN ('confirmed', 'pending');
CREATE INDEX IF NOT EXISTS indoor_bookings_reminder_due_idx ON indoor_game_bookings (date, start_time)
  WHERE reminder_sent_at IS NULL AND status IN ('confirmed', 'pending');
