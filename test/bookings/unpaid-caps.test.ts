import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { addDays } from '../../src/lib/time.ts'
import { build } from '../helpers/app.ts'
import { createCourt, createIndoorGame, createUser, type TestUser } from '../helpers/factories.ts'
import { expireLapsedHolds, letHoldsRunOut } from '../helpers/sweeps.ts'
import { book, type World, world } from './helpers.ts'
import { createSeries } from './series-helpers.ts'

// Holds and series (issue 32; docs/bookings.md, "Unpaid bookings and series"): a customer holds at
// most MAX_UNPAID_BOOKINGS (3) unpaid future bookings of their own, court and indoor together, a
// weekly series counting once; at most MAX_ACTIVE_SERIES (2) series with unpaid weeks. Staff
// bookings are neither counted nor refused. Every date here is on the app's ManualClock.

let app: App
// Monday 1 March 2027, 10:00 in Kathmandu (UTC+05:45).
const START = '2027-03-01T04:15:00Z'
const TODAY = '2027-03-01'
const clock = new ManualClock(START)
before(async () => {
  app = await build(undefined, {}, { clock })
})
after(() => app.close())

const day = (n: number) => addDays(TODAY, n)
const hour = (h: number) => `${String(h).padStart(2, '0')}:00`
const courtSlot = (courtId: number, n: number, h: number, extra: Record<string, unknown> = {}) => ({
  court_id: courtId,
  date: day(n),
  start_time: hour(h),
  end_time: hour(h + 1),
  ...extra,
})

function bookIndoor(user: TestUser, gameId: number, n: number, h: number) {
  return app.inject({
    method: 'POST',
    url: '/api/indoor-game-bookings',
    headers: user.headers,
    payload: { indoor_game_id: gameId, date: day(n), start_time: hour(h), end_time: hour(h + 1), players_count: 2 },
  })
}

function deskBook(staff: TestUser, w: World, n: number, h: number) {
  return app.inject({
    method: 'POST',
    url: `/api/venues/${w.venue.id}/bookings`,
    headers: staff.headers,
    payload: { ...courtSlot(w.court.id, n, h), type: 'offline', customer_name: 'Phone customer' },
  })
}

function pay(user: TestUser, id: number, bookingType: 'court' | 'indoor' = 'court') {
  return app.inject({
    method: 'POST',
    url: '/api/payments/initiate',
    headers: user.headers,
    payload: { booking_type: bookingType, booking_id: id, method: 'wallet' },
  })
}

const seriesBody = (courtId: number, startDay: number, h: number, extra: Record<string, unknown> = {}) => ({
  court_id: courtId,
  start_date: day(startDay),
  weeks: 4,
  start_time: hour(h),
  end_time: hour(h + 1),
  payment_method: 'cash',
  ...extra,
})

async function unpaidOf(userId: number) {
  const court = await app.ctx.db
    .selectFrom('bookings')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow()
  const indoor = await app.ctx.db
    .selectFrom('indoor_game_bookings')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow()
  return Number(court.n) + Number(indoor.n)
}

const UNPAID = /^You already have 3 unpaid bookings, the most allowed \(3; a weekly series counts as one\)\./
const SERIES = /^You already have 2 weekly series with unpaid weeks, the most allowed \(2\)\./

