import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, test } from 'node:test'
import { sql } from 'kysely'
import pg from 'pg'
import { type DatabaseHandle, openDatabase } from '../../src/lib/db.ts'
import { knownMigrations, migrate } from '../../src/lib/migrate.ts'
import { checkLedger } from '../../src/modules/ledger/index.ts'

// Upgrading a database that has money in it: migration 013 writes the ledger entries of every
// wallet row, payment and refund made before the ledger existed, so the upgraded books balance and
// every wallet and booking agrees with them. The database is migrated to 012 by hand, filled with
// rows the way earlier versions wrote them (a desk refund credited to the wallet included), then
// migrated to the end.

const url = process.env.TEST_DATABASE_URL
const name = `cs_backfill_${process.pid}_${randomBytes(3).toString('hex')}`
let handle: DatabaseHandle | undefined

after(async () => {
  await handle?.close()
  if (url) {
    const c = new pg.Client({ connectionString: url })
    await c.connect()
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined)
    await c.end()
  }
})

async function emptyDatabase(): Promise<DatabaseHandle> {
  if (!url) return openDatabase({})
  const c = new pg.Client({ connectionString: url })
  await c.connect()
  await c.query(`CREATE DATABASE ${name}`)
  await c.end()
  const dbUrl = new URL(url)
  dbUrl.pathname = `/${name}`
  return openDatabase({ databaseUrl: dbUrl.toString(), poolSize: 2 })
}

test('migration 013 writes the entries of earlier money: the books balance and agree with every wallet and booking', async () => {
  handle = await emptyDatabase()
  const { db } = handle
  const dir = join(import.meta.dirname, '../../migrations')
  await sql`CREATE TABLE schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`.execute(
    db,
  )
  for (const file of knownMigrations().filter((f) => f < '013')) {
    await db.transaction().execute(async (trx) => {
      await sql.raw(readFileSync(join(dir, file), 'utf8')).execute(trx)
      await sql`INSERT INTO schema_migrations (name) VALUES (${file})`.execute(trx)
    })
  }

  // Before the ledger: a customer with a top-up, a wallet payment, a gateway payment partly
  // refunded to the wallet, a cash payment refunded to the wallet (as versions before issue 30 did)
  // and one refunded at the desk.
  await sql`
    INSERT INTO users (id, name, email) VALUES (1, 'Owner', 'owner@x.test'), (2, 'Customer', 'c@x.test'), (3, 'Staff', 's@x.test');
    INSERT INTO venues (id, owner_id, name, slug, address, city, state, latitude, longitude, opening_time, closing_time)
      VALUES (1, 1, 'Arena', 'arena', 'Road 1', 'Kathmandu', 'Bagmati', 27.7, 85.3, '06:00', '22:00');
    INSERT INTO courts (id, venue_id, name, type, price_per_hour) VALUES (1, 1, 'Court 1', 'futsal', 150000);
    INSERT INTO bookings (id, booking_number, court_id, venue_id, user_id, status, date, start_time, end_time, base_amount, total_amount, paid_amount, customer_name)
    VALUES
      (1, 'BK-1', 1, 1, 2, 'confirmed', '2026-10-01', '10:00', '11:00', 150000, 150000, 150000, 'Customer'),
      (2, 'BK-2', 1, 1, 2, 'confirmed', '2026-10-01', '11:00', '12:00', 150000, 150000, 100000, 'Customer'),
      (3, 'BK-3', 1, 1, 2, 'cancelled', '2026-10-01', '12:00', '13:00', 150000, 150000, 0, 'Customer'),
      (4, 'BK-4', 1, 1, 2, 'confirmed', '2026-10-01', '13:00', '14:00', 150000, 150000, 100000, 'Customer');
    INSERT INTO payments (id, user_id, payable_type, payable_id, method, amount, refunded_amount, status, reference, recorded_by, completed_at)
    VALUES
      (1, 2, 'topup', 1, 'gateway_2', 500000, 0, 'completed', 'P1', NULL, '2026-09-01 10:00+05:45'),
      (2, 2, 'court', 1, 'wallet', 150000, 0, 'completed', 'P2', NULL, '2026-09-02 10:00+05:45'),
      (3, 2, 'court', 2, 'gateway_1', 150000, 50000, 'partially_refunded', 'P3', NULL, '2026-09-03 10:00+05:45'),
      (4, 2, 'court', 3, 'cash', 150000, 150000, 'refunded', 'P4', 3, '2026-09-04 10:00+05:45'),
      (5, 2, 'court', 4, 'cash', 150000, 50000, 'partially_refunded', 'P5', 3, '2026-09-05 10:00+05:45'),
      (6, 2, 'topup', 2, 'gateway_1', 100000, 0, 'initiated', 'P6', NULL, NULL);
    INSERT INTO wallet_transactions (user_id, type, status, amount, balance_after, reference_type, reference_id, payment_id, description)
    VALUES
      (2, 'topup', 'completed', 500000, 500000, NULL, NULL, 1, 'Wallet top-up'),
      (2, 'debit', 'completed', 150000, 350000, 'booking', 1, 2, 'Payment for booking BK-1'),
      (2, 'credit', 'completed', 50000, 400000, 'booking', 2, 3, 'Refund'),
      (2, 'credit', 'completed', 150000, 550000, 'booking', 3, 4, 'Refund for cancelled booking BK-3'),
      (2, 'topup', 'pending', 100000, NULL, NULL, NULL, 6, 'Wallet top-up');
    UPDATE users SET wallet_balance = 550000 WHERE id = 2;
    SELECT setval('users_id_seq', 10); SELECT setval('payments_id_seq', 10);
  `.execute(db)

  const applied = await migrate(db)
  assert.ok(applied.includes('013_ledger.sql'), applied.join())
  const check = await checkLedger(db)
  assert.deepEqual(check.problems, [])
  assert.equal(check.balanced, true)
  const balance = (code: string) => check.accounts.find((a) => a.account === code)?.balance
  assert.equal(balance('wallet:2'), '5500.00')
  // Online: 1,500 (wallet) + 1,500 (eSewa) − 500 refunded; desk BK-3 refunded to the wallet from the venue (legacy).
  assert.equal(balance('venue:1:balance'), '1000.00')
  assert.equal(balance('gateway:gateway_2:clearing'), '5000.00')
  assert.equal(balance('gateway:gateway_1:clearing'), '1500.00')
  // Cash: 3,000 taken, 500 of BK-4 handed back at the desk.
  assert.equal(balance('venue:1:desk'), '2500.00')
  // The refunded amounts are carried onto the bookings.
  const refunded = await sql<{ id: number; refunded_amount: number }>`
    SELECT id, refunded_amount FROM bookings ORDER BY id`.execute(db)
  assert.deepEqual(
    refunded.rows.map((r) => [Number(r.id), Number(r.refunded_amount)]),
    [
      [1, 0],
      [2, 50000],
      [3, 150000],
      [4, 50000],
    ],
  )
})
