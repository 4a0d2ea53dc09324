import assert from 'node:assert/strict'
import { test } from 'node:test'
import { processDatabase, runCli } from '../ops/process.ts'

// `npm run ledger -- check` (src/cli/ledger.ts) on a database of its own (a copy of the migrated
// template: PostgreSQL with TEST_DATABASE_URL, else a PGlite data directory): exit 0 and
// "balanced: yes" when the books balance and every wallet agrees with them; exit 1 naming the user
// whose wallet_balance was changed behind the ledger's back.

test('ledger check: balanced books exit 0; a wallet changed behind the ledger exits 1 naming the user', async (t) => {
  const db = await processDatabase()
  t.after(() => db.drop())
  // A customer with a 500.00 top-up through eSewa, written as the app writes it: the balance, the
  // ledger entry, and the wallet row that projects it.
  await db.query(`
    INSERT INTO users (name, email, password_hash, is_active, wallet_balance)
      VALUES ('Ledger Customer', 'ledger-cli@example.test', 'x', true, 50000);
    WITH e AS (
      INSERT INTO ledger_entries (kind, occurred_at, description, user_id)
        SELECT 'topup', now(), 'Wallet top-up', id FROM users WHERE email = 'ledger-cli@example.test'
        RETURNING id, user_id
    ), l AS (
      INSERT INTO ledger_lines (entry_id, account, amount)
        SELECT e.id, x.account, x.amount FROM e,
          LATERAL (VALUES ('gateway:gateway_1:clearing', 50000::bigint), ('wallet:' || e.user_id, -50000::bigint)) AS x(account, amount)
    )
    INSERT INTO wallet_transactions (user_id, type, amount, balance_after, status, description, completed_at, entry_id)
      SELECT e.user_id, 'topup', 50000, 50000, 'completed', 'Wallet top-up', now(), e.id FROM e;`)
  const [user] = await db.query<{ id: number }>(`SELECT id FROM users WHERE email = 'ledger-cli@example.test'`)

  const ok = await runCli(['src/cli/ledger.ts', 'check'], db.env)
  assert.equal(ok.code, 0, `${ok.stdout}${ok.stderr}`)
  assert.match(ok.stdout, /^balanced: yes$/m)
  assert.match(ok.stdout, /^entries {3}1$/m)
  assert.match(ok.stdout, /^debits {4}500\.00$/m)
  assert.match(ok.stdout, /^credits {3}500\.00$/m)
  assert.match(ok.stdout, new RegExp(`^ +500\\.00 {2}customer_wallet +wallet:${user.id}$`, 'm'))
  assert.match(ok.stdout, /^ +500\.00 {2}gateway_clearing +gateway:gateway_1:clearing$/m)
  assert.doesNotMatch(ok.stdout, /PROBLEM/)

  const json = await runCli(['src/cli/ledger.ts', 'check', '--json'], db.env)
  assert.equal(json.code, 0, `${json.stdout}${json.stderr}`)
  const body = JSON.parse(json.stdout)
  assert.equal(body.balanced, true)
  assert.deepEqual(body.problems, [])
  assert.equal(body.debits, '500.00')

  // 1,000.00 appears in the wallet with no entry behind it.
  await db.query(`UPDATE users SET wallet_balance = wallet_balance + 100000 WHERE id = ${user.id}`)
  const bad = await runCli(['src/cli/ledger.ts', 'check'], db.env)
  assert.equal(bad.code, 1, `${bad.stdout}${bad.stderr}`)
  assert.match(bad.stdout, /^balanced: NO$/m)
  assert.match(bad.stdout, new RegExp(`^PROBLEM {3}user ${user.id}: wallet_balance 1500\\.00 ≠ ledger 500\\.00$`, 'm'))
  // The books themselves still balance: the problem is the balance the API would show.
  assert.match(bad.stdout, /^debits {4}500\.00$/m)

  const badJson = await runCli(['src/cli/ledger.ts', 'check', '--json'], db.env)
  assert.equal(badJson.code, 1, badJson.stderr)
  const problems = JSON.parse(badJson.stdout)
  assert.equal(problems.balanced, false)
  assert.deepEqual(problems.problems, [`user ${user.id}: wallet_balance 1500.00 ≠ ledger 500.00`])

  const unknown = await runCli(['src/cli/ledger.ts', 'audit'], db.env)
  assert.equal(unknown.code, 2)
  assert.match(unknown.stderr, /unknown command "audit"/)
})
