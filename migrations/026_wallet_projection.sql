-- The wallet is kept once in the ledger (issue 45; docs/payments.md, "The wallet's records"):
-- a completed `wallet_transactions` row is a projection of its entry's line on `wallet:{user}`.
-- The row names the entry it projects; its amount, direction (debit when the line is a debit),
-- description, payment and balance_after (the account's balance after that entry) are read from
-- the ledger when the row is written (src/modules/wallet/repository.ts), never computed beside it.
-- A pending or failed top-up has no entry yet: its entry is posted when the gateway confirms.
ALTER TABLE wallet_transactions ADD COLUMN entry_id bigint REFERENCES ledger_entries (id);
CREATE UNIQUE INDEX wallet_transactions_entry_idx ON wallet_transactions (entry_id);

-- Rows written before: each completed row is linked to the wallet line of the same user, payment,
-- direction and amount, the n-th row of such a group to the n-th line (rows by completion, lines
-- by entry). A row left without an entry is named by `npm run ledger -- check`.
WITH r AS (
  SELECT w.id, w.user_id, w.payment_id, w.type = 'debit' AS debit, w.amount,
         row_number() OVER (PARTITION BY w.user_id, w.payment_id, w.type = 'debit', w.amount
                            ORDER BY w.completed_at, w.id) AS n
  FROM wallet_transactions w
  WHERE w.status = 'completed'
), l AS (
  SELECT l.entry_id, substr(l.account, 8)::bigint AS user_id, e.payment_id, l.amount > 0 AS debit,
         abs(l.amount) AS amount,
         row_number() OVER (PARTITION BY l.account, e.payment_id, l.amount > 0, abs(l.amount)
                            ORDER BY l.entry_id) AS n
  FROM ledger_lines l
  JOIN ledger_entries e ON e.id = l.entry_id
  WHERE l.account LIKE 'wallet:%'
)
UPDATE wallet_transactions w SET entry_id = l.entry_id
FROM r
JOIN l ON l.user_id = r.user_id AND l.payment_id IS NOT DISTINCT FROM r.payment_id AND l.debit = r.debit
  AND l.amount = r.amount AND l.n = r.n
WHERE w.id = r.id;
