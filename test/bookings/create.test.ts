import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { build } from '../helpers/app.ts'
import { createCourt, createUser, createVenue, daysFromFixedNow, FIXED_NOW } from '../helpers/factories.ts'
import { book, fixedSlot, notificationsOf, world } from './helpers.ts'

let app: App
before(async () => {
  app = await build(undefined, {}, { clock: new ManualClock(FIXED_NOW) })
})
after(() => app.close())

const UNAVAILABLE = { message: 'The court is not available for the selected time slot.' }

/** The year on the app's clock in the venue zone now. */
const venueYear = (a: App) => a.ctx.zone.today(a.ctx.clock.now()).slice(0, 4)

test('POST /api/bookings: 201 with the whole Booking resource, pending and held for payment', async () => {
  const w = await world(app)
  const court = await createCourt(app, w.venue.id, { slot_minutes: 30, price_per_hour: 150000 })
  const before = app.ctx.clock.now().getTime()
  const yearBefore = venueYear(app)
  const res = await book(app, w.customer, fixedSlot(court.id, 3, '10:00', '11:30', { notes: '  Bring bibs ' }))
  assert.equal(res.statusCode, 201, res.body)
  const b = res.json().data
  assert.equal(typeof b.id, 'number')
  // The venue-local year of creation (either one if New Year's midnight passed during the request).
  assert.match(b.booking_number, new RegExp(`^BK-(${yearBefore}|${venueYear(app)})-\\d{6}$`))
  assert.equal(b.type, 'online')
  assert.equal(b.status, 'pending')
  assert.equal(b.date, daysFromFixedNow(3))
  assert.equal(b.start_time, '10:00')
  assert.equal(b.end_time, '11:30')
  assert.equal(b.duration_hours, '1.50')
  assert.equal(b.base_amount, '2250.00')
  assert.equal(b.discount_amount, '0.00')
  assert.equal(b.total_amount, '2250.00')
  assert.equal(b.paid_amount, '0.00')
  assert.equal(b.balance_due, '2250.00')
  assert.equal(b.is_paid, false)
  assert.equal(b.extras_total, null)
  assert.equal(b.payment_method, null)
  assert.match(b.hold_expires_at, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
  const user = await app.ctx.db
    .selectFrom('users')
    .select(['name'])
    .where('id', '=', w.customer.id)
    .executeTakeFirstOrThrow()
  assert.equal(b.customer_name, user.name)
  assert.equal(b.customer_phone, null)
  assert.equal(b.notes, 'Bring bibs')
  assert.equal(b.cancel_reason, null)
  assert.equal(b.cancelled_at, null)
  assert.equal(b.court_id, court.id)
  assert.equal(b.venue_id, w.venue.id)
  assert.equal(b.user_id, w.customer.id)
  assert.equal(b.court.id, court.id)
  assert.equal(b.court.name, court.name)
  assert.equal(b.court.slot_minutes, 30)
  assert.equal(b.court.price_per_hour, '1500.00')
  assert.deepEqual(b.venue, { id: w.venue.id, name: w.venue.name, slug: w.venue.slug })
  assert.equal(b.user.id, w.customer.id)
  assert.equal(b.user.email, w.customer.email)
  assert.deepEqual(b.payments, [])
  assert.deepEqual(b.charges, [])
  assert.equal(b.coupon_usage, null)
  assert.equal(b.review, null)
  assert.match(b.created_at, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
  // The hold is BOOKING_HOLD_MINUTES (15) from now.
  const row = await app.ctx.db
    .selectFrom('bookings')
    .select(['hold_expires_at', 'created_by'])
    .where('id', '=', b.id)
    .executeTakeFirstOrThrow()
  const hold = new Date(row.hold_expires_at!).getTime()
  assert.ok(hold >= before + 15 * 60_000 - 1000 && hold <= app.ctx.clock.now().getTime() + 15 * 60_000 + 1000)
  assert.equal(row.created_by, w.customer.id)
})

test('payment_method sets the intent: gateway holds 15 minutes, cash holds until the start', async () => {
  const w = await world(app)
  const gw = await book(app, w.customer, fixedSlot(w.court.id, 4, '08:00', '09:00', { payment_method: 'gateway_2' }))
  assert.equal(gw.statusCode, 201, gw.body)
  assert.equal(gw.json().data.payment_method, 'gateway_2')
  const cash = await book(app, w.customer, fixedSlot(w.court.id, 4, '12:00', '13:00', { payment_method: 'cash' }))
  assert.equal(cash.statusCode, 201, cash.body)
  assert.equal(cash.json().data.payment_method, 'cash')
  assert.equal(cash.json().data.hold_expires_at, `${daysFromFixedNow(4)} 12:00:00`)
})

test('overlapping ranges are 409; back-to-back slots are both 201', async () => {
  const w = await world(app)
  assert.equal((await book(app, w.customer, fixedSlot(w.court.id, 5, '10:00', '12:00'))).statusCode, 201)
  for (const [start, end] of [
    ['10:00', '12:00'],
    ['11:00', '13:00'],
    ['09:00', '11:00'],
    ['09:00', '13:00'],
    ['11:00', '12:00'],
  ]) {
    const res = await book(app, w.customer, fixedSlot(w.court.id, 5, start, end))
    assert.equal(res.statusCode, 409, `${start}-${end}: ${res.body}`)
    assert.deepEqual(res.json(), UNAVAILABLE)
  }
  const other = await createUser(app)
  assert.equal((await book(app, other, fixedSlot(w.court.id, 5, '12:00', '13:00'))).statusCode, 201)
  assert.equal((await book(app, other, fixedSlot(w.court.id, 5, '09:00', '10:00'))).statusCode, 201)
  // Another court at the same venue is independent.
  const court2 = await createCourt(app, w.venue.id)
  assert.equal((await book(app, other, fixedSlot(court2.id, 5, '10:00', '12:00'))).statusCode, 201)
  // No row was left behind by the refused attempts.
  const n = await app.ctx.db
    .selectFrom('bookings')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('court_id', '=', w.court.id)
    .executeTakeFirstOrThrow()
  assert.equal(Number(n.n), 3)
})

test('409 outside opening hours, on a closed day and over a maintenance block (off-grid: slot-grid.test.ts)', async () => {
  const w = await world(app)
  for (const [start, end] of [
    ['05:00', '06:00'],
    ['21:00', '23:00'],
  ]) {
    const res = await book(app, w.customer, fixedSlot(w.court.id, 6, start, end))
    assert.equal(res.statusCode, 409, `${start}-${end}: ${res.body}`)
    assert.deepEqual(res.json(), UNAVAILABLE)
  }
  await app.ctx.db
    .insertInto('court_blocks')
    .values({
      court_id: w.court.id,
      date: daysFromFixedNow(6),
      start_time: '14:00',
      end_time: '15:00',
      reason: 'Repair',
    })
    .execute()
  const blocked = await book(app, w.customer, fixedSlot(w.court.id, 6, '13:00', '15:00'))
  assert.equal(blocked.statusCode, 409)
  const day = new Date(`${daysFromFixedNow(7)}T00:00:00Z`).getUTCDay()
  await app.ctx.db
    .insertInto('court_schedules')
    .values({ court_id: w.court.id, day_of_week: day, open_time: '06:00', close_time: '22:00', is_closed: true })
    .execute()
  const closed = await book(app, w.customer, fixedSlot(w.court.id, 7))
  assert.equal(closed.statusCode, 409)
  assert.deepEqual(closed.json(), UNAVAILABLE)
})

test('validation: 422 with errors per field', async () => {
  const w = await world(app)
  const missing = await book(app, w.customer, {})
  assert.equal(missing.statusCode, 422)
  assert.equal(missing.json().message, 'The given data was invalid.')
  for (const field of ['court_id', 'date', 'start_time', 'end_time']) {
    assert.deepEqual(missing.json().errors[field], [`The ${field.replace('_', ' ')} field is required.`], field)
  }
  const badTypes = await book(app, w.customer, {
    court_id: 'abc',
    date: 'tomorrow',
    start_time: '25:00',
    end_time: '10',
    payment_method: 'bitcoin',
  })
  assert.equal(badTypes.statusCode, 422)
  assert.deepEqual(Object.keys(badTypes.json().errors).sort(), [
    'court_id',
    'date',
    'end_time',
    'payment_method',
    'start_time',
  ])
  const past = await book(app, w.customer, fixedSlot(w.court.id, -1))
  assert.equal(past.statusCode, 422)
  assert.deepEqual(past.json().errors, { date: ['The date field must be a date after or equal to today.'] })
  const backwards = await book(app, w.customer, fixedSlot(w.court.id, 2, '11:00', '10:00'))
  assert.equal(backwards.statusCode, 422)
  assert.deepEqual(backwards.json().errors, { end_time: ['The end time field must be a time after start time.'] })
  const unknownCourt = await book(app, w.customer, fixedSlot(99999999, 2))
  assert.equal(unknownCourt.statusCode, 422)
  assert.deepEqual(unknownCourt.json().errors, { court_id: ['The selected court id is invalid.'] })
  const inactive = await createCourt(app, w.venue.id, { is_active: false })
  assert.equal((await book(app, w.customer, fixedSlot(inactive.id, 2))).statusCode, 422)
  const hiddenVenue = await createVenue(app, w.owner.id, { verification_status: 'pending' })
  const hiddenCourt = await createCourt(app, hiddenVenue.id)
  assert.deepEqual((await book(app, w.customer, fixedSlot(hiddenCourt.id, 2))).json().errors, {
    court_id: ['The selected court id is invalid.'],
  })
  const badDate = await book(app, w.customer, { ...fixedSlot(w.court.id, 2), date: '2027-02-30' })
  assert.deepEqual(badDate.json().errors, { date: ['The date field must be a valid date.'] })
})

test('a start time already past today (venue time) is 422 on start_time', async (t) => {
  // Noon of a fixed day on the venue's clock: 11:00–12:00 has started, whatever the wall clock says.
  const clock = new ManualClock(FIXED_NOW)
  const clocked = await build(t, {}, { clock })
  clock.set(clocked.ctx.zone.instant(daysFromFixedNow(0), '12:00'))
  const w = await world(clocked)
  const res = await book(clocked, w.customer, fixedSlot(w.court.id, 0, '11:00', '12:00'))
  assert.equal(res.statusCode, 422, res.body)
  assert.deepEqual(Object.keys(res.json().errors), ['start_time'])
})

test('401 without a token', async () => {
  const w = await world(app)
  const res = await book(app, undefined, fixedSlot(w.court.id, 2))
  assert.equal(res.statusCode, 401)
  assert.deepEqual(res.json(), { message: 'Unauthenticated.' })
})

test('a coupon is redeemed with the booking; an unusable coupon is 422 and nothing is written', async () => {
  const w = await world(app)
  await app.ctx.db
    .insertInto('coupons')
    .values({ venue_id: w.venue.id, code: 'TENOFF', type: 'percent', value: 1000, usage_limit: 1, is_active: true })
    .execute()
  const res = await book(app, w.customer, fixedSlot(w.court.id, 8, '10:00', '12:00', { coupon_code: 'tenoff' }))
  assert.equal(res.statusCode, 201, res.body)
  const b = res.json().data
  assert.equal(b.base_amount, '3000.00')
  assert.equal(b.discount_amount, '300.00')
  assert.equal(b.total_amount, '2700.00')
  assert.equal(b.balance_due, '2700.00')
  assert.equal(b.coupon_usage.code, 'TENOFF')
  assert.equal(b.coupon_usage.type, 'percent')
  assert.equal(b.coupon_usage.discount_amount, '300.00')
  const used = await book(app, w.customer, fixedSlot(w.court.id, 8, '14:00', '15:00', { coupon_code: 'TENOFF' }))
  assert.equal(used.statusCode, 422)
  assert.deepEqual(used.json().errors, { coupon_code: ['This coupon has reached its usage limit.'] })
  const unknown = await book(app, w.customer, fixedSlot(w.court.id, 8, '14:00', '15:00', { coupon_code: 'NOPE' }))
  assert.deepEqual(unknown.json().errors, { coupon_code: ['The coupon code is invalid.'] })
  const rows = await app.ctx.db.selectFrom('bookings').select('id').where('court_id', '=', w.court.id).execute()
  assert.equal(rows.length, 1)
})

test('a booking with nothing to pay (100% coupon) is confirmed at once', async () => {
  const w = await world(app)
  await app.ctx.db
    .insertInto('coupons')
    .values({ venue_id: w.venue.id, code: `FREE${w.venue.id}`, type: 'percent', value: 10000, is_active: true })
    .execute()
  const res = await book(
    app,
    w.customer,
    fixedSlot(w.court.id, 9, '10:00', '11:00', { coupon_code: `FREE${w.venue.id}` }),
  )
  assert.equal(res.statusCode, 201, res.body)
  assert.equal(res.json().data.status, 'confirmed')
  assert.equal(res.json().data.is_paid, true)
  assert.equal(res.json().data.hold_expires_at, null)
  const notes = await notificationsOf(app, w.customer.id)
  assert.deepEqual(
    notes.map((n) => n.type),
    ['BookingConfirmed'],
  )
  assert.equal(notes[0].data.booking_id, res.json().data.id)
})

test('GET /api/bookings lists only the caller’s bookings, paginated and filtered', async () => {
  const w = await world(app)
  const other = await createUser(app)
  const ids: number[] = []
  for (const [days, start] of [
    [10, '08:00'],
    [11, '08:00'],
    [10, '12:00'],
  ] as const) {
    const res = await book(
      app,
      w.customer,
      fixedSlot(w.court.id, days, start, `${String(Number(start.slice(0, 2)) + 1).padStart(2, '0')}:00`),
    )
    ids.push(res.json().data.id)
  }
  await book(app, other, fixedSlot(w.court.id, 12))
  const res = await app.inject({ method: 'GET', url: '/api/bookings?per_page=2', headers: w.customer.headers })
  assert.equal(res.statusCode, 200)
  const body = res.json()
  assert.deepEqual(
    body.data.map((b: { id: number }) => b.id),
    [ids[1], ids[2]],
  )
  assert.equal(body.meta.total, 3)
  assert.equal(body.meta.per_page, 2)
  assert.equal(body.meta.last_page, 2)
  assert.match(body.links.next, /page=2/)
  assert.equal(body.data[0].court.id, w.court.id)
  assert.equal(body.data[0].user, undefined)
  const byDate = await app.inject({
    method: 'GET',
    url: `/api/bookings?date=${daysFromFixedNow(10)}`,
    headers: w.customer.headers,
  })
  assert.deepEqual(
    byDate.json().data.map((b: { id: number }) => b.id),
    [ids[2], ids[0]],
  )
  const cancelled = await app.inject({
    method: 'GET',
    url: '/api/bookings?status=cancelled',
    headers: w.customer.headers,
  })
  assert.deepEqual(cancelled.json().data, [])
  const bad = await app.inject({ method: 'GET', url: '/api/bookings?status=nope', headers: w.customer.headers })
  assert.equal(bad.statusCode, 422)
  assert.equal((await app.inject({ method: 'GET', url: '/api/bookings' })).statusCode, 401)
})
