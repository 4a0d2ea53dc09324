import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { addDays } from '../../src/lib/time.ts'
import { world } from '../bookings/helpers.ts'
import { build } from '../helpers/app.ts'
import { createIndoorGame, createUser, type TestUser } from '../helpers/factories.ts'
import { bookCourt, call, day, ledgerNet, noonClock, payAtDesk, payOnline, TODAY, zone } from './helpers.ts'

// The summary's money agrees with the ledger and the statement: bookings are paid by wallet,
// gateways (eSewa, Khalti, Fonepay), cash and a counter payment, then refunded and cancelled in
// several ways (a customer's cancel, a manager's partial refund, a refund to Khalti, a venue cancel
// of a cash booking with its cash-back paid, desk money credited to the wallet), with a 10 %
// commission that revenue leaves out. Money moves on TODAY and on the next day.

const clock = noonClock()
let app: App
let admin: TestUser
before(async () => {
  app = await build(undefined, {}, { clock })
  admin = await createUser(app, { roles: ['super_admin'] })
})
after(() => app.close())

test('revenue.net equals the ledger and the statement for the same days; bookings, methods, customers', async () => {
  const w = await world(app, { wallet: 5_000_000 })
  assert.equal(
    (await call(app, 'PATCH', `/api/admin/venues/${w.venue.id}/commission`, admin, { percent: 10 })).statusCode,
    200,
  )
  const c = w.court.id
  const customer = await app.ctx.db
    .selectFrom('users')
    .select('name')
    .where('id', '=', w.customer.id)
    .executeTakeFirstOrThrow()
  // TODAY: wallet 1,500 then cancelled by the customer in time (refunded to the wallet).
  const a = await bookCourt(app, w.customer, c, day(3))
  await payOnline(app, w.customer, a, 'wallet')
  assert.equal((await call(app, 'PATCH', `/api/bookings/${a}/cancel`, w.customer, {})).statusCode, 200)
  // eSewa 1,500, 300.00 refunded by the manager.
  const b = await bookCourt(app, w.customer, c, day(4))
  const bPay = await payOnline(app, w.customer, b, 'gateway_1')
  const part = await call(app, 'POST', `/api/payments/${bPay}/refund`, w.manager, { amount: '300.00' })
  assert.equal(part.statusCode, 200, part.body)
  // Khalti 1,500 refunded to its source (or the wallet when the sandbox refuses): either is a refund.
  const k = await bookCourt(app, w.customer, c, day(5))
  const kPay = await payOnline(app, w.customer, k, 'gateway_2')
  const src = await call(app, 'POST', `/api/payments/${kPay}/refund`, w.owner, { to: 'source' })
  assert.equal(src.statusCode, 200, src.body)
  // Fonepay 1,500, kept.
  const f = await bookCourt(app, w.customer, c, day(6))
  await payOnline(app, w.customer, f, 'gateway_3')
  // Cash 1,500 at the desk, then the venue cancels: a cash-back, handed over.
  const d = await bookCourt(app, w.customer, c, day(7))
  await payAtDesk(app, w.staff, d, '1500.00')
  const cancel = await call(app, 'PATCH', `/api/bookings/${d}/status`, w.manager, { status: 'cancelled' })
  assert.equal(cancel.statusCode, 200, cancel.body)
  const due = (await call(app, 'GET', `/api/venues/${w.venue.id}/cash-backs`, w.staff)).json().data
  assert.equal(due.length, 1)
  assert.equal(
    (await call(app, 'POST', `/api/venues/${w.venue.id}/cash-backs/${due[0].id}/pay`, w.staff)).statusCode,
    200,
  )

  // The next day: a desk walk-in paid 1,000 cash and 500 at the counter (Fonepay), 200 of the cash
  // credited to a customer's wallet instead... (desk bookings have no wallet: a customer's booking does).
  clock.set(zone.instant(day(1), '12:00'))
  const walkIn = await call(app, 'POST', `/api/venues/${w.venue.id}/bookings`, w.staff, {
    court_id: c,
    date: day(8),
    start_time: '10:00',
    end_time: '11:00',
    type: 'walkin',
    customer_name: 'Hari Walk-in',
    customer_phone: '9800000001',
  })
  assert.equal(walkIn.statusCode, 201, walkIn.body)
  const wId = walkIn.json().data.id as number
  await payAtDesk(app, w.staff, wId, '1000.00')
  await payAtDesk(app, w.staff, wId, '500.00', 'gateway_3')
  const e = await bookCourt(app, w.customer, c, day(9))
  const ePay = await payAtDesk(app, w.manager, e, '1500.00')
  const credit = await call(app, 'POST', `/api/payments/${ePay}/refund`, w.owner, { amount: '200.00', to: 'wallet' })
  assert.equal(credit.statusCode, 200, credit.body)
  // An indoor game booked and paid in cash at the desk.
  const game = await createIndoorGame(app, w.venue.id, { price_per_hour: 40000 })
  const ig = await call(app, 'POST', `/api/venues/${w.venue.id}/indoor-game-bookings`, w.staff, {
    indoor_game_id: game.id,
    date: day(8),
    start_time: '14:00',
    end_time: '15:00',
    type: 'walkin',
    customer_name: 'Sita Gamer',
  })
  assert.equal(ig.statusCode, 201, ig.body)
  await payAtDesk(app, w.staff, ig.json().data.id, '400.00', 'cash', 'indoor')

  const from = TODAY
  const to = day(1)
  const url = (q = '') => `/api/venues/${w.venue.id}/reports/summary?from=${from}&to=${to}${q}`
  const res = await call(app, 'GET', url(), w.owner)
  assert.equal(res.statusCode, 200, res.body)
  const r = res.json().data

  // Gross: 1500 × 4 online + 1500 cash + 1000 + 500 + 1500 + 400 desk = 10,900.
  // Refunds: 1500 (wallet cancel) + 300 + 1500 (Khalti) + 1500 (cash-back) + 200 (to the wallet) = 5,000.
  assert.deepEqual(r.revenue, {
    gross: '10900.00',
    refunds: '5000.00',
    net: '5900.00',
    by_method: {
      cash: '2700.00', // 1500 − 1500 + 1000 + 1500 − 200 + 400
      wallet: '0.00',
      gateway_1: '1200.00',
      gateway_2: '0.00',
      gateway_3: '2000.00', // 1500 online + 500 at the counter
      other: '0.00',
    },
  })
  const start = zone.instant(from, '00:00')
  const end = zone.instant(addDays(to, 1), '00:00')
  assert.equal(await ledgerNet(app, w.venue.id, start, end), 590000)
  const st = (await call(app, 'GET', `/api/venues/${w.venue.id}/statement?from=${from}&to=${to}`, w.owner)).json().data
  const money = (s: string) => Math.round(Number(s) * 100)
  assert.equal(money(st.online_gross) - money(st.refunds) + money(st.desk_gross) - money(st.desk_refunds), 590000)
  // By day: each day's net from the ledger of that day alone.
  assert.deepEqual(
    r.by_day.map((x: { net: string }) => x.net),
    [
      ((await ledgerNet(app, w.venue.id, start, zone.instant(to, '00:00'))) / 100).toFixed(2),
      ((await ledgerNet(app, w.venue.id, zone.instant(to, '00:00'), end)) / 100).toFixed(2),
    ],
  )
  // Each day's by_method sums to its net, and the days' by_method to the range's.
  const cents = (v: string) => Math.round(Number(v) * 100)
  for (const d of r.by_day as { net: string; by_method: Record<string, string> }[]) {
    assert.equal(
      Object.values(d.by_method).reduce((a, v) => a + cents(v), 0),
      cents(d.net),
    )
  }
  for (const [method, total] of Object.entries(r.revenue.by_method as Record<string, string>)) {
    assert.equal(
      (r.by_day as { by_method: Record<string, string> }[]).reduce((a, d) => a + cents(d.by_method[method]), 0),
      cents(total),
      method,
    )
  }
  // Bookings are counted by the day they are for: none is for TODAY or the day after.
  assert.equal(r.bookings.total, 0)

  // The bookings of the days they are for; the money of the days it moved (none then).
  const later = (
    await call(app, 'GET', `/api/venues/${w.venue.id}/reports/summary?from=${day(3)}&to=${day(9)}`, w.manager)
  ).json().data
  assert.deepEqual(later.bookings, {
    total: 8,
    by_status: { pending: 0, confirmed: 6, playing: 0, completed: 0, cancelled: 2, no_show: 0 },
  })
  assert.equal(later.revenue.net, '0.00')
  assert.deepEqual(
    later.by_day.map((x: { date: string; bookings: number }) => [x.date, x.bookings]),
    [
      [day(3), 1],
      [day(4), 1],
      [day(5), 1],
      [day(6), 1],
      [day(7), 1],
      [day(8), 2],
      [day(9), 1],
    ],
  )

  // Kinds: the indoor game alone, and courts alone; together they make the whole.
  const indoor = (await call(app, 'GET', url('&kind=indoor'), w.owner)).json().data
  assert.equal(indoor.revenue.net, '400.00')
  assert.equal(indoor.kind, 'indoor')
  const courts = (await call(app, 'GET', url('&kind=court'), w.owner)).json().data
  assert.equal(courts.revenue.net, '5500.00')

  // Top customers: the account holder first (1500 − 300 + 1500 + 1300 of the money moved), then the walk-in.
  assert.deepEqual(r.top_customers.slice(0, 3), [
    { name: customer.name, phone: null, bookings: 0, net: '4000.00' },
    { name: 'Hari Walk-in', phone: '9800000001', bookings: 0, net: '1500.00' },
    { name: 'Sita Gamer', phone: null, bookings: 0, net: '400.00' },
  ])
  const laterTop = later.top_customers
  assert.deepEqual(
    laterTop.map((x: { name: string; bookings: number }) => [x.name, x.bookings]),
    [
      [customer.name, 4], // six bookings, two cancelled
      ['Hari Walk-in', 1],
      ['Sita Gamer', 1],
    ].sort((x, y) => Number(y[1]) - Number(x[1]) || String(x[0]).localeCompare(String(y[0]))),
  )
})

