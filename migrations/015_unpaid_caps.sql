-- Holds and series (docs/bookings.md, "Unpaid bookings and series"; issue 32).
-- A later week of a customer's series must be paid SERIES_PAY_BEFORE_HOURS before it starts, or it
-- is released (src/modules/bookings/series-payments.ts). A day before that deadline the customer is
-- told once: pay_reminder_sent_at records it (claimed by a conditional UPDATE, so two instances
-- never send it twice).
ALTER TABLE bookings ADD COLUMN pay_reminder_sent_at timestamptz;

-- The series sweeps look for pending occurrences; this keeps that lookup small however many
-- occurrences have been paid, cancelled or played.
CREATE INDEX bookings_series_pending_idx ON bookings (date, start_time)
  WHERE series_id IS NOT NULL AND status = 'pending';

-- The unpaid-bookings cap counts a customer's own pending online bookings at each new booking.
CREATE INDEX bookings_user_pending_idx ON bookings (user_id) WHERE status = 'pending';
CREATE INDEX indoor_bookings_user_pending_idx ON indoor_game_bookings (user_id) WHERE status = 'pending';
