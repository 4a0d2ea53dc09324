import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { sql } from 'kysely'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { book, fixedSlot, world } from '../bookings/helpers.ts'
import { build } from '../helpers/app.ts'
import { createUser, FIXED_NOW, type TestUser } from '../helpers/factories.ts'
import { simulate } from '../payments/helpers.ts'

// GET /api/admin/ledger/trial-balance (super_admin), and the database's own guard of the books:
// entries and lines are append-only, and an entry whose lines do not sum to zero is refused.

// A fixed start; dates are counted from its day (fixedSlot), never from the real date.
const clock = new ManualClock(FIXED_NOW)
let app: App
let admin: TestUser
before(async () => {
  app = await build(undefined, {}, { clock })
  admin = await createUser(app, { roles: ['super_admin'] })
})
after(() => app.close())

interface Account {
  account: string
  kind: string
  balance: string
}

async function trialBalance() {
  const res = await app.inject({ method: 'GET', url: '/api/admin/ledger/trial-balance', headers: admin.headers })
  assert.equal(res.statusCode, 200, res.body)
  return res.json().data as {
    balanced: boolean
    debits: string
    credits: string
    entries: number
    accounts: Account[]
  }
}

const paisa = (s: string | undefined) => (s === undefined ? 0 : Math.round(Number(s) * 100))
const find = (accounts: Account[], code: string) => accounts.find((a) => a.account === code)

test('the trial balance after a top-up, a wallet payment, a gateway payment and a refund', async () => {
  const w = await world(app, { price: 100000 })
  const before = await trialBalance()
  const clearing = 'gateway:gateway_1:clearing'
  const clearingBefore = paisa(find(before.accounts, clearing)?.balance)

  // Top-up 2,000.00 through gateway_1.
  const topup = await app.inject({
    method: 'POST',
    url: '/api/wallet/topup',
    headers: w.customer.headers,
    payload: { amount: '2000.00', method: 'gateway_1' },
  })
  assert.equal(topup.statusCode, 201, topup.body)
  const done = await app.inject({ method: 'GET', url: await simulate(app, topup.json().payment_url, 'success') })
  assert.equal(done.statusCode, 200, done.body)

  // A 1,000.00 booking paid from the wallet.
  const a = await book(app, w.customer, fixedSlot(w.court.id, 4))
  assert.equal(a.statusCode, 201, a.body)
  const byWallet = await app.inject({
    method: 'POST',
    url: '/api/payments/initiate',
    headers: w.customer.headers,
    payload: { booking_type: 'court', booking_id: a.json().data.id, method: 'wallet' },
  })
  assert.equal(byWallet.statusCode, 200, byWallet.body)

  // A 1,000.00 booking paid through gateway_1, then 400.25 of it refunded by the owner.
  const b = await book(app, w.customer, fixedSlot(w.court.id, 4, '12:00', '13:00'))
  assert.equal(b.statusCode, 201, b.body)
  const started = await app.inject({
    method: 'POST',
    url: '/api/payments/initiate',
    headers: w.customer.headers,
    payload: { booking_type: 'court', booking_id: b.json().data.id, method: 'gateway_1' },
  })
  assert.equal(started.statusCode, 201, started.body)
  const cb = await app.inject({ method: 'GET', url: await simulate(app, started.json().data.payment_url, 'success') })
  assert.equal(cb.statusCode, 200, cb.body)
  const refund = await app.inject({
    method: 'POST',
    url: `/api/payments/${started.json().data.payment.id}/refund`,
    headers: w.owner.headers,
    payload: { amount: '400.25' },
  })
  assert.equal(refund.statusCode, 200, refund.body)
  assert.equal(refund.json().data.status, 'partially_refunded')

  const tb = await trialBalance()
  assert.deepEqual(Object.keys(tb).sort(), ['accounts', 'balanced', 'credits', 'debits', 'entries'])
  assert.equal(tb.balanced, true)
  assert.match(tb.debits, /^\d+\.\d\d$/)
  assert.equal(tb.debits, tb.credits)
  assert.ok(Number.isInteger(tb.entries))
  assert.equal(tb.entries - before.entries, 4, 'top-up, wallet payment, gateway payment, refund: one entry each')
  for (const acc of tb.accounts) {
    assert.deepEqual(Object.keys(acc).sort(), ['account', 'balance', 'kind'])
    assert.match(acc.balance, /^-?\d+\.\d\d$/, acc.account)
  }
  // 2,000.00 topped up − 1,000.00 paid + 400.25 refunded.
  assert.deepEqual(find(tb.accounts, `wallet:${w.customer.id}`), {
    account: `wallet:${w.customer.id}`,
    kind: 'customer_wallet',
    balance: '1400.25',
  })
  const wallet = await app.inject({ method: 'GET', url: '/api/wallet', headers: w.customer.headers })
  assert.equal(wallet.json().balance, '1400.25')
  // What the platform owes the venue: both bookings' 1,000.00, less the refund.
  assert.deepEqual(find(tb.accounts, `venue:${w.venue.id}:balance`), {
    account: `venue:${w.venue.id}:balance`,
    kind: 'venue_balance',
    balance: '1599.75',
  })
  // What eSewa holds for the platform: the top-up and the gateway payment.
  const gateway = find(tb.accounts, clearing)
  assert.equal(gateway?.kind, 'gateway_clearing')
  assert.equal(paisa(gateway?.balance) - clearingBefore, 300000)
  // No desk money moved for this venue.
  assert.equal(find(tb.accounts, `venue:${w.venue.id}:desk`), undefined)
})

