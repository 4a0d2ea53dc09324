-- The books defend themselves (docs/payments.md, "Ledger"): what migrations 013, 018 and 020 made
-- append-only can no longer be emptied at once or named wrongly.
-- - TRUNCATE skips row triggers, so the ledger, the receipts and the cash-ups refuse it by a
--   statement trigger of their own.
-- - A closed cash-up is never deleted, as it is never changed.
-- - A ledger line names an account of the chart of accounts (src/modules/ledger/accounts.ts): a
--   made-up name ("walet:5") is refused. NOT VALID: rows written before are not re-checked here
--   (`npm run ledger -- check` names any account it does not know).
CREATE FUNCTION books_refuse_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only and is never truncated', TG_TABLE_NAME USING ERRCODE = 'insufficient_privilege';
END
$$;
CREATE TRIGGER ledger_entries_no_truncate BEFORE TRUNCATE ON ledger_entries
  FOR EACH STATEMENT EXECUTE FUNCTION books_refuse_truncate();
CREATE TRIGGER ledger_lines_no_truncate BEFORE TRUNCATE ON ledger_lines
  FOR EACH STATEMENT EXECUTE FUNCTION books_refuse_truncate();
CREATE TRIGGER receipts_no_truncate BEFORE TRUNCATE ON receipts
  FOR EACH STATEMENT EXECUTE FUNCTION books_refuse_truncate();
CREATE TRIGGER cash_ups_no_truncate BEFORE TRUNCATE ON cash_ups
  FOR EACH STATEMENT EXECUTE FUNCTION books_refuse_truncate();

CREATE TRIGGER cash_ups_no_delete BEFORE DELETE ON cash_ups
  FOR EACH ROW EXECUTE FUNCTION cash_ups_closed();

ALTER TABLE ledger_lines ADD CONSTRAINT ledger_lines_account_known CHECK (
  account ~ '^(wallet:[0-9]+|venue:[0-9]+:(balance|desk|desk_sales|cash_back_due)|gateway:[a-z0-9_]+:(clearing|promotion)|discount:(platform|venue:[0-9]+)|commission:platform|platform:(payouts|opening_balances))$'
) NOT VALID;
