-- Auth hardening (issue 32; docs/deployment.md "Signing in and revoking access").

-- One-time codes, per identifier (the normalised phone number or email, with its channel): every
-- send and every wrong try is a row, so the limits hold across instances and across codes:
-- at most 10 sends a day, at most 10 wrong tries an hour (after which verify answers 429 until the
-- hour has passed), on top of the 5 tries of each code (otps.attempts). Each send removes up to 100
-- rows older than a day (any identifier's), so the table holds about a day of codes.
CREATE TABLE otp_events (
  id bigserial PRIMARY KEY,
  identifier text NOT NULL,
  type text NOT NULL CHECK (type IN ('sms', 'email')),
  kind text NOT NULL CHECK (kind IN ('send', 'failure')),
  created_at timestamptz NOT NULL
);
CREATE INDEX otp_events_lookup ON otp_events (identifier, type, kind, created_at);
CREATE INDEX otp_events_created ON otp_events (created_at);

-- Instances whose read cache holds signed-in users (lib/peers.ts): each refreshes its row every few
-- seconds while its LISTEN on courtside_cache is connected. An instance that revokes access asks the
-- ones seen lately to acknowledge, over the same notifications, that they have dropped it.
CREATE TABLE cache_instances (
  id text PRIMARY KEY,
  seen_at timestamptz NOT NULL
);

-- A venue's calendar feed belongs to one staff membership (member_id: the owner, a manager, a
-- staff member or a super_admin who asked for it) and dies with it: the feed answers 404 once its
-- member no longer works the venue's desk or is suspended. The feeds shared by the whole staff
-- until now cannot be traced to a membership, so they are removed (each member gets a new URL).
DELETE FROM calendar_feeds WHERE venue_id IS NOT NULL;
ALTER TABLE calendar_feeds DROP CONSTRAINT calendar_feeds_venue_id_key;
ALTER TABLE calendar_feeds ADD COLUMN member_id bigint REFERENCES users (id) ON DELETE CASCADE;
ALTER TABLE calendar_feeds ADD CONSTRAINT calendar_feeds_member CHECK (venue_id IS NULL OR member_id IS NOT NULL);
CREATE UNIQUE INDEX calendar_feeds_venue_member ON calendar_feeds (venue_id, member_id);
