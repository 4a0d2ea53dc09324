import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { sql } from 'kysely'
import type { App } from '../../src/app.ts'
import { addDays } from '../../src/lib/time.ts'
import { world } from '../bookings/helpers.ts'
import { build } from '../helpers/app.ts'
import { assignStaff, createUser, type TestUser } from '../helpers/factories.ts'
import { bookCourt, call, day, noonClock, payAtDesk, TODAY, zone } from './helpers.ts'

// The desk's cash-up: money staff took at the desk by the venue-local day it was received and by
// who took it, cash-backs handed over that day subtracted; closing a day once.

const clock = noonClock()
let app: App
let admin: TestUser
before(async () => {
  app = await build(undefined, {}, { clock })
  admin = await createUser(app, { roles: ['super_admin'] })
})
after(() => app.close())

/** The signed sum of the venue's drawer account (venue:{id}:desk) moved on a venue-local day. */
async function drawerMoved(venueId: number, date: string) {
  const { rows } = await sql<{ s: string | null }>`
    SELECT sum(l.amount) AS s FROM ledger_lines l JOIN ledger_entries e ON e.id = l.entry_id
    WHERE l.account = ${`venue:${venueId}:desk`} AND e.occurred_at >= ${zone.instant(date, '00:00')}
      AND e.occurred_at < ${zone.instant(addDays(date, 1), '00:00')}`.execute(app.ctx.db)
  return Number(rows[0]?.s ?? 0)
}

test('expected cash by staff member: cash received that day less cash-backs paid that day; counter payments apart', async () => {
  clock.set(zone.instant(TODAY, '12:00'))
  const w = await world(app)
  const second = await createUser(app, { roles: ['staff'], name: 'Bina Second' })
  await assignStaff(app, w.venue.id, second.id, 'staff')
  const x = await bookCourt(app, w.customer, w.court.id, day(2))
  const y = await bookCourt(app, w.customer, w.court.id, day(3))
  const z = await bookCourt(app, w.customer, w.court.id, day(4))
  await payAtDesk(app, w.staff, x, '1500.00')
  await payAtDesk(app, second, y, '1000.00')
  await payAtDesk(app, second, y, '500.00', 'gateway_1')
  // x is cancelled by the venue: its 1,500 cash is due back, and the second staff member hands it over.
  assert.equal(
    (await call(app, 'PATCH', `/api/bookings/${x}/status`, w.manager, { status: 'cancelled' })).statusCode,
    200,
  )
  const due = (await call(app, 'GET', `/api/venues/${w.venue.id}/cash-backs`, w.staff)).json().data
  assert.equal(
    (await call(app, 'POST', `/api/venues/${w.venue.id}/cash-backs/${due[0].id}/pay`, second)).statusCode,
    200,
  )

  const res = await call(app, 'GET', `/api/venues/${w.venue.id}/cash-up?date=${TODAY}`, w.staff)
  assert.equal(res.statusCode, 200, res.body)
  const c = res.json().data
  assert.equal(c.date, TODAY)
  assert.equal(c.status, 'open')
  assert.deepEqual([c.cash, c.counter, c.cash_backs, c.expected_cash], ['2500.00', '500.00', '1500.00', '1000.00'])
  const staffName = (
    await app.ctx.db.selectFrom('users').select('name').where('id', '=', w.staff.id).executeTakeFirstOrThrow()
  ).name
  const byStaff = Object.fromEntries(c.by_staff.map((s: { staff: { id: number } }) => [s.staff.id, s]))
  assert.deepEqual(byStaff[w.staff.id], {
    staff: { id: w.staff.id, name: staffName },
    payments: 1,
    cash: '1500.00',
    counter: '0.00',
    cash_backs: '0.00',
    expected_cash: '1500.00',
  })
  assert.deepEqual(byStaff[second.id], {
    staff: { id: second.id, name: 'Bina Second' },
    payments: 2,
    cash: '1000.00',
    counter: '500.00',
    cash_backs: '1500.00',
    expected_cash: '-500.00',
  })
  assert.equal(c.payments.length, 3)
  assert.deepEqual(
    c.payments.map((p: { method: string; amount: string; received_at: string }) => [p.method, p.amount, p.received_at]),
    [
      ['cash', '1500.00', `${TODAY} 12:00:00`],
      ['cash', '1000.00', `${TODAY} 12:00:00`],
      ['gateway_1', '500.00', `${TODAY} 12:00:00`],
    ],
  )
  assert.deepEqual(
    c.cash_backs_paid.map((k: { amount: string; staff: { id: number } }) => [k.amount, k.staff.id]),
    [['1500.00', second.id]],
  )
  assert.equal(c.closing, null)
  // The drawer's ledger account moved by cash − cash-backs that day: a desk QR payment is the gateway's
  // money (owed to the venue's balance), listed as counter money but never in the drawer.
  assert.equal(await drawerMoved(w.venue.id, TODAY), 150000 + 100000 - 150000)

  // The next day: z paid in cash, z cancelled; its cash-back paid the day after that. Each day keeps its own.
  clock.set(zone.instant(day(1), '09:30'))
  await payAtDesk(app, w.staff, z, '1500.00')
  assert.equal(
    (await call(app, 'PATCH', `/api/bookings/${z}/status`, w.manager, { status: 'cancelled' })).statusCode,
    200,
  )
  const next = (await call(app, 'GET', `/api/venues/${w.venue.id}/cash-up`, w.manager)).json().data
  assert.equal(next.date, day(1), 'the default day is today')
  assert.deepEqual([next.cash, next.cash_backs, next.expected_cash], ['1500.00', '0.00', '1500.00'])
  clock.set(zone.instant(day(2), '08:00'))
  const due2 = (await call(app, 'GET', `/api/venues/${w.venue.id}/cash-backs`, w.staff)).json().data
  await call(app, 'POST', `/api/venues/${w.venue.id}/cash-backs/${due2[0].id}/pay`, w.staff)
  const third = (await call(app, 'GET', `/api/venues/${w.venue.id}/cash-up?date=${day(2)}`, w.owner)).json().data
  assert.deepEqual([third.cash, third.cash_backs, third.expected_cash], ['0.00', '1500.00', '-1500.00'])
  const first = (await call(app, 'GET', `/api/venues/${w.venue.id}/cash-up?date=${TODAY}`, w.owner)).json().data
  assert.equal(first.expected_cash, '1000.00')
  assert.equal(first.payments.length, 3)
})

