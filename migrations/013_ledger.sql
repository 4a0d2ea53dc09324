-- The double-entry ledger (docs/payments.md, "Ledger"; src/modules/ledger/). Every movement of
-- money is one entry whose lines sum to zero (debits positive, credits negative, integer paisa),
-- written in the same transaction as the change it records. Accounts are named by their code
-- ("wallet:12", "venue:3:balance", "gateway:gateway_1:clearing", …): no accounts table, so a new
-- account costs nothing and an account never has to be created before money moves.
CREATE TABLE ledger_entries (
  id bigserial PRIMARY KEY,
  kind text NOT NULL,
  occurred_at timestamptz NOT NULL,
  description text NOT NULL,
  payment_id bigint,
  booking_type text CHECK (booking_type IN ('court', 'indoor')),
  booking_id bigint,
  venue_id bigint,
  user_id bigint,
  created_by bigint,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE ledger_lines (
  id bigserial PRIMARY KEY,
  entry_id bigint NOT NULL REFERENCES ledger_entries (id),
  account text NOT NULL,
  amount bigint NOT NULL CHECK (amount <> 0)
);
CREATE INDEX ledger_lines_entry_idx ON ledger_lines (entry_id);
CREATE INDEX ledger_lines_account_idx ON ledger_lines (account, entry_id);
CREATE INDEX ledger_entries_booking_idx ON ledger_entries (booking_type, booking_id) WHERE booking_id IS NOT NULL;
CREATE INDEX ledger_entries_venue_idx ON ledger_entries (venue_id, occurred_at) WHERE venue_id IS NOT NULL;

-- An entry's lines are inserted by one statement; after it, every entry it touched must balance
-- and have at least two lines. The database, not the code, refuses an unbalanced entry.
CREATE FUNCTION ledger_check_balanced() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  bad bigint;
BEGIN
  SELECT l.entry_id INTO bad
  FROM ledger_lines l
  WHERE l.entry_id IN (SELECT DISTINCT n.entry_id FROM ledger_new_lines n)
  GROUP BY l.entry_id
  HAVING sum(l.amount) <> 0 OR count(*) < 2
  LIMIT 1;
  IF bad IS NOT NULL THEN
    RAISE EXCEPTION 'ledger entry % does not balance', bad USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER ledger_lines_balanced AFTER INSERT ON ledger_lines
  REFERENCING NEW TABLE AS ledger_new_lines
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_check_balanced();

-- And no entry is left without lines: checked when the transaction commits (an entry is inserted
-- just before its lines, by the same statement in the app; by separate ones in the backfill below).
CREATE FUNCTION ledger_check_entry_lines() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF (SELECT count(*) FROM ledger_lines WHERE entry_id = NEW.id) < 2 THEN
    RAISE EXCEPTION 'ledger entry % has fewer than two lines', NEW.id USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END
$$;
CREATE CONSTRAINT TRIGGER ledger_entries_have_lines AFTER INSERT ON ledger_entries
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION ledger_check_entry_lines();

-- Append-only: a mistake is corrected by a new entry, never by changing an old one.
CREATE FUNCTION ledger_append_only() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the ledger is append-only (% on %)', TG_OP, TG_TABLE_NAME USING ERRCODE = 'insufficient_privilege';
END
$$;
CREATE TRIGGER ledger_entries_append_only BEFORE UPDATE OR DELETE ON ledger_entries
  FOR EACH ROW EXECUTE FUNCTION ledger_append_only();
CREATE TRIGGER ledger_lines_append_only BEFORE UPDATE OR DELETE ON ledger_lines
  FOR EACH ROW EXECUTE FUNCTION ledger_append_only();

-- What the customer actually paid for a payment when the gateway says it was less than requested
-- (Fonepay's P_AMT after a promotion); NULL means the whole amount. Refunds never exceed it.
ALTER TABLE payments ADD COLUMN paid_amount bigint CHECK (paid_amount IS NULL OR paid_amount >= 0);

-- What was returned of a booking's paid money (paid_amount is net of it).
ALTER TABLE bookings ADD COLUMN refunded_amount bigint NOT NULL DEFAULT 0;
ALTER TABLE indoor_game_bookings ADD COLUMN refunded_amount bigint NOT NULL DEFAULT 0;
UPDATE bookings b SET refunded_amount = r.refunded
FROM (
  SELECT payable_id, sum(refunded_amount) AS refunded FROM payments
  WHERE payable_type = 'court' AND refunded_amount > 0 GROUP BY payable_id
) r
WHERE r.payable_id = b.id;
UPDATE indoor_game_bookings b SET refunded_amount = r.refunded
FROM (
  SELECT payable_id, sum(refunded_amount) AS refunded FROM payments
  WHERE payable_type = 'indoor' AND refunded_amount > 0 GROUP BY payable_id
) r
WHERE r.payable_id = b.id;

-- A wallet row's completion time: a top-up is written pending and completes later, and the wallet's
-- history is in the order balances changed.
ALTER TABLE wallet_transactions ADD COLUMN completed_at timestamptz;
UPDATE wallet_transactions SET completed_at = created_at WHERE status = 'completed';
CREATE INDEX wallet_transactions_completed_idx ON wallet_transactions (user_id, completed_at DESC NULLS FIRST, id DESC);

-- Desk money refunded is paid back at the venue's desk: each refund of it is a cash-back, due until
-- staff record handing it over (the drawer's count then reflects it).
CREATE TABLE cash_backs (
  id bigserial PRIMARY KEY,
  venue_id bigint NOT NULL REFERENCES venues (id) ON DELETE CASCADE,
  booking_type text NOT NULL CHECK (booking_type IN ('court', 'indoor')),
  booking_id bigint NOT NULL,
  payment_id bigint NOT NULL REFERENCES payments (id),
  user_id bigint REFERENCES users (id),
  amount bigint NOT NULL CHECK (amount > 0),
  reason text,
  status text NOT NULL DEFAULT 'due' CHECK (status IN ('due', 'paid')),
  paid_by bigint REFERENCES users (id),
  paid_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX cash_backs_due_idx ON cash_backs (venue_id, created_at) WHERE status = 'due';
CREATE INDEX cash_backs_booking_idx ON cash_backs (booking_type, booking_id);

-- The entries of everything that happened before the ledger, so an upgraded database balances.
-- Wallet rows carry the wallet side (their counterpart: the top-up's gateway, or the venue of the
-- booking they reference); non-wallet payments their receipts; desk refunds that did not go to a
-- wallet were handed back at the desk. Anything without a known counterpart is an opening balance.
CREATE TEMP TABLE ledger_backfill (
  seq bigserial,
  kind text,
  occurred_at timestamptz,
  description text,
  payment_id bigint,
  booking_type text,
  booking_id bigint,
  venue_id bigint,
  user_id bigint,
  debit text,
  credit text,
  amount bigint
) ON COMMIT DROP;

-- Completed wallet rows.
INSERT INTO ledger_backfill (kind, occurred_at, description, payment_id, booking_type, booking_id, venue_id, user_id, debit, credit, amount)
SELECT
  CASE w.type WHEN 'topup' THEN 'topup' WHEN 'debit' THEN 'wallet_payment' ELSE 'refund_to_wallet' END,
  w.created_at,
  coalesce(w.description, w.type),
  w.payment_id,
  CASE w.reference_type WHEN 'booking' THEN 'court' WHEN 'indoor' THEN 'indoor' END,
  CASE WHEN w.reference_type IN ('booking', 'indoor') THEN w.reference_id END,
  v.venue_id,
  w.user_id,
  CASE w.type
    WHEN 'debit' THEN 'wallet:' || w.user_id
    WHEN 'topup' THEN coalesce('gateway:' || p.method || ':clearing', 'platform:opening_balances')
    ELSE coalesce('venue:' || v.venue_id || ':balance', 'platform:opening_balances')
  END,
  CASE w.type
    WHEN 'debit' THEN coalesce('venue:' || v.venue_id || ':balance', 'platform:opening_balances')
    ELSE 'wallet:' || w.user_id
  END,
  w.amount
FROM wallet_transactions w
LEFT JOIN payments p ON p.id = w.payment_id
LEFT JOIN LATERAL (
  SELECT b.venue_id FROM bookings b WHERE w.reference_type = 'booking' AND b.id = w.reference_id
  UNION ALL
  SELECT i.venue_id FROM indoor_game_bookings i WHERE w.reference_type = 'indoor' AND i.id = w.reference_id
) v ON true
WHERE w.status = 'completed';

-- Receipts of booking payments not made from the wallet: a gateway's clearing account, or the
-- venue's desk for money staff recorded.
INSERT INTO ledger_backfill (kind, occurred_at, description, payment_id, booking_type, booking_id, venue_id, user_id, debit, credit, amount)
SELECT
  CASE WHEN p.recorded_by IS NULL THEN 'gateway_payment' ELSE 'desk_payment' END,
  coalesce(p.completed_at, p.updated_at),
  'Payment ' || p.reference,
  p.id, p.payable_type, p.payable_id, v.venue_id, p.user_id,
  CASE WHEN p.recorded_by IS NULL THEN 'gateway:' || p.method || ':clearing' ELSE 'venue:' || v.venue_id || ':desk' END,
  CASE WHEN p.recorded_by IS NULL THEN 'venue:' || v.venue_id || ':balance' ELSE 'venue:' || v.venue_id || ':desk_sales' END,
  p.amount
FROM payments p
JOIN LATERAL (
  SELECT b.venue_id FROM bookings b WHERE p.payable_type = 'court' AND b.id = p.payable_id
  UNION ALL
  SELECT i.venue_id FROM indoor_game_bookings i WHERE p.payable_type = 'indoor' AND i.id = p.payable_id
) v ON true
WHERE p.method <> 'wallet' AND p.status IN ('completed', 'partially_refunded', 'refunded');

-- Desk refunds that no wallet row paid: handed back at the desk.
INSERT INTO ledger_backfill (kind, occurred_at, description, payment_id, booking_type, booking_id, venue_id, user_id, debit, credit, amount)
SELECT
  'desk_refund', p.updated_at, 'Refund of payment ' || p.reference || ' handed back at the desk (before the ledger)',
  p.id, p.payable_type, p.payable_id, v.venue_id, p.user_id,
  'venue:' || v.venue_id || ':desk_sales', 'venue:' || v.venue_id || ':desk',
  p.refunded_amount - coalesce((
    SELECT sum(w.amount) FROM wallet_transactions w
    WHERE w.payment_id = p.id AND w.type = 'credit' AND w.status = 'completed'
  ), 0)
FROM payments p
JOIN LATERAL (
  SELECT b.venue_id FROM bookings b WHERE p.payable_type = 'court' AND b.id = p.payable_id
  UNION ALL
  SELECT i.venue_id FROM indoor_game_bookings i WHERE p.payable_type = 'indoor' AND i.id = p.payable_id
) v ON true
WHERE p.recorded_by IS NOT NULL AND p.refunded_amount > 0;

DELETE FROM ledger_backfill WHERE amount <= 0;

-- Entry ids in the order things happened.
ALTER TABLE ledger_backfill ADD COLUMN entry_id bigint;
UPDATE ledger_backfill f SET entry_id = o.id
FROM (
  SELECT s.seq, nextval('ledger_entries_id_seq') AS id
  FROM (SELECT seq FROM ledger_backfill ORDER BY occurred_at, seq) s
) o
WHERE o.seq = f.seq;

INSERT INTO ledger_entries (id, kind, occurred_at, description, payment_id, booking_type, booking_id, venue_id, user_id)
SELECT entry_id, kind, occurred_at, description, payment_id, booking_type, booking_id, venue_id, user_id
FROM ledger_backfill;

INSERT INTO ledger_lines (entry_id, account, amount)
SELECT entry_id, debit, amount FROM ledger_backfill
UNION ALL
SELECT entry_id, credit, -amount FROM ledger_backfill;
