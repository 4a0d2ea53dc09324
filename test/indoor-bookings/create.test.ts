import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { build } from '../helpers/app.ts'
import { createIndoorGame, createUser, daysFromFixedNow, FIXED_NOW } from '../helpers/factories.ts'
import { book, insertIndoor, row, scene } from './helpers.ts'

// A fixed start; dates are counted from its day (daysFromFixedNow), never from the real date.
const appClock = new ManualClock(FIXED_NOW)
let app: App
before(async () => {
  app = await build(undefined, {}, { clock: appClock })
})
after(() => app.close())

const DATETIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/
const INVALID = 'The given data was invalid.'
const TAKEN = { message: 'The selected slot is not available.' }

/** The year on the app's clock in the venue zone now. */
const venueYear = (a: App) => a.ctx.zone.today(a.ctx.clock.now()).slice(0, 4)

test('a customer books a slot: 201 with the full IndoorGameBooking', async () => {
  const s = await scene(app, { slotMinutes: 30 })
  const date = daysFromFixedNow(3)
  const yearBefore = venueYear(app)
  const res = await book(app, s.customer, {
    indoor_game_id: s.game.id,
    date,
    start_time: '10:00',
    end_time: '11:30',
    players_count: 3,
    customer_phone: '9800000001',
    notes: 'Bring two controllers',
  })
  assert.equal(res.statusCode, 201, res.body)
  const body = res.json()
  assert.deepEqual(Object.keys(body), ['data'])
  const b = body.data
  assert.equal(typeof b.id, 'number')
  // The venue-local year of creation (either one if New Year's midnight passed during the request),
  // not this machine's year: they differ from 18:15 UTC on 31 December until midnight UTC.
  assert.match(b.booking_number, new RegExp(`^IG-(${yearBefore}|${venueYear(app)})-\\d{6}$`))
  assert.equal(b.tenant_id, s.owner.id)
  assert.equal(b.indoor_game_id, s.game.id)
  assert.equal(b.user_id, s.customer.id)
  assert.equal(b.type, 'online')
  assert.match(b.customer_name, /^User /)
  assert.equal(b.customer_phone, '9800000001')
  assert.equal(b.date, date)
  assert.equal(b.start_time, '10:00')
  assert.equal(b.end_time, '11:30')
  assert.equal(b.duration_hours, '1.50')
  assert.equal(b.players_count, 3)
  assert.equal(b.base_amount, '450.00')
  assert.equal(b.discount_amount, '0.00')
  assert.equal(b.total_amount, '450.00')
  assert.equal(b.paid_amount, '0.00')
  assert.equal(b.balance_due, 450)
  assert.equal(b.is_paid, false)
  assert.equal(b.status, 'pending')
  assert.equal(b.cancel_reason, null)
  assert.equal(b.notes, 'Bring two controllers')
  assert.equal(b.indoor_game.id, s.game.id)
  assert.equal(b.indoor_game.price_per_hour, '300.00')
  assert.deepEqual(b.indoor_game.venue, { id: s.venue.id, name: b.indoor_game.venue.name, slug: s.venue.slug })
  assert.equal(b.user.id, s.customer.id)
  assert.equal(b.user.email, s.customer.email)
  assert.deepEqual(b.user.roles, ['customer'])
  assert.deepEqual(b.charges, [])
  assert.deepEqual(b.payments, [])
  assert.match(b.created_at, DATETIME)
  // The unpaid online booking holds its slot for the payment window only.
  const stored = await row(app, b.id)
  assert.ok(stored.hold_expires_at && new Date(stored.hold_expires_at).getTime() > appClock.now().getTime())
  assert.equal(stored.venue_id, s.venue.id)
  assert.equal(stored.created_by, s.customer.id)
})

