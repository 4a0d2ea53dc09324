-- Rows a periodic sweep could not process (src/lib/sweeps.ts). One failing row is retried with
-- back-off and never blocks the rest of its sweep; the state lives here, not in memory, so every
-- instance sees the same back-off. A row leaves this table when the sweep finally succeeds on it.
CREATE TABLE sweep_retries (
  sweep text NOT NULL,
  row_id bigint NOT NULL,
  attempts int NOT NULL DEFAULT 1,
  retry_at timestamptz NOT NULL,
  last_error text,
  first_failed_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (sweep, row_id)
);
CREATE INDEX sweep_retries_retry_at_idx ON sweep_retries (sweep, retry_at);
