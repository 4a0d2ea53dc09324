-- Booking numbers come from one sequence per kind instead of a counter row per (kind, year).
-- The counter row was locked from each booking's INSERT to its COMMIT, so every booking commit
-- (and its WAL flush) waited for the previous one: ~150 bookings/s at most. nextval() takes no
-- lock that lasts beyond the call; numbers stay unique and increasing, but a refused INSERT (409)
-- leaves a gap and the count does not restart on 1 January. See docs/bookings.md.
CREATE SEQUENCE booking_number_bk;
CREATE SEQUENCE booking_number_ig;
SELECT setval('booking_number_bk', COALESCE((SELECT max(last_value) FROM booking_sequences WHERE kind = 'BK'), 0) + 1, false);
SELECT setval('booking_number_ig', COALESCE((SELECT max(last_value) FROM booking_sequences WHERE kind = 'IG'), 0) + 1, false);
DROP TABLE booking_sequences;