test('optional fields may be left out; players_count null', async () => {
  const s = await scene(app)
  const res = await book(app, s.customer, {
    indoor_game_id: s.game.id,
    date: daysFromFixedNow(4),
    start_time: '07:00',
    end_time: '08:00',
  })
  assert.equal(res.statusCode, 201, res.body)
  const b = res.json().data
  assert.equal(b.players_count, null)
  assert.equal(b.customer_phone, null)
  assert.equal(b.notes, null)
  assert.equal(b.total_amount, '300.00')
  assert.equal(b.duration_hours, '1.00')
})

test('validation errors are 422 with errors per field', async () => {
  const s = await scene(app, { capacity: 6 })
  const base = { indoor_game_id: s.game.id, date: daysFromFixedNow(5), start_time: '12:00', end_time: '13:00' }
  const cases: Array<[Record<string, unknown>, string, string]> = [
    [{ players_count: 21 }, 'players_count', 'The players count field must not be greater than 20.'],
    [{ players_count: 7 }, 'players_count', 'The players count field must not be greater than 6.'],
    [{ players_count: 0 }, 'players_count', 'The players count field must be at least 1.'],
    [{ end_time: '11:00' }, 'end_time', 'The end time field must be a time after start time.'],
    [{ end_time: '12:00' }, 'end_time', 'The end time field must be a time after start time.'],
    [{ date: daysFromFixedNow(-1) }, 'date', 'The date field must be a date after or equal to today.'],
    [{ date: '2026-02-30' }, 'date', 'The date field must be a valid date.'],
    [{ start_time: '9:00' }, 'start_time', 'The start time field format is invalid.'],
    [{ indoor_game_id: 999999 }, 'indoor_game_id', 'The selected indoor game id is invalid.'],
    [{ indoor_game_id: 'abc' }, 'indoor_game_id', 'The indoor game id field must be an integer.'],
  ]
  for (const [override, field, message] of cases) {
    const res = await book(app, s.customer, { ...base, ...override })
    assert.equal(res.statusCode, 422, `${JSON.stringify(override)}: ${res.body}`)
    const body = res.json()
    assert.equal(body.message, INVALID)
    assert.deepEqual(body.errors[field], [message], JSON.stringify(body))
  }
  const missing = await book(app, s.customer, {})
  assert.equal(missing.statusCode, 422)
  for (const f of ['indoor_game_id', 'date', 'start_time', 'end_time']) {
    assert.deepEqual(missing.json().errors[f], [`The ${f.replace(/_/g, ' ')} field is required.`])
  }
  // Capacity above 20 still caps at 20.
  const big = await createIndoorGame(app, s.venue.id, { capacity: 30 })
  const res = await book(app, s.customer, { ...base, indoor_game_id: big.id, players_count: 20 })
  assert.equal(res.statusCode, 201, res.body)
})

test('a start time already past today (venue time) is 422 on start_time', async (t) => {
  // Noon of a fixed day on the venue's clock: a 06:00 start has passed, whatever the wall clock says.
  const clock = new ManualClock(FIXED_NOW)
  const clocked = await build(t, {}, { clock })
  clock.set(clocked.ctx.zone.instant(daysFromFixedNow(0), '12:00'))
  const s = await scene(clocked)
  const res = await book(clocked, s.customer, {
    indoor_game_id: s.game.id,
    date: daysFromFixedNow(0),
    start_time: '06:00',
    end_time: '07:00',
  })
  assert.equal(res.statusCode, 422, res.body)
  assert.deepEqual(res.json().errors, { start_time: ['The start time must not be in the past.'] })
})

test("the customer's profile phone is used when customer_phone is not sent", async () => {
  const s = await scene(app)
  const withPhone = await createUser(app, { phone: '9841234567' })
  const res = await book(app, withPhone, {
    indoor_game_id: s.game.id,
    date: daysFromFixedNow(4),
    start_time: '09:00',
    end_time: '10:00',
  })
  assert.equal(res.statusCode, 201, res.body)
  assert.equal(res.json().data.customer_phone, '9841234567')
})