test('issue 32: fifteen series calls at once by one customer hold two series, not hundreds of unpaid bookings', async () => {
  clock.set(START)
  const w = await world(app)
  const courts = [w.court, ...(await Promise.all(Array.from({ length: 14 }, () => createCourt(app, w.venue.id))))]
  const answers = await Promise.all(courts.map((c) => createSeries(app, w.customer, seriesBody(c.id, 2, 19))))
  const created = answers.filter((r) => r.statusCode === 201)
  const refused = answers.filter((r) => r.statusCode === 422)
  assert.equal(created.length, 2, answers.map((r) => r.body).join('\n'))
  assert.equal(refused.length, 13)
  for (const r of refused) {
    const body = r.json()
    assert.match(body.message, SERIES)
    assert.match(body.errors.payment_method[0], SERIES)
  }
  // Before: 15 series × 4 weeks = 60 unpaid bookings (26 weeks each, as in the issue, made 390).
  // Now two series, whose later weeks must be paid 48 h ahead or are released.
  assert.equal(await unpaidOf(w.customer.id), 8)
  // A third series, even on a free court, is refused; so is a 4th unpaid booking once 3 are held.
  const third = await createSeries(app, w.customer, seriesBody(courts[5].id, 3, 8, { payment_method: undefined }))
  assert.equal(third.statusCode, 422)
  assert.match(third.json().errors.court_id[0], SERIES)
  assert.equal((await book(app, w.customer, courtSlot(courts[6].id, 3, 8))).statusCode, 201)
  const fourth = await book(app, w.customer, courtSlot(courts[7].id, 3, 8))
  assert.equal(fourth.statusCode, 422)
  assert.match(fourth.json().errors.court_id[0], UNPAID)
})

test('court and indoor bookings count together; paying, cancelling or a lapsed hold makes room again', async () => {
  clock.set(START)
  const w = await world(app, { wallet: 10_000_000 })
  const game = await createIndoorGame(app, w.venue.id)
  const a = await book(app, w.customer, courtSlot(w.court.id, 1, 8, { payment_method: 'cash' }))
  const b = await book(app, w.customer, courtSlot(w.court.id, 1, 9))
  const c = await bookIndoor(w.customer, game.id, 1, 8)
  for (const r of [a, b, c]) assert.equal(r.statusCode, 201, r.body)
  // A fourth: 422 on payment_method when one was given, else on court_id / indoor_game_id.
  const withMethod = await book(app, w.customer, courtSlot(w.court.id, 1, 10, { payment_method: 'cash' }))
  assert.equal(withMethod.statusCode, 422)
  assert.match(withMethod.json().message, UNPAID)
  assert.deepEqual(Object.keys(withMethod.json().errors), ['payment_method'])
  assert.match(withMethod.json().errors.payment_method[0], UNPAID)
  const plain = await book(app, w.customer, courtSlot(w.court.id, 1, 10))
  assert.equal(plain.statusCode, 422)
  assert.deepEqual(Object.keys(plain.json().errors), ['court_id'])
  const indoor = await bookIndoor(w.customer, game.id, 1, 10)
  assert.equal(indoor.statusCode, 422)
  assert.deepEqual(Object.keys(indoor.json().errors), ['indoor_game_id'])
  assert.match(indoor.json().errors.indoor_game_id[0], UNPAID)
  // Nothing was written for the refused ones.
  assert.equal(await unpaidOf(w.customer.id), 3)
  // Another customer is not affected.
  const other = await createUser(app)
  assert.equal((await book(app, other, courtSlot(w.court.id, 1, 10))).statusCode, 201)

  // Paying one (wallet) makes room for one more.
  assert.equal((await pay(w.customer, c.json().data.id, 'indoor')).statusCode, 200)
  const d = await book(app, w.customer, courtSlot(w.court.id, 1, 11))
  assert.equal(d.statusCode, 201, d.body)
  assert.equal((await book(app, w.customer, courtSlot(w.court.id, 1, 12))).statusCode, 422)
  // So does cancelling one.
  const cancelled = await app.inject({
    method: 'PATCH',
    url: `/api/bookings/${a.json().data.id}/cancel`,
    headers: w.customer.headers,
    payload: {},
  })
  assert.equal(cancelled.statusCode, 200, cancelled.body)
  assert.equal((await book(app, w.customer, courtSlot(w.court.id, 1, 12))).statusCode, 201)
  assert.equal((await book(app, w.customer, courtSlot(w.court.id, 1, 13))).statusCode, 422)
  // Gateway holds lapse after BOOKING_HOLD_MINUTES: they no longer count, even before the sweep runs.
  clock.set(new Date(Date.parse(START) + 16 * 60_000))
  const e = await book(app, w.customer, courtSlot(w.court.id, 1, 13))
  assert.equal(e.statusCode, 201, e.body)
  await expireLapsedHolds(app)
  // The gateway holds (b, d, 12:00) expired; a was cancelled, c paid: only e is held.
  assert.equal(await unpaidOf(w.customer.id), 1)
})

