-- Open matches (src/modules/matches, docs/matches.md): a customer opens their booking to other
-- players; each player holds one share of the booking's split. Levels are kept per user and sport
-- as Glicko-2 ratings (rating, deviation, volatility) and shown as 0.0–7.0.
CREATE TABLE matches (
  id bigserial PRIMARY KEY,
  booking_type text NOT NULL CHECK (booking_type IN ('court', 'indoor')),
  booking_id bigint NOT NULL,
  organizer_id bigint NOT NULL REFERENCES users(id),
  venue_id bigint NOT NULL REFERENCES venues(id),
  -- The sport's key (sports.key of the court's sport, else the court type; an indoor game's game_type).
  sport text NOT NULL,
  starts_at timestamptz NOT NULL,
  players_total smallint NOT NULL CHECK (players_total BETWEEN 2 AND 22),
  level_min numeric(2, 1) CHECK (level_min BETWEEN 0 AND 7),
  level_max numeric(2, 1) CHECK (level_max BETWEEN 0 AND 7),
  visibility text NOT NULL CHECK (visibility IN ('public', 'private')),
  -- The private link's secret (/m/{token}); public matches have one too, unused.
  link_token text NOT NULL UNIQUE,
  note text,
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'full', 'cancelled', 'played')),
  deadline_notified_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK (level_min IS NULL OR level_max IS NULL OR level_min <= level_max)
);
-- One live match per booking.
CREATE UNIQUE INDEX matches_booking_idx ON matches (booking_type, booking_id) WHERE status <> 'cancelled';
CREATE INDEX matches_public_idx ON matches (starts_at) WHERE visibility = 'public' AND status IN ('open', 'full');

-- The players of a match. A player who leaves keeps the row (left_at) so they may join again.
CREATE TABLE match_players (
  id bigserial PRIMARY KEY,
  match_id bigint NOT NULL REFERENCES matches(id),
  user_id bigint NOT NULL REFERENCES users(id),
  -- The share of the booking's split this player holds (migrations/036); a re-split drops it.
  share_id bigint REFERENCES booking_shares(id) ON DELETE SET NULL,
  joined_at timestamptz NOT NULL,
  left_at timestamptz
);
CREATE UNIQUE INDEX match_players_live_idx ON match_players (match_id, user_id) WHERE left_at IS NULL;
CREATE INDEX match_players_user_idx ON match_players (user_id);
-- A share is held by one live player at most: two joins racing for the last share cannot both win.
CREATE UNIQUE INDEX match_players_share_idx ON match_players (share_id) WHERE left_at IS NULL;

-- The organizer's invitations: an invited user may see a private match and join outside its level range.
CREATE TABLE match_invites (
  match_id bigint NOT NULL REFERENCES matches(id),
  user_id bigint NOT NULL REFERENCES users(id),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (match_id, user_id)
);

-- A reported result ([[ids],[ids]] and [score of team 1, score of team 2]); confirmed by a player of
-- the other team, it moves the players' ratings once.
CREATE TABLE match_results (
  match_id bigint PRIMARY KEY REFERENCES matches(id),
  teams jsonb NOT NULL,
  score_1 smallint NOT NULL CHECK (score_1 >= 0),
  score_2 smallint NOT NULL CHECK (score_2 >= 0),
  reported_by bigint NOT NULL REFERENCES users(id),
  reported_at timestamptz NOT NULL,
  confirmed_by bigint REFERENCES users(id),
  confirmed_at timestamptz
);

CREATE TABLE player_ratings (
  user_id bigint NOT NULL REFERENCES users(id),
  sport text NOT NULL,
  rating double precision NOT NULL,
  rd double precision NOT NULL,
  volatility double precision NOT NULL,
  matches_played integer NOT NULL DEFAULT 0,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, sport)
);
