-- Courtside schema. Runs on PostgreSQL 15+ and on embedded PGlite (PostgreSQL 18).
-- Money columns are integer paisa (bigint). Times of day are venue-local wall-clock times.

CREATE EXTENSION IF NOT EXISTS btree_gist;
CREATE EXTENSION IF NOT EXISTS citext;

-- Accounts -----------------------------------------------------------------

CREATE TABLE roles (
  id serial PRIMARY KEY,
  name text NOT NULL UNIQUE
);

CREATE TABLE permissions (
  id serial PRIMARY KEY,
  name text NOT NULL UNIQUE
);

CREATE TABLE role_permissions (
  role_id int NOT NULL REFERENCES roles(id) ON DELETE CASCADE,
  permission_id int NOT NULL REFERENCES permissions(id) ON DELETE CASCADE,
  PRIMARY KEY (role_id, permission_id)
);

CREATE TABLE users (
  id bigserial PRIMARY KEY,
  name text NOT NULL,
  email citext NOT NULL UNIQUE,
  phone text UNIQUE,
  password_hash text,
  avatar_path text,
  wallet_balance bigint NOT NULL DEFAULT 0 CHECK (wallet_balance >= 0),
  is_active boolean NOT NULL DEFAULT true,
  email_verified_at timestamptz,
  phone_verified_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE user_roles (
  user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  role_id int NOT NULL REFERENCES roles(id) ON DELETE CASCADE,
  PRIMARY KEY (user_id, role_id)
);

CREATE TABLE api_tokens (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name text NOT NULL,
  token_hash text NOT NULL UNIQUE,
  last_used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX api_tokens_user_idx ON api_tokens (user_id);

CREATE TABLE social_accounts (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  provider text NOT NULL,
  provider_user_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (provider, provider_user_id)
);

CREATE TABLE otps (
  id bigserial PRIMARY KEY,
  identifier text NOT NULL,
  type text NOT NULL CHECK (type IN ('sms', 'email')),
  code_hash text NOT NULL,
  attempts int NOT NULL DEFAULT 0,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (identifier, type)
);

-- Notifications and push ---------------------------------------------------

CREATE TABLE device_tokens (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  token text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX device_tokens_user_idx ON device_tokens (user_id);

CREATE TABLE notifications (
  id uuid PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  type text NOT NULL,
  data jsonb NOT NULL,
  read_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX notifications_user_idx ON notifications (user_id, created_at DESC);

-- Background jobs: claimed with FOR UPDATE SKIP LOCKED so any number of instances can share them.
CREATE TABLE jobs (
  id bigserial PRIMARY KEY,
  name text NOT NULL,
  payload jsonb NOT NULL DEFAULT '{}'::jsonb,
  unique_key text UNIQUE,
  run_at timestamptz NOT NULL DEFAULT now(),
  attempts int NOT NULL DEFAULT 0,
  max_attempts int NOT NULL DEFAULT 5,
  locked_until timestamptz,
  last_error text,
  done_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX jobs_due_idx ON jobs (run_at) WHERE done_at IS NULL;

-- Venues, courts, indoor games ---------------------------------------------

CREATE TABLE amenities (
  id serial PRIMARY KEY,
  name text NOT NULL UNIQUE,
  icon text
);

CREATE TABLE sports (
  id serial PRIMARY KEY,
  name text NOT NULL,
  slug text NOT NULL UNIQUE,
  key text NOT NULL UNIQUE,
  label text NOT NULL,
  category text NOT NULL DEFAULT 'outdoor' CHECK (category IN ('indoor', 'outdoor'))
);

CREATE TABLE venues (
  id bigserial PRIMARY KEY,
  owner_id bigint NOT NULL REFERENCES users(id),
  name text NOT NULL,
  slug text NOT NULL UNIQUE,
  description text,
  phone text,
  email text,
  address text NOT NULL,
  city text NOT NULL,
  state text NOT NULL,
  latitude numeric(10, 7) NOT NULL,
  longitude numeric(10, 7) NOT NULL,
  opening_time time NOT NULL,
  closing_time time NOT NULL CHECK (closing_time > opening_time),
  is_active boolean NOT NULL DEFAULT true,
  verification_status text NOT NULL DEFAULT 'unverified'
    CHECK (verification_status IN ('unverified', 'pending', 'verified', 'rejected')),
  verification_requested_at timestamptz,
  verification_reviewed_at timestamptz,
  verification_note text,
  free_cancellation_hours int NOT NULL DEFAULT 24,
  min_price bigint,
  reviews_count int NOT NULL DEFAULT 0,
  reviews_avg_rating numeric(3, 1),
  deleted_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX venues_owner_idx ON venues (owner_id);
CREATE INDEX venues_geo_idx ON venues (latitude, longitude) WHERE deleted_at IS NULL;
CREATE INDEX venues_city_idx ON venues (lower(city));

CREATE TABLE venue_amenities (
  venue_id bigint NOT NULL REFERENCES venues(id) ON DELETE CASCADE,
  amenity_id int NOT NULL REFERENCES amenities(id) ON DELETE CASCADE,
  PRIMARY KEY (venue_id, amenity_id)
);

CREATE TABLE venue_staff (
  venue_id bigint NOT NULL REFERENCES venues(id) ON DELETE CASCADE,
  user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  role text NOT NULL CHECK (role IN ('manager', 'staff')),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (venue_id, user_id)
);
CREATE INDEX venue_staff_user_idx ON venue_staff (user_id);

-- Uploaded files of any owner (venue photos, court photos, review photos).
CREATE TABLE media (
  id bigserial PRIMARY KEY,
  model_type text NOT NULL,
  model_id bigint NOT NULL,
  collection text NOT NULL,
  path text NOT NULL,
  mime_type text NOT NULL,
  size int NOT NULL,
  sort_order int,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX media_model_idx ON media (model_type, model_id);

CREATE TABLE courts (
  id bigserial PRIMARY KEY,
  venue_id bigint NOT NULL REFERENCES venues(id),
  sport_id int REFERENCES sports(id),
  name text NOT NULL,
  type text NOT NULL,
  description text,
  capacity int NOT NULL DEFAULT 10 CHECK (capacity > 0),
  slot_minutes int NOT NULL DEFAULT 60 CHECK (slot_minutes IN (15, 30, 45, 60, 90, 120)),
  price_per_hour bigint NOT NULL CHECK (price_per_hour >= 0),
  is_active boolean NOT NULL DEFAULT true,
  deleted_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX courts_venue_idx ON courts (venue_id);

CREATE TABLE court_schedules (
  id bigserial PRIMARY KEY,
  court_id bigint NOT NULL REFERENCES courts(id) ON DELETE CASCADE,
  day_of_week int NOT NULL CHECK (day_of_week BETWEEN 0 AND 6),
  open_time time NOT NULL,
  close_time time NOT NULL,
  is_closed boolean NOT NULL DEFAULT false,
  UNIQUE (court_id, day_of_week)
);

CREATE TABLE pricing_rules (
  id bigserial PRIMARY KEY,
  court_id bigint NOT NULL REFERENCES courts(id) ON DELETE CASCADE,
  type text NOT NULL CHECK (type IN ('standard', 'peak', 'off_peak', 'holiday')),
  day_of_week int CHECK (day_of_week BETWEEN 0 AND 6),
  start_time time NOT NULL,
  end_time time NOT NULL CHECK (end_time > start_time),
  price_per_hour bigint NOT NULL CHECK (price_per_hour >= 0),
  is_active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX pricing_rules_court_idx ON pricing_rules (court_id);

CREATE TABLE venue_holidays (
  id bigserial PRIMARY KEY,
  venue_id bigint NOT NULL REFERENCES venues(id) ON DELETE CASCADE,
  date date NOT NULL,
  name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (venue_id, date)
);

CREATE TABLE court_blocks (
  id bigserial PRIMARY KEY,
  court_id bigint NOT NULL REFERENCES courts(id) ON DELETE CASCADE,
  date date NOT NULL,
  start_time time NOT NULL,
  end_time time NOT NULL CHECK (end_time > start_time),
  reason text,
  created_by bigint REFERENCES users(id),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX court_blocks_court_date_idx ON court_blocks (court_id, date);

CREATE TABLE indoor_games (
  id bigserial PRIMARY KEY,
  venue_id bigint NOT NULL REFERENCES venues(id),
  tenant_id bigint NOT NULL REFERENCES users(id),
  name text NOT NULL,
  game_type text NOT NULL
    CHECK (game_type IN ('playstation', 'chess', 'ludo', 'cards', 'uno', 'table_tennis', 'carrom', 'other')),
  description text,
  capacity int NOT NULL DEFAULT 2 CHECK (capacity > 0),
  slot_minutes int NOT NULL DEFAULT 60 CHECK (slot_minutes IN (15, 30, 45, 60, 90, 120)),
  price_per_hour bigint NOT NULL CHECK (price_per_hour >= 0),
  is_active boolean NOT NULL DEFAULT true,
  sort_order int NOT NULL DEFAULT 0,
  deleted_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX indoor_games_venue_idx ON indoor_games (venue_id);

-- Bookings ------------------------------------------------------------------

-- Per-kind, per-year counters for booking numbers (BK-2026-000001, IG-2026-000001).
CREATE TABLE booking_sequences (
  kind text NOT NULL,
  year int NOT NULL,
  last_value int NOT NULL,
  PRIMARY KEY (kind, year)
);

CREATE TABLE bookings (
  id bigserial PRIMARY KEY,
  booking_number text NOT NULL UNIQUE,
  user_id bigint REFERENCES users(id),
  court_id bigint NOT NULL REFERENCES courts(id),
  venue_id bigint NOT NULL REFERENCES venues(id),
  type text NOT NULL DEFAULT 'online' CHECK (type IN ('online', 'offline', 'walkin')),
  status text NOT NULL DEFAULT 'pending'
    CHECK (status IN ('pending', 'confirmed', 'playing', 'completed', 'cancelled', 'no_show')),
  date date NOT NULL,
  start_time time NOT NULL,
  end_time time NOT NULL CHECK (end_time > start_time),
  period tsrange GENERATED ALWAYS AS (tsrange(date + start_time, date + end_time, '[)')) STORED,
  base_amount bigint NOT NULL,
  discount_amount bigint NOT NULL DEFAULT 0,
  extras_total bigint NOT NULL DEFAULT 0,
  total_amount bigint NOT NULL,
  paid_amount bigint NOT NULL DEFAULT 0,
  payment_method text,
  hold_expires_at timestamptz,
  customer_name text NOT NULL,
  customer_phone text,
  notes text,
  cancel_reason text,
  cancelled_at timestamptz,
  reminder_sent_at timestamptz,
  created_by bigint REFERENCES users(id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  -- The database, not application code, makes a double booking impossible.
  CONSTRAINT bookings_no_overlap EXCLUDE USING gist (court_id WITH =, period WITH &&)
    WHERE (status IN ('pending', 'confirmed', 'playing'))
);
CREATE INDEX bookings_user_idx ON bookings (user_id, date DESC);
CREATE INDEX bookings_court_date_idx ON bookings (court_id, date);
CREATE INDEX bookings_venue_date_idx ON bookings (venue_id, date);
CREATE INDEX bookings_hold_idx ON bookings (hold_expires_at) WHERE status = 'pending';

CREATE TABLE indoor_game_bookings (
  id bigserial PRIMARY KEY,
  booking_number text NOT NULL UNIQUE,
  tenant_id bigint NOT NULL REFERENCES users(id),
  user_id bigint REFERENCES users(id),
  indoor_game_id bigint NOT NULL REFERENCES indoor_games(id),
  venue_id bigint NOT NULL REFERENCES venues(id),
  type text NOT NULL DEFAULT 'online' CHECK (type IN ('online', 'offline', 'walkin')),
  status text NOT NULL DEFAULT 'pending'
    CHECK (status IN ('pending', 'confirmed', 'playing', 'completed', 'cancelled', 'no_show')),
  date date NOT NULL,
  start_time time NOT NULL,
  end_time time NOT NULL CHECK (end_time > start_time),
  period tsrange GENERATED ALWAYS AS (tsrange(date + start_time, date + end_time, '[)')) STORED,
  players_count int,
  base_amount bigint NOT NULL,
  discount_amount bigint NOT NULL DEFAULT 0,
  extras_total bigint NOT NULL DEFAULT 0,
  total_amount bigint NOT NULL,
  paid_amount bigint NOT NULL DEFAULT 0,
  payment_method text,
  hold_expires_at timestamptz,
  customer_name text NOT NULL,
  customer_phone text,
  notes text,
  cancel_reason text,
  cancelled_at timestamptz,
  reminder_sent_at timestamptz,
  created_by bigint REFERENCES users(id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT indoor_bookings_no_overlap EXCLUDE USING gist (indoor_game_id WITH =, period WITH &&)
    WHERE (status IN ('pending', 'confirmed', 'playing'))
);
CREATE INDEX indoor_bookings_user_idx ON indoor_game_bookings (user_id, date DESC);
CREATE INDEX indoor_bookings_game_date_idx ON indoor_game_bookings (indoor_game_id, date);
CREATE INDEX indoor_bookings_venue_date_idx ON indoor_game_bookings (venue_id, date);
CREATE INDEX indoor_bookings_hold_idx ON indoor_game_bookings (hold_expires_at) WHERE status = 'pending';

-- Extra session charges (drinks, equipment) for court ('court') or indoor ('indoor') bookings.
CREATE TABLE booking_charges (
  id bigserial PRIMARY KEY,
  booking_type text NOT NULL CHECK (booking_type IN ('court', 'indoor')),
  booking_id bigint NOT NULL,
  description text NOT NULL,
  amount bigint NOT NULL CHECK (amount > 0),
  created_by bigint REFERENCES users(id),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX booking_charges_booking_idx ON booking_charges (booking_type, booking_id);

-- Payments: for a court booking, an indoor booking, or a wallet top-up.
CREATE TABLE payments (
  id bigserial PRIMARY KEY,
  user_id bigint REFERENCES users(id),
  payable_type text NOT NULL CHECK (payable_type IN ('court', 'indoor', 'topup')),
  payable_id bigint NOT NULL,
  method text NOT NULL,
  amount bigint NOT NULL CHECK (amount > 0),
  refunded_amount bigint NOT NULL DEFAULT 0,
  status text NOT NULL DEFAULT 'initiated'
    CHECK (status IN ('initiated', 'completed', 'failed', 'refunded', 'partially_refunded')),
  reference text UNIQUE,
  gateway_transaction_id text,
  gateway_payload jsonb,
  return_url text,
  recorded_by bigint REFERENCES users(id),
  completed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX payments_payable_idx ON payments (payable_type, payable_id);

-- Wallet ledger. Completed rows are the truth: users.wallet_balance == signed sum of completed rows.
CREATE TABLE wallet_transactions (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users(id),
  type text NOT NULL CHECK (type IN ('topup', 'debit', 'credit')),
  status text NOT NULL DEFAULT 'completed' CHECK (status IN ('pending', 'completed', 'failed')),
  amount bigint NOT NULL CHECK (amount > 0),
  balance_after bigint,
  reference_type text,
  reference_id bigint,
  payment_id bigint REFERENCES payments(id),
  description text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX wallet_transactions_user_idx ON wallet_transactions (user_id, id DESC);

-- Coupons -------------------------------------------------------------------

CREATE TABLE coupons (
  id bigserial PRIMARY KEY,
  venue_id bigint REFERENCES venues(id) ON DELETE CASCADE,
  code citext NOT NULL UNIQUE,
  type text NOT NULL CHECK (type IN ('percent', 'fixed')),
  value bigint NOT NULL CHECK (value > 0),
  max_discount bigint,
  min_amount bigint,
  starts_at timestamptz,
  expires_at timestamptz,
  usage_limit int,
  per_user_limit int,
  used_count int NOT NULL DEFAULT 0,
  is_active boolean NOT NULL DEFAULT true,
  created_by bigint REFERENCES users(id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (usage_limit IS NULL OR used_count <= usage_limit)
);

CREATE TABLE coupon_usages (
  id bigserial PRIMARY KEY,
  coupon_id bigint NOT NULL REFERENCES coupons(id) ON DELETE CASCADE,
  user_id bigint REFERENCES users(id),
  booking_type text NOT NULL CHECK (booking_type IN ('court', 'indoor')),
  booking_id bigint NOT NULL,
  discount_amount bigint NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX coupon_usages_coupon_user_idx ON coupon_usages (coupon_id, user_id);
CREATE UNIQUE INDEX coupon_usages_booking_idx ON coupon_usages (booking_type, booking_id);

-- Reviews -------------------------------------------------------------------

CREATE TABLE reviews (
  id bigserial PRIMARY KEY,
  venue_id bigint NOT NULL REFERENCES venues(id) ON DELETE CASCADE,
  user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  booking_id bigint REFERENCES bookings(id) ON DELETE SET NULL,
  rating int NOT NULL CHECK (rating BETWEEN 1 AND 5),
  comment text,
  is_approved boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (venue_id, user_id)
);
CREATE INDEX reviews_booking_idx ON reviews (booking_id);

CREATE TABLE review_replies (
  id bigserial PRIMARY KEY,
  review_id bigint NOT NULL REFERENCES reviews(id) ON DELETE CASCADE,
  user_id bigint NOT NULL REFERENCES users(id),
  reply text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX review_replies_review_idx ON review_replies (review_id);

-- Tournaments ---------------------------------------------------------------

CREATE TABLE tournaments (
  id bigserial PRIMARY KEY,
  venue_id bigint NOT NULL REFERENCES venues(id),
  name text NOT NULL,
  description text,
  format text NOT NULL CHECK (format IN ('league', 'knockout', 'group_knockout')),
  sport_type text NOT NULL,
  max_teams int NOT NULL CHECK (max_teams >= 2),
  registered_teams int NOT NULL DEFAULT 0,
  registration_fee bigint NOT NULL DEFAULT 0,
  prize_pool bigint NOT NULL DEFAULT 0,
  starts_at date NOT NULL,
  ends_at date NOT NULL CHECK (ends_at >= starts_at),
  status text NOT NULL DEFAULT 'registration_open'
    CHECK (status IN ('registration_open', 'registration_closed', 'ongoing', 'completed', 'cancelled')),
  created_by bigint REFERENCES users(id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (registered_teams <= max_teams)
);

CREATE TABLE tournament_teams (
  id bigserial PRIMARY KEY,
  tournament_id bigint NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
  user_id bigint REFERENCES users(id),
  name text NOT NULL,
  captain_name text NOT NULL,
  contact_phone text,
  players jsonb NOT NULL DEFAULT '[]'::jsonb,
  registered_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX tournament_teams_name_idx ON tournament_teams (tournament_id, lower(name));

CREATE TABLE fixtures (
  id bigserial PRIMARY KEY,
  tournament_id bigint NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
  stage text NOT NULL DEFAULT 'league' CHECK (stage IN ('league', 'group', 'knockout')),
  group_name text,
  round text NOT NULL,
  round_number int NOT NULL DEFAULT 1,
  match_number int NOT NULL,
  team_a_id bigint REFERENCES tournament_teams(id),
  team_b_id bigint REFERENCES tournament_teams(id),
  scheduled_at timestamptz,
  status text NOT NULL DEFAULT 'scheduled' CHECK (status IN ('scheduled', 'completed', 'bye')),
  score_a int,
  score_b int,
  winner_id bigint REFERENCES tournament_teams(id),
  next_fixture_id bigint REFERENCES fixtures(id),
  next_slot text CHECK (next_slot IN ('a', 'b')),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (tournament_id, match_number)
);

-- Seed data every installation needs ----------------------------------------

INSERT INTO roles (name) VALUES ('customer'), ('venue_owner'), ('manager'), ('staff'), ('super_admin');

INSERT INTO permissions (name) VALUES
  ('bookings.create'), ('bookings.view_own'), ('reviews.create'), ('wallet.use'), ('tournaments.register'),
  ('venues.create'), ('venues.manage'), ('courts.manage'), ('bookings.manage'), ('payments.record'),
  ('coupons.manage'), ('tournaments.manage'), ('reviews.moderate'), ('reviews.reply'), ('staff.manage'),
  ('venues.verify'), ('users.manage'), ('payments.refund');

INSERT INTO role_permissions (role_id, permission_id)
SELECT r.id, p.id FROM roles r JOIN permissions p ON (
  (r.name = 'customer' AND p.name IN ('bookings.create', 'bookings.view_own', 'reviews.create', 'wallet.use',
    'tournaments.register'))
  OR (r.name = 'venue_owner' AND p.name IN ('venues.create', 'venues.manage', 'courts.manage', 'bookings.manage',
    'payments.record', 'coupons.manage', 'tournaments.manage', 'reviews.moderate', 'reviews.reply', 'staff.manage',
    'payments.refund'))
  OR (r.name = 'manager' AND p.name IN ('venues.manage', 'courts.manage', 'bookings.manage', 'payments.record',
    'coupons.manage', 'tournaments.manage', 'reviews.moderate', 'reviews.reply', 'payments.refund'))
  OR (r.name = 'staff' AND p.name IN ('bookings.manage', 'payments.record', 'reviews.reply'))
  OR (r.name = 'super_admin')
);

INSERT INTO amenities (name, icon) VALUES
  ('Parking', 'parking'), ('Changing Room', 'shirt'), ('Shower', 'shower'), ('Drinking Water', 'water'),
  ('Cafeteria', 'coffee'), ('Floodlights', 'lightbulb'), ('First Aid', 'first-aid'), ('Wi-Fi', 'wifi');

INSERT INTO sports (name, slug, key, label, category) VALUES
  ('Futsal', 'futsal', 'futsal', 'Futsal', 'outdoor'),
  ('Football', 'football', 'football', 'Football', 'outdoor'),
  ('Cricket', 'cricket', 'cricket', 'Cricket', 'outdoor'),
  ('Basketball', 'basketball', 'basketball', 'Basketball', 'outdoor'),
  ('Badminton', 'badminton', 'badminton', 'Badminton', 'indoor'),
  ('Table Tennis', 'table-tennis', 'table_tennis', 'Table Tennis', 'indoor'),
  ('Volleyball', 'volleyball', 'volleyball', 'Volleyball', 'outdoor'),
  ('Tennis', 'tennis', 'tennis', 'Tennis', 'outdoor');