test('bookings in the past no longer count, nor do free ones', async () => {
  clock.set(START)
  const w = await world(app)
  const free = await createCourt(app, w.venue.id, { price_per_hour: 0 })
  for (const h of [11, 12, 13]) {
    assert.equal((await book(app, w.customer, courtSlot(w.court.id, 0, h, { payment_method: 'cash' }))).statusCode, 201)
  }
  // A free court: nothing to pay, confirmed at once, not refused.
  const gratis = await book(app, w.customer, courtSlot(free.id, 0, 14))
  assert.equal(gratis.statusCode, 201, gratis.body)
  assert.equal(gratis.json().data.status, 'confirmed')
  assert.equal((await book(app, w.customer, courtSlot(w.court.id, 0, 15))).statusCode, 422)
  // At 11:30 the 11:00 booking has started: it no longer counts.
  clock.set(new Date(Date.parse(START) + 90 * 60_000))
  assert.equal((await book(app, w.customer, courtSlot(w.court.id, 0, 15, { payment_method: 'cash' }))).statusCode, 201)
  assert.equal((await book(app, w.customer, courtSlot(w.court.id, 0, 16))).statusCode, 422)
})

test('bookings staff make are neither counted nor refused', async () => {
  clock.set(START)
  const w = await world(app)
  // Desk bookings and desk series, far more than any cap, at the staff's own venue.
  for (let h = 6; h < 12; h++) assert.equal((await deskBook(w.staff, w, 2, h)).statusCode, 201)
  for (const h of [12, 13, 14]) {
    const res = await app.inject({
      method: 'POST',
      url: `/api/venues/${w.venue.id}/bookings/series`,
      headers: w.manager.headers,
      payload: { ...seriesBody(w.court.id, 2, h), payment_method: undefined, customer_name: 'League team' },
    })
    assert.equal(res.statusCode, 201, res.body)
  }
  // A customer at the cap is still booked by the desk.
  for (const h of [15, 16, 17]) {
    assert.equal((await book(app, w.customer, courtSlot(w.court.id, 2, h, { payment_method: 'cash' }))).statusCode, 201)
  }
  assert.equal((await book(app, w.customer, courtSlot(w.court.id, 2, 18))).statusCode, 422)
  const desk = await deskBook(w.staff, w, 2, 18)
  assert.equal(desk.statusCode, 201, desk.body)
  // Staff booking at the desk do not use up their own allowance as customers either.
  const staffAsCustomer = await book(app, w.staff, courtSlot(w.court.id, 2, 19))
  assert.equal(staffAsCustomer.statusCode, 201, staffAsCustomer.body)
})

test('ten parallel bookings by a customer one below the cap: exactly one passes', async () => {
  clock.set(START)
  const w = await world(app)
  const courts = await Promise.all(Array.from({ length: 10 }, () => createCourt(app, w.venue.id)))
  for (const h of [8, 9]) {
    assert.equal((await book(app, w.customer, courtSlot(w.court.id, 4, h, { payment_method: 'cash' }))).statusCode, 201)
  }
  const answers = await Promise.all(
    courts.map((c, i) => book(app, w.customer, courtSlot(c.id, 4, 10 + (i % 3), { payment_method: 'cash' }))),
  )
  assert.deepEqual(
    answers.map((r) => r.statusCode).sort(),
    [201, ...Array(9).fill(422)],
    answers.map((r) => r.body).join('\n'),
  )
  assert.equal(await unpaidOf(w.customer.id), 3)
})

