-- Owner onboarding without an admin (issue 33): staff invitations for people without an account.
-- An owner invites an email as manager or staff; the invitee opens the mailed link
-- (/console/#/invitations/{token}), sets a name and password, and becomes staff of the venue.
-- Only an HMAC of the token (keyed with APP_KEY) is stored; expires_at is the app's clock + 7 days.
CREATE TABLE venue_invitations (
  id bigserial PRIMARY KEY,
  venue_id bigint NOT NULL REFERENCES venues(id) ON DELETE CASCADE,
  email citext NOT NULL,
  role text NOT NULL CHECK (role IN ('manager', 'staff')),
  token_hash text NOT NULL UNIQUE,
  invited_by bigint REFERENCES users(id) ON DELETE SET NULL,
  expires_at timestamptz NOT NULL,
  accepted_at timestamptz,
  accepted_user_id bigint REFERENCES users(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX venue_invitations_venue_idx ON venue_invitations (venue_id, email);
