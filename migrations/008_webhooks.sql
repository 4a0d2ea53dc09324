-- Signed webhooks (src/modules/webhooks, docs/webhooks.md). An endpoint is a venue's subscription;
-- a message is one event, written in the transaction of the change it describes (the outbox), its
-- id is the webhook-id every delivery and retry of it carries and its payload is the exact body
-- that is signed; a delivery is one message to one endpoint; an attempt is one HTTP request.
CREATE TABLE webhook_endpoints (
  id bigserial PRIMARY KEY,
  venue_id bigint NOT NULL REFERENCES venues(id) ON DELETE CASCADE,
  url text NOT NULL,
  events text[] NOT NULL,
  secret text NOT NULL,
  created_by bigint REFERENCES users(id) ON DELETE SET NULL,
  -- When the current run of failed attempts began (NULL after a success); 24 hours of failures disable it.
  failing_since timestamptz,
  disabled_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_endpoints_venue_idx ON webhook_endpoints (venue_id);

CREATE TABLE webhook_messages (
  id text PRIMARY KEY,
  venue_id bigint NOT NULL REFERENCES venues(id) ON DELETE CASCADE,
  type text NOT NULL,
  payload text NOT NULL,
  created_at timestamptz NOT NULL
);

CREATE TABLE webhook_deliveries (
  id bigserial PRIMARY KEY,
  message_id text NOT NULL REFERENCES webhook_messages(id) ON DELETE CASCADE,
  endpoint_id bigint NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed')),
  attempts int NOT NULL DEFAULT 0,
  next_attempt_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (message_id, endpoint_id)
);
CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (endpoint_id, id DESC);

CREATE TABLE webhook_attempts (
  id bigserial PRIMARY KEY,
  delivery_id bigint NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
  attempt int NOT NULL,
  status_code int,
  error text,
  duration_ms int NOT NULL,
  attempted_at timestamptz NOT NULL
);
CREATE INDEX webhook_attempts_delivery_idx ON webhook_attempts (delivery_id, id DESC);

-- A plain court booking (the hottest write: one statement) checks through the read cache whether its
-- venue has a subscribed endpoint before opening the transaction the outbox needs; a change to an
-- endpoint announces its venue's tag so every instance drops that answer (src/lib/cache.ts).
-- Only changes that decide who hears a venue's events announce the venue: a delivery's bookkeeping
-- (failing_since) must not empty the venue's read caches on every attempt.
CREATE TRIGGER webhook_endpoints_cache AFTER INSERT OR UPDATE OF venue_id, events, disabled_at OR DELETE ON webhook_endpoints
  FOR EACH ROW EXECUTE FUNCTION courtside_cache_notify('venue', 'venue_id');