test('parallel court, indoor and series requests at the cap: never more than allowed', async () => {
  clock.set(START)
  const w = await world(app)
  const game = await createIndoorGame(app, w.venue.id)
  const courts = await Promise.all(Array.from({ length: 4 }, () => createCourt(app, w.venue.id)))
  const answers = await Promise.all([
    ...courts.map((c) => book(app, w.customer, courtSlot(c.id, 5, 9, { payment_method: 'cash' }))),
    ...[9, 10, 11].map((h) => bookIndoor(w.customer, game.id, 5, h)),
    ...courts.slice(0, 3).map((c) => createSeries(app, w.customer, seriesBody(c.id, 5, 18))),
  ])
  const created = answers.filter((r) => r.statusCode === 201)
  assert.equal(created.length, 3, answers.map((r) => `${r.statusCode} ${r.body.slice(0, 120)}`).join('\n'))
  for (const r of answers) if (r.statusCode !== 201) assert.equal(r.statusCode, 422, r.body)
})

test('MAX_ACTIVE_SERIES: a third series with unpaid weeks is refused until one is cancelled or paid', async () => {
  clock.set(START)
  const w = await world(app, { wallet: 10_000_000 })
  const s1 = await createSeries(app, w.customer, seriesBody(w.court.id, 2, 8))
  const s2 = await createSeries(app, w.customer, seriesBody(w.court.id, 2, 9, { weeks: 2 }))
  assert.equal(s1.statusCode, 201, s1.body)
  assert.equal(s2.statusCode, 201, s2.body)
  const s3 = await createSeries(app, w.customer, seriesBody(w.court.id, 2, 10))
  assert.equal(s3.statusCode, 422)
  assert.match(s3.json().message, SERIES)
  assert.match(s3.json().errors.payment_method[0], SERIES)
  // A series counts once as an unpaid booking: one single booking still fits (2 series + 1 = 3).
  assert.equal((await book(app, w.customer, courtSlot(w.court.id, 3, 12))).statusCode, 201)
  assert.equal((await book(app, w.customer, courtSlot(w.court.id, 3, 13))).statusCode, 422)
  // Cancelling the first series frees its place.
  const cancel = await app.inject({
    method: 'PATCH',
    url: `/api/bookings/series/${s1.json().data.id}/cancel`,
    headers: w.customer.headers,
    payload: {},
  })
  assert.equal(cancel.statusCode, 200, cancel.body)
  const s4 = await createSeries(app, w.customer, seriesBody(w.court.id, 2, 10))
  assert.equal(s4.statusCode, 201, s4.body)
  // Paying every week of the two-week series makes it no longer active.
  assert.equal((await createSeries(app, w.customer, seriesBody(w.court.id, 2, 11))).statusCode, 422)
  for (const b of s2.json().data.occurrences) assert.equal((await pay(w.customer, b.id)).statusCode, 200)
  // Now 1 series (s4) and the single booking: a series fits both caps again.
  const s5 = await createSeries(app, w.customer, seriesBody(w.court.id, 2, 11))
  assert.equal(s5.statusCode, 201, s5.body)
})

test('a customer holding three unpaid bookings cannot start a series; the desk can book one for them', async () => {
  clock.set(START)
  const w = await world(app)
  for (const h of [8, 9, 10]) assert.equal((await book(app, w.customer, courtSlot(w.court.id, 6, h))).statusCode, 201)
  const s = await createSeries(app, w.customer, seriesBody(w.court.id, 6, 18))
  assert.equal(s.statusCode, 422)
  assert.match(s.json().errors.payment_method[0], UNPAID)
  const desk = await app.inject({
    method: 'POST',
    url: `/api/venues/${w.venue.id}/bookings/series`,
    headers: w.staff.headers,
    payload: { ...seriesBody(w.court.id, 6, 18), payment_method: undefined, customer_name: 'Regular' },
  })
  assert.equal(desk.statusCode, 201, desk.body)
})

