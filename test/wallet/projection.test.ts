import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { sql } from 'kysely'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import type { Executor } from '../../src/lib/db.ts'
import { account, checkLedger, post, transfer } from '../../src/modules/ledger/index.ts'
import { book, fixedSlot, world } from '../bookings/helpers.ts'
import { build } from '../helpers/app.ts'
import { FIXED_NOW } from '../helpers/factories.ts'
import { simulate } from '../payments/helpers.ts'

// The wallet's records (docs/payments.md, "The wallet's records"; migrations/026_wallet_projection.sql):
// a completed wallet_transactions row is the projection of its entry's line on `wallet:{user}`,
// amount, direction and balance_after read from the books; `ledger check` names a row the books do
// not explain and a wallet line no row shows.

const clock = new ManualClock(FIXED_NOW)
let app: App
before(async () => {
  app = await build(undefined, {}, { clock })
})
after(() => app.close())

interface Projected {
  id: number
  type: string
  status: string
  amount: number
  balance_after: number | null
  entry_id: number | null
  line: number | null
  ledger_after: number | null
}

async function rowsOf(userId: number): Promise<Projected[]> {
  const { rows } = await sql<Projected>`
    SELECT w.id, w.type, w.status, w.amount, w.balance_after, w.entry_id, l.amount AS line,
      (SELECT -sum(x.amount) FROM ledger_lines x WHERE x.account = l.account AND x.entry_id <= l.entry_id)::bigint AS ledger_after
    FROM wallet_transactions w
    LEFT JOIN ledger_lines l ON l.entry_id = w.entry_id AND l.account = 'wallet:' || w.user_id
    WHERE w.user_id = ${userId} ORDER BY w.id`.execute(app.ctx.db)
  return rows.map((r) => ({
    ...r,
    amount: Number(r.amount),
    balance_after: r.balance_after === null ? null : Number(r.balance_after),
    entry_id: r.entry_id === null ? null : Number(r.entry_id),
    line: r.line === null ? null : Number(r.line),
    ledger_after: r.ledger_after === null ? null : Number(r.ledger_after),
  }))
}

test('every completed wallet row projects its entry: amount, direction and balance_after from the books', async () => {
  const w = await world(app, { wallet: 200000 })
  const topup = await app.inject({
    method: 'POST',
    url: '/api/wallet/topup',
    headers: w.customer.headers,
    payload: { amount: '500.00', method: 'gateway_2' },
  })
  assert.equal(topup.statusCode, 201, topup.body)
  const refused = await app.inject({
    method: 'POST',
    url: '/api/wallet/topup',
    headers: w.customer.headers,
    payload: { amount: '300.00', method: 'gateway_1' },
  })
  assert.equal(refused.statusCode, 201, refused.body)
  const booked = await book(app, w.customer, fixedSlot(w.court.id, 3))
  const paid = await app.inject({
    method: 'POST',
    url: '/api/payments/initiate',
    headers: w.customer.headers,
    payload: { booking_id: booked.json().data.id, method: 'wallet' },
  })
  assert.equal(paid.statusCode, 200, paid.body)
  const ok = await app.inject({ method: 'GET', url: await simulate(app, topup.json().payment_url, 'success') })
  assert.equal(ok.statusCode, 200, ok.body)
  const no = await app.inject({ method: 'GET', url: await simulate(app, refused.json().payment_url, 'failure') })
  assert.ok(no.statusCode < 500, no.body)

  const rows = await rowsOf(w.customer.id)
  assert.deepEqual(
    rows.map((r) => [r.type, r.status, r.amount, r.balance_after]),
    [
      ['topup', 'completed', 200000, 200000],
      ['topup', 'completed', 50000, 100000],
      ['topup', 'failed', 30000, null],
      ['debit', 'completed', 150000, 50000],
    ],
  )
  for (const r of rows.filter((x) => x.status === 'completed')) {
    assert.ok(r.entry_id !== null, `row ${r.id} projects an entry`)
    assert.equal(r.amount, Math.abs(r.line ?? 0))
    assert.equal(r.type === 'debit', (r.line ?? 0) > 0)
    assert.equal(r.balance_after, r.ledger_after)
  }
  assert.equal(rows.find((r) => r.status === 'failed')?.entry_id, null)

  // The route's shape is unchanged: the same fields, the balance, the ledger's order.
  const list = (await app.inject({ method: 'GET', url: '/api/wallet', headers: w.customer.headers })).json()
  assert.equal(list.balance, '1000.00')
  assert.deepEqual(Object.keys(list.transactions.data[0]).sort(), [
    'amount',
    'balance_after',
    'completed_at',
    'created_at',
    'description',
    'id',
    'reference_id',
    'reference_type',
    'status',
    'type',
  ])
  assert.deepEqual((await checkLedger(app.ctx.db)).problems, [])
})

/** Runs `change` in a transaction that is rolled back, and returns what ledger check said inside it. */
async function problemsAfter(change: (trx: Executor) => Promise<void>): Promise<string[]> {
  const rollback = new Error('rollback')
  const problems: string[] = []
  await assert.rejects(
    app.ctx.db.transaction().execute(async (trx) => {
      await change(trx)
      problems.push(...(await checkLedger(trx)).problems)
      throw rollback
    }),
    (e) => e === rollback,
  )
  return problems
}

test('ledger check names a wallet row the books do not explain, and a wallet line no row shows', async () => {
  const w = await world(app, { wallet: 100000 })
  const [row] = await rowsOf(w.customer.id)
  const code = account.wallet(w.customer.id)

  const changed = await problemsAfter(async (trx) => {
    await sql`UPDATE wallet_transactions SET amount = 90000 WHERE id = ${row.id}`.execute(trx)
  })
  assert.deepEqual(changed, [`wallet transaction ${row.id}: topup 900.00 ≠ entry ${row.entry_id} on ${code}: -1000.00`])

  const unlinked = await problemsAfter(async (trx) => {
    await sql`UPDATE wallet_transactions SET entry_id = NULL WHERE id = ${row.id}`.execute(trx)
  })
  assert.deepEqual(unlinked, [
    `wallet transaction ${row.id} (${code}) has no ledger entry`,
    `entry ${row.entry_id} on ${code} has no wallet transaction`,
  ])

  let entryId = 0
  const unshown = await problemsAfter(async (trx) => {
    // Money into the wallet posted to the books alone (and the guard balance moved with it).
    await sql`UPDATE users SET wallet_balance = wallet_balance + 5000 WHERE id = ${w.customer.id}`.execute(trx)
    entryId = await post(trx, {
      kind: 'topup',
      occurredAt: clock.now(),
      description: 'Written behind the wallet',
      userId: w.customer.id,
      lines: transfer(account.gatewayClearing('gateway_1'), code, 5000),
    })
  })
  assert.deepEqual(unshown, [`entry ${entryId} on ${code} has no wallet transaction`])
  assert.deepEqual((await checkLedger(app.ctx.db)).problems, [])
})