test('closing a day: expected vs counted and the difference, by whom and when; once; two at once, one wins', async () => {
  clock.set(zone.instant(TODAY, '12:00'))
  const w = await world(app)
  const b = await bookCourt(app, w.customer, w.court.id, day(5))
  await payAtDesk(app, w.staff, b, '1200.00')
  clock.set(zone.instant(TODAY, '21:15'))
  const url = `/api/venues/${w.venue.id}/cash-up`
  const close = await call(app, 'POST', url, w.staff, {
    date: TODAY,
    counted_cash: '1150.50',
    note: ' short by a note ',
  })
  assert.equal(close.statusCode, 201, close.body)
  const c = close.json().data
  assert.equal(c.status, 'closed')
  const staffName = (
    await app.ctx.db.selectFrom('users').select('name').where('id', '=', w.staff.id).executeTakeFirstOrThrow()
  ).name
  assert.deepEqual(
    { ...c.closing, id: undefined },
    {
      id: undefined,
      cash: '1200.00',
      counter: '0.00',
      cash_backs: '0.00',
      expected_cash: '1200.00',
      counted_cash: '1150.50',
      difference: '-49.50',
      note: 'short by a note',
      by_staff: c.by_staff,
      closed_by: { id: w.staff.id, name: staffName },
      closed_at: `${TODAY} 21:15:00`,
    },
  )
  // Viewed, not changed: a second close is 409 and the record stays as it was.
  const again = await call(app, 'POST', url, w.owner, { date: TODAY, counted_cash: 1200 })
  assert.equal(again.statusCode, 409)
  assert.deepEqual(again.json(), { message: "This day's cash-up is already closed." })
  await assert.rejects(sql`UPDATE cash_ups SET counted_cash = 0`.execute(app.ctx.db))
  await assert.rejects(sql`DELETE FROM cash_ups`.execute(app.ctx.db), /never changed/)
  await assert.rejects(sql`TRUNCATE cash_ups`.execute(app.ctx.db), /never truncated/)
  // Money taken on a closed day later shows in the live figures; the closing keeps what was closed.
  const b2 = await bookCourt(app, w.customer, w.court.id, day(6))
  await payAtDesk(app, w.staff, b2, '300.00')
  const view = (await call(app, 'GET', `${url}?date=${TODAY}`, w.manager)).json().data
  assert.equal(view.expected_cash, '1500.00')
  assert.equal(view.closing.expected_cash, '1200.00')
  assert.equal(view.closing.counted_cash, '1150.50')

  // Two closes of one day at once (an earlier, still open day): exactly one is stored.
  const [p, q] = await Promise.all([
    call(app, 'POST', url, w.staff, { date: day(-1), counted_cash: '0.00' }),
    call(app, 'POST', url, w.manager, { date: day(-1), counted_cash: 5 }),
  ])
  assert.deepEqual([p.statusCode, q.statusCode].sort(), [201, 409])
  const rows = await app.ctx.db.selectFrom('cash_ups').selectAll().where('venue_id', '=', w.venue.id).execute()
  assert.equal(rows.length, 2)

  // A future day cannot be closed or viewed; bad bodies are 422.
  for (const bad of [
    { date: day(1), counted_cash: '1.00' },
    { date: TODAY },
    { date: day(-2), counted_cash: '-1.00' },
    { date: day(-2), counted_cash: '1.005' },
    { date: '2031-02-30', counted_cash: '1.00' },
  ]) {
    assert.equal((await call(app, 'POST', url, w.owner, bad)).statusCode, 422, JSON.stringify(bad))
  }
  assert.equal((await call(app, 'GET', `${url}?date=${day(1)}`, w.owner)).statusCode, 422)
})

test('who may see and close the cash-up: owner, manager, staff, super_admin; customers and other venues 403; no token 401', async () => {
  clock.set(zone.instant(TODAY, '12:00'))
  const w = await world(app)
  const other = await world(app)
  const url = `/api/venues/${w.venue.id}/cash-up?date=${TODAY}`
  for (const user of [w.owner, w.manager, w.staff, admin])
    assert.equal((await call(app, 'GET', url, user)).statusCode, 200)
  for (const user of [w.customer, other.owner, other.staff]) {
    assert.equal((await call(app, 'GET', url, user)).statusCode, 403)
    const post = await call(app, 'POST', `/api/venues/${w.venue.id}/cash-up`, user, { date: 'nonsense' })
    assert.equal(post.statusCode, 403, 'refused before the body is read')
  }
  assert.equal((await call(app, 'GET', url)).statusCode, 401)
  assert.equal(
    (await call(app, 'POST', `/api/venues/${w.venue.id}/cash-up`, undefined, { date: TODAY, counted_cash: 1 }))
      .statusCode,
    401,
  )
})