test('a payment intent holds a lapsed hold again only within the cap', async () => {
  clock.set(START)
  const w = await world(app, { wallet: 10_000_000 })
  const lapsed = await book(app, w.customer, courtSlot(w.court.id, 2, 8))
  assert.equal(lapsed.statusCode, 201, lapsed.body)
  const id = lapsed.json().data.id
  letHoldsRunOut(app, clock) // its hold ran out; no sweep has run
  const others = []
  for (const h of [9, 10, 11]) {
    const r = await book(app, w.customer, courtSlot(w.court.id, 2, h))
    assert.equal(r.statusCode, 201, 'the lapsed hold counts no more')
    others.push(r.json().data.id)
  }
  const intent = (method: string) =>
    app.inject({
      method: 'POST',
      url: '/api/payments/initiate',
      headers: w.customer.headers,
      payload: { booking_type: 'court', booking_id: id, method },
    })
  for (const method of ['cash', 'gateway_1']) {
    const refused = await intent(method)
    assert.equal(refused.statusCode, 422, `${method}: ${refused.body}`)
    assert.match(refused.json().message, UNPAID)
    assert.match(refused.json().errors.method[0], UNPAID)
  }
  assert.equal(await unpaidOf(w.customer.id), 4, 'nothing changed: the lapsed one is still pending, unheld')

  // Once one is paid there is room: the cash intent holds it until its start, and it counts again.
  assert.equal((await pay(w.customer, others[0])).statusCode, 200)
  const held = await intent('cash')
  assert.equal(held.statusCode, 200, held.body)
  const row = await app.ctx.db
    .selectFrom('bookings')
    .select('hold_expires_at')
    .where('id', '=', id)
    .executeTakeFirstOrThrow()
  assert.ok(row.hold_expires_at && new Date(row.hold_expires_at) > clock.now())
  const fourth = await book(app, w.customer, courtSlot(w.court.id, 2, 12))
  assert.equal(fourth.statusCode, 422, 'three held again')
})

test('reviving a lapsed hold that adds nothing to the count passes at the cap: a series week', async () => {
  clock.set(START)
  const w = await world(app, { wallet: 10_000_000 })
  const series = await createSeries(app, w.customer, seriesBody(w.court.id, 2, 19, { payment_method: undefined }))
  assert.equal(series.statusCode, 201, series.body)
  const first = await app.ctx.db
    .selectFrom('bookings')
    .select('id')
    .where('user_id', '=', w.customer.id)
    .where('date', '=', day(2))
    .executeTakeFirstOrThrow()
  letHoldsRunOut(app, clock) // week 1's hold ran out; the later weeks hold
  for (const h of [8, 9]) assert.equal((await book(app, w.customer, courtSlot(w.court.id, 3, h))).statusCode, 201)
  assert.equal((await book(app, w.customer, courtSlot(w.court.id, 3, 10))).statusCode, 422, 'at the cap')
  const intent = await app.inject({
    method: 'POST',
    url: '/api/payments/initiate',
    headers: w.customer.headers,
    payload: { booking_type: 'court', booking_id: first.id, method: 'cash' },
  })
  assert.equal(intent.statusCode, 200, `the series was counted already: ${intent.body}`)
})

test('two intents at once reviving two lapsed holds one below the cap: exactly one passes', async () => {
  clock.set(START)
  const w = await world(app, { wallet: 10_000_000 })
  const lapsed = []
  for (const h of [8, 9]) {
    const r = await book(app, w.customer, courtSlot(w.court.id, 2, h))
    assert.equal(r.statusCode, 201, r.body)
    lapsed.push(r.json().data.id)
  }
  letHoldsRunOut(app, clock)
  for (const h of [10, 11]) assert.equal((await book(app, w.customer, courtSlot(w.court.id, 2, h))).statusCode, 201)
  const answers = await Promise.all(
    lapsed.map((id) =>
      app.inject({
        method: 'POST',
        url: '/api/payments/initiate',
        headers: w.customer.headers,
        payload: { booking_type: 'court', booking_id: id, method: 'cash' },
      }),
    ),
  )
  assert.deepEqual(answers.map((a) => a.statusCode).sort(), [200, 422], answers.map((a) => a.body).join('\n'))
})