test('an inactive game, or a game of an unverified venue, cannot be booked', async () => {
  const s = await scene(app)
  const inactive = await createIndoorGame(app, s.venue.id, { is_active: false })
  const body = { indoor_game_id: inactive.id, date: daysFromFixedNow(5), start_time: '12:00', end_time: '13:00' }
  let res = await book(app, s.customer, body)
  assert.equal(res.statusCode, 422)
  assert.deepEqual(res.json().errors.indoor_game_id, ['The selected indoor game id is invalid.'])
  await app.ctx.db.updateTable('venues').set({ verification_status: 'pending' }).where('id', '=', s.venue.id).execute()
  res = await book(app, s.customer, { ...body, indoor_game_id: s.game.id })
  assert.equal(res.statusCode, 422)
})

test('outside opening hours is 409 with the contract message', async () => {
  const s = await scene(app)
  const res = await book(app, s.customer, {
    indoor_game_id: s.game.id,
    date: daysFromFixedNow(5),
    start_time: '21:00',
    end_time: '23:00',
  })
  assert.equal(res.statusCode, 409, res.body)
  assert.deepEqual(res.json(), TAKEN)
})

test('without a token: 401', async () => {
  const s = await scene(app)
  const body = { indoor_game_id: s.game.id, date: daysFromFixedNow(5), start_time: '12:00', end_time: '13:00' }
  const res = await app.inject({ method: 'POST', url: '/api/indoor-game-bookings', payload: body })
  assert.equal(res.statusCode, 401)
  assert.deepEqual(res.json(), { message: 'Unauthenticated.' })
  const list = await app.inject({ method: 'GET', url: '/api/indoor-game-bookings' })
  assert.equal(list.statusCode, 401)
})

test('overlapping bookings are 409; back-to-back ones are both allowed', async () => {
  const s = await scene(app)
  const other = await createUser(app)
  const date = daysFromFixedNow(6)
  const first = await book(app, s.customer, { indoor_game_id: s.game.id, date, start_time: '10:00', end_time: '12:00' })
  assert.equal(first.statusCode, 201)
  for (const [start, end] of [
    ['10:00', '12:00'],
    ['11:00', '13:00'],
    ['09:00', '11:00'],
    ['09:00', '13:00'],
  ]) {
    const res = await book(app, other, { indoor_game_id: s.game.id, date, start_time: start, end_time: end })
    assert.equal(res.statusCode, 409, `${start}-${end}: ${res.body}`)
    assert.deepEqual(res.json(), TAKEN)
  }
  const before = await book(app, other, { indoor_game_id: s.game.id, date, start_time: '09:00', end_time: '10:00' })
  const afterIt = await book(app, other, { indoor_game_id: s.game.id, date, start_time: '12:00', end_time: '13:00' })
  assert.equal(before.statusCode, 201, before.body)
  assert.equal(afterIt.statusCode, 201, afterIt.body)
  // Another station at the same time is independent.
  const second = await createIndoorGame(app, s.venue.id)
  const res = await book(app, other, { indoor_game_id: second.id, date, start_time: '10:00', end_time: '12:00' })
  assert.equal(res.statusCode, 201)
  // Numbers are unique and increase in creation order (a refused attempt may leave a gap: docs/bookings.md).
  const numbers = [first, before, afterIt, res].map((r) => Number(r.json().data.booking_number.slice(-6)))
  assert.deepEqual(
    numbers,
    numbers.slice().sort((a, b) => a - b),
  )
  assert.equal(new Set(numbers).size, numbers.length)
})