test('who may read reports: owner, manager, super_admin; staff, other venues, customers 403; no token 401; ranges', async () => {
  const w = await world(app)
  const other = await world(app)
  const url = `/api/venues/${w.venue.id}/reports/summary?from=${TODAY}&to=${day(30)}`
  for (const user of [w.owner, w.manager, admin]) {
    const res = await call(app, 'GET', url, user)
    assert.equal(res.statusCode, 200, res.body)
    assert.equal(res.headers['cache-control'], 'no-store')
  }
  for (const user of [w.staff, w.customer, other.owner, other.manager, other.staff]) {
    assert.equal((await call(app, 'GET', url, user)).statusCode, 403)
  }
  assert.equal((await call(app, 'GET', url)).statusCode, 401)
  // Access is checked before the query: a stranger learns nothing from a 422.
  assert.equal((await call(app, 'GET', `/api/venues/${w.venue.id}/reports/summary?from=x`, w.staff)).statusCode, 403)
  assert.equal(
    (await call(app, 'GET', '/api/venues/999999/reports/summary?from=2031-01-01&to=2031-01-02', admin)).statusCode,
    404,
  )

  const base = `/api/venues/${w.venue.id}/reports/summary`
  const year = await call(app, 'GET', `${base}?from=2031-01-01&to=2031-12-31`, w.owner) // 365 days
  assert.equal(year.statusCode, 200)
  assert.equal(year.json().data.by_day.length, 365)
  assert.equal((await call(app, 'GET', `${base}?from=2032-01-01&to=2032-12-31`, w.owner)).statusCode, 200) // 366, a leap year
  const tooLong = await call(app, 'GET', `${base}?from=2031-01-01&to=2032-01-02`, w.owner) // 367 days
  assert.equal(tooLong.statusCode, 422)
  assert.deepEqual(tooLong.json().errors, { to: ['A report covers at most 366 days.'] })
  assert.equal((await call(app, 'GET', `${base}?from=${TODAY}&to=${day(-1)}`, w.owner)).statusCode, 422)
  assert.equal((await call(app, 'GET', `${base}?from=2031-02-30&to=${TODAY}`, w.owner)).statusCode, 422)
  assert.equal((await call(app, 'GET', `${base}?from=${TODAY}`, w.owner)).statusCode, 422)
  assert.equal((await call(app, 'GET', `${base}?from=${TODAY}&to=${TODAY}&kind=tennis`, w.owner)).statusCode, 422)

  // An empty venue: every figure present, zero.
  const empty = (await call(app, 'GET', `${base}?from=${TODAY}&to=${TODAY}`, w.owner)).json().data
  assert.deepEqual(
    { ...empty, by_hour: undefined },
    {
      from: TODAY,
      to: TODAY,
      kind: null,
      bookings: {
        total: 0,
        by_status: { pending: 0, confirmed: 0, playing: 0, completed: 0, cancelled: 0, no_show: 0 },
      },
      revenue: {
        gross: '0.00',
        refunds: '0.00',
        net: '0.00',
        by_method: {
          cash: '0.00',
          wallet: '0.00',
          gateway_1: '0.00',
          gateway_2: '0.00',
          gateway_3: '0.00',
          other: '0.00',
        },
      },
      occupancy: { booked_hours: 0, open_hours: 16, percent: 0 },
      no_show_rate: 0,
      by_hour: undefined,
      by_day: [
        {
          date: TODAY,
          bookings: 0,
          net: '0.00',
          by_method: {
            cash: '0.00',
            wallet: '0.00',
            gateway_1: '0.00',
            gateway_2: '0.00',
            gateway_3: '0.00',
            other: '0.00',
          },
        },
      ],
      top_customers: [],
    },
  )
  assert.equal(empty.by_hour.length, 16)
})