test('the trial balance is for the super admin only: 401 without a token, 403 for everyone else', async () => {
  const w = await world(app)
  const url = '/api/admin/ledger/trial-balance'
  const guest = await app.inject({ method: 'GET', url })
  assert.equal(guest.statusCode, 401, guest.body)
  assert.equal(guest.json().message, 'Unauthenticated.')
  const bad = await app.inject({ method: 'GET', url, headers: { authorization: 'Bearer 1|nonsense' } })
  assert.equal(bad.statusCode, 401, bad.body)
  for (const [who, user] of [
    ['customer', w.customer],
    ['venue owner', w.owner],
    ['manager', w.manager],
    ['staff', w.staff],
  ] as const) {
    const res = await app.inject({ method: 'GET', url, headers: user.headers })
    assert.equal(res.statusCode, 403, `${who}: ${res.body}`)
    assert.equal(typeof res.json().message, 'string', who)
    assert.equal(res.json().data, undefined, who)
  }
})

/** The message of the database error `run` rejects with. */
async function refused(run: () => Promise<unknown>): Promise<string> {
  let message = ''
  await assert.rejects(run, (err: Error) => {
    message = err.message
    return true
  })
  return message
}

test('the database refuses an UPDATE or DELETE of ledger rows, and an entry that does not balance', async () => {
  const w = await world(app, { wallet: 50000 }) // one top-up entry to try to change
  const line = await app.ctx.db
    .selectFrom('ledger_lines')
    .select(['id', 'entry_id', 'account', 'amount'])
    .where('account', '=', `wallet:${w.customer.id}`)
    .executeTakeFirstOrThrow()
  const db = app.ctx.db
  const before = await trialBalance()

  for (const statement of [
    sql`UPDATE ledger_lines SET amount = amount * 2 WHERE id = ${line.id}`,
    sql`UPDATE ledger_lines SET account = 'wallet:0' WHERE entry_id = ${line.entry_id}`,
    sql`DELETE FROM ledger_lines WHERE entry_id = ${line.entry_id}`,
    sql`UPDATE ledger_entries SET occurred_at = occurred_at - interval '1 day' WHERE id = ${line.entry_id}`,
    sql`DELETE FROM ledger_entries WHERE id = ${line.entry_id}`,
  ]) {
    assert.match(await refused(() => statement.execute(db)), /append-only/)
  }
  const kept = await db
    .selectFrom('ledger_lines')
    .select(['account', 'amount'])
    .where('entry_id', '=', line.entry_id)
    .orderBy('id')
    .execute()
  assert.equal(kept.length, 2)
  assert.ok(kept.some((l) => l.account === line.account && Number(l.amount) === Number(line.amount)))

  /** An entry and its lines inserted in one transaction; refused ones leave nothing behind. */
  const insert = (lines: Array<[string, number]>, oneStatement = true) =>
    db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ id: string }>`
        INSERT INTO ledger_entries (kind, occurred_at, description)
        VALUES ('opening_balance', now(), 'test') RETURNING id`.execute(trx)
      const entry = rows[0].id
      if (oneStatement) {
        const accounts = lines.map(([a]) => a)
        const amounts = lines.map(([, n]) => n)
        await sql`INSERT INTO ledger_lines (entry_id, account, amount)
          SELECT ${entry}, x.a, x.n FROM unnest(${accounts}::text[], ${amounts}::bigint[]) AS x(a, n)`.execute(trx)
      } else {
        for (const [a, n] of lines) {
          await sql`INSERT INTO ledger_lines (entry_id, account, amount) VALUES (${entry}, ${a}, ${n})`.execute(trx)
        }
      }
      return Number(entry)
    })
  const wallet = `wallet:${w.customer.id}`
  // Money out of nothing: 100.00 more in the wallet with a counterpart of 99.99.
  assert.match(
    await refused(() =>
      insert([
        [wallet, -10000],
        ['platform:opening_balances', 9999],
      ]),
    ),
    /does not balance/,
  )
  // One line alone.
  assert.match(await refused(() => insert([[wallet, -10000]])), /does not balance/)
  // Both lines, but written one statement at a time: the first already leaves the entry unbalanced.
  assert.match(
    await refused(() =>
      insert(
        [
          [wallet, -10000],
          ['platform:opening_balances', 10000],
        ],
        false,
      ),
    ),
    /does not balance/,
  )
  // A zero line is no line.
  assert.match(
    await refused(() =>
      insert([
        [wallet, 0],
        ['platform:opening_balances', 0],
      ]),
    ),
    /amount_check|check constraint/,
  )
  // An entry with no lines at all: refused when its transaction commits.
  assert.match(await refused(() => insert([])), /fewer than two lines/)
  // An account outside the chart of accounts, however well it balances.
  for (const madeUp of ['walet:5', 'wallet:', 'venue:1:till', 'platform:cash', 'gateway:x:float']) {
    assert.match(
      await refused(() =>
        insert([
          [madeUp, -10000],
          ['platform:opening_balances', 10000],
        ]),
      ),
      /ledger_lines_account_known|check constraint/,
      madeUp,
    )
  }
  // The books are never emptied at once (a closed cash-up's DELETE: test/reports/cash-up.test.ts).
  for (const table of ['ledger_lines', 'ledger_entries', 'receipts', 'cash_ups']) {
    assert.match(
      await refused(() => sql`TRUNCATE ${sql.table(table)} CASCADE`.execute(db)),
      /append-only and is never truncated/,
      table,
    )
  }
  const afterAll = await trialBalance()
  assert.equal(afterAll.entries, before.entries, 'nothing of the refused inserts was kept')
  assert.deepEqual(afterAll.accounts, before.accounts)
  assert.equal(afterAll.balanced, true)
  const still = await app.inject({ method: 'GET', url: '/api/wallet', headers: w.customer.headers })
  assert.equal(still.json().balance, '500.00')
})