test('20 concurrent requests for one slot: exactly one 201, the rest 409', async () => {
  const s = await scene(app)
  const users = await Promise.all(Array.from({ length: 20 }, () => createUser(app)))
  const date = daysFromFixedNow(7)
  const results = await Promise.all(
    users.map((u) => book(app, u, { indoor_game_id: s.game.id, date, start_time: '15:00', end_time: '16:00' })),
  )
  const codes = results.map((r) => r.statusCode)
  assert.equal(codes.filter((c) => c === 201).length, 1, JSON.stringify(codes))
  assert.equal(codes.filter((c) => c === 409).length, 19, JSON.stringify(codes))
  for (const r of results.filter((r) => r.statusCode === 409)) assert.deepEqual(r.json(), TAKEN)
  const rows = await app.ctx.db
    .selectFrom('indoor_game_bookings')
    .select('id')
    .where('indoor_game_id', '=', s.game.id)
    .execute()
  assert.equal(rows.length, 1)
})

test('an expired payment hold on the slot is cancelled and the slot booked', async () => {
  const s = await scene(app)
  const date = daysFromFixedNow(8)
  const stale = await insertIndoor(app, s, { date, start: '10:00', end: '11:00' })
  await app.ctx.db
    .updateTable('indoor_game_bookings')
    .set({ hold_expires_at: new Date(appClock.now().getTime() - 60_000), payment_method: 'gateway_1' })
    .where('id', '=', stale.id)
    .execute()
  const live = await insertIndoor(app, s, { date, start: '11:00', end: '12:00' })
  await app.ctx.db
    .updateTable('indoor_game_bookings')
    .set({ hold_expires_at: new Date(appClock.now().getTime() + 600_000) })
    .where('id', '=', live.id)
    .execute()
  const other = await createUser(app)
  const res = await book(app, other, { indoor_game_id: s.game.id, date, start_time: '10:00', end_time: '11:00' })
  assert.equal(res.statusCode, 201, res.body)
  const old = await row(app, stale.id)
  assert.equal(old.status, 'cancelled')
  assert.equal(old.cancel_reason, 'Payment not received')
  assert.ok(old.cancelled_at)
  // A hold that has not run out keeps its slot.
  const taken = await book(app, other, { indoor_game_id: s.game.id, date, start_time: '11:00', end_time: '12:00' })
  assert.equal(taken.statusCode, 409)
  assert.equal((await row(app, live.id)).status, 'pending')
})

test("GET /api/indoor-game-bookings lists only the caller's bookings, newest date first, paginated", async () => {
  const s = await scene(app)
  const other = await createUser(app)
  for (const [n, start] of [
    [10, '10:00'],
    [11, '10:00'],
    [12, '10:00'],
  ] as const) {
    const res = await book(app, s.customer, {
      indoor_game_id: s.game.id,
      date: daysFromFixedNow(n),
      start_time: start,
      end_time: '11:00',
    })
    assert.equal(res.statusCode, 201)
  }
  await book(app, other, {
    indoor_game_id: s.game.id,
    date: daysFromFixedNow(13),
    start_time: '10:00',
    end_time: '11:00',
  })
  const res = await app.inject({
    method: 'GET',
    url: '/api/indoor-game-bookings?per_page=2',
    headers: s.customer.headers,
  })
  assert.equal(res.statusCode, 200)
  const body = res.json()
  assert.equal(body.meta.total, 3)
  assert.equal(body.meta.per_page, 2)
  assert.equal(body.meta.last_page, 2)
  assert.deepEqual(
    body.data.map((b: { date: string }) => b.date),
    [daysFromFixedNow(12), daysFromFixedNow(11)],
  )
  assert.equal(body.data[0].indoor_game.id, s.game.id)
  assert.equal(body.data[0].user.id, s.customer.id)
  assert.equal(body.links.next, 'http://localhost:8000/api/indoor-game-bookings?per_page=2&page=2')
  const page2 = await app.inject({
    method: 'GET',
    url: body.links.next.replace('http://localhost:8000', ''),
    headers: s.customer.headers,
  })
  assert.deepEqual(
    page2.json().data.map((b: { date: string }) => b.date),
    [daysFromFixedNow(10)],
  )
})
