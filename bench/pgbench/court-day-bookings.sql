-- Only the bookings sub-select of bench/pgbench/court-day.sql: the part a cached court set-up would
-- leave to the database. Same variables.
\set court random(1, :courts)
\set d random(0, 6)
\set day :first + :d
select (select coalesce(json_agg(agg), '[]') from (select bookings.start_time, bookings.end_time, bookings.hold_expires_at from bookings where bookings.court_id = :court and bookings.date = (date '2000-01-01' + :day::int) and (status in ('confirmed', 'playing') or (status = 'pending' and (hold_expires_at is null or hold_expires_at > now())))) as agg) as bookings;
