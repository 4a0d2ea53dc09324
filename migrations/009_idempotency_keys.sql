-- Idempotency keys (src/lib/idempotency.ts, docs/idempotency.md): one row per (user, key). A request
-- claims its key by inserting a 'processing' row with a lease; when its handler answers, the row
-- keeps the answer (status, body) to replay. Rows expire 24 hours after the claim and are pruned
-- by the idempotency.prune job.
CREATE TABLE idempotency_keys (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  key text NOT NULL,
  request_hash text NOT NULL,
  status text NOT NULL DEFAULT 'processing' CHECK (status IN ('processing', 'completed')),
  claim text NOT NULL,
  locked_until timestamptz NOT NULL,
  response_status int,
  response_type text,
  response_body text,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  UNIQUE (user_id, key)
);
CREATE INDEX idempotency_keys_expires_at_idx ON idempotency_keys (expires_at);
