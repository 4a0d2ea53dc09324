import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { lastOtp } from '../accounts/helpers.ts'
import { build } from '../helpers/app.ts'
import { createIndoorGame, createUser, daysFromFixedNow, FIXED_NOW, type TestUser } from '../helpers/factories.ts'
import { expireLapsedHolds, letHoldsRunOut } from '../helpers/sweeps.ts'
import { book, fixedSlot, type World, world } from './helpers.ts'

// A held slot needs a real person (docs/bookings.md, "Creating"): a customer without a verified
// phone holds any unpaid booking (cash included) only BOOKING_HOLD_MINUTES, then the hold sweep
// frees it; with a verified phone a cash booking holds until its start; verifying a phone within
// the window extends the cash holds to the start. Everything on one ManualClock.

let app: App
const clock = new ManualClock(FIXED_NOW)
before(async () => {
  app = await build(undefined, {}, { clock })
})
after(() => app.close())

type Kind = 'court' | 'indoor'
const table = (kind: Kind) => (kind === 'court' ? 'bookings' : 'indoor_game_bookings')

/** The booking's status, cancel reason and hold as stored. */
async function stored(kind: Kind, id: number) {
  return app.ctx.db
    .selectFrom(table(kind))
    .select(['status', 'cancel_reason', 'hold_expires_at', 'payment_method'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow()
}

/** BOOKING_HOLD_MINUTES from now on the test clock. */
const windowEnd = () => new Date(clock.now().getTime() + app.ctx.config.bookingHoldMinutes * 60_000)
/** The instant a booking `days` after FIXED_NOW's day starts at `time`, venue time. */
const startOf = (days: number, time: string) => app.ctx.zone.instant(daysFromFixedNow(days), time)

/** A new account with no verified email or phone (a phone number on it, unverified, when given). */
const newcomer = (phone: string | null = null) => createUser(app, { phone, phone_verified: false })

function initiate(user: TestUser, kind: Kind, id: number, method: string) {
  return app.inject({
    method: 'POST',
    url: '/api/payments/initiate',
    headers: user.headers,
    payload: { booking_type: kind, booking_id: id, method, return_url: 'http://localhost:8000/done' },
  })
}

function bookIndoor(user: TestUser, gameId: number, days: number, start: string, end: string) {
  return app.inject({
    method: 'POST',
    url: '/api/indoor-game-bookings',
    headers: user.headers,
    payload: { indoor_game_id: gameId, date: daysFromFixedNow(days), start_time: start, end_time: end },
  })
}

/** Books a court slot for `user` (201 asserted) and returns the Booking resource. */
async function booked(user: TestUser, w: World, days: number, start: string, end: string, method?: string) {
  const extra = method ? { payment_method: method } : {}
  const res = await book(app, user, fixedSlot(w.court.id, days, start, end, extra))
  assert.equal(res.statusCode, 201, res.body)
  return res.json().data as { id: number; status: string; hold_expires_at: string | null; payment_method: string }
}

/** Moves the clock past the payment window and runs the hold sweep as its job does. */
async function sweepAfterWindow() {
  letHoldsRunOut(app, clock)
  await expireLapsedHolds(app)
}

async function assertExpired(kind: Kind, id: number) {
  const row = await stored(kind, id)
  assert.deepEqual(
    { status: row.status, reason: row.cancel_reason },
    { status: 'cancelled', reason: 'Payment not received' },
  )
}

test("an unverified customer's cash court booking is held BOOKING_HOLD_MINUTES, then expired and the slot free", async () => {
  const w = await world(app)
  const customer = await newcomer()
  const b = await booked(customer, w, 2, '10:00', '11:00', 'cash')
  assert.equal(b.status, 'pending')
  assert.equal(b.payment_method, 'cash')
  // The resource tells the customer how long the slot is theirs.
  assert.equal(b.hold_expires_at, app.ctx.zone.format(windowEnd()))
  assert.equal((await stored('court', b.id)).hold_expires_at?.getTime(), windowEnd().getTime())
  // While held, the slot is taken.
  assert.equal((await book(app, w.customer, fixedSlot(w.court.id, 2, '10:00', '11:00'))).statusCode, 409)

  await sweepAfterWindow()
  await assertExpired('court', b.id)
  const again = await book(app, w.customer, fixedSlot(w.court.id, 2, '10:00', '11:00', { payment_method: 'cash' }))
  assert.equal(again.statusCode, 201, again.body)
})

test('a court booking with no payment method is held BOOKING_HOLD_MINUTES for an unverified customer, then expired', async () => {
  const w = await world(app)
  const customer = await newcomer()
  const b = await booked(customer, w, 2, '12:00', '13:00')
  assert.equal(b.hold_expires_at, app.ctx.zone.format(windowEnd()))
  await sweepAfterWindow()
  await assertExpired('court', b.id)
  assert.equal((await book(app, w.customer, fixedSlot(w.court.id, 2, '12:00', '13:00'))).statusCode, 201)
})

test("a verified customer's cash court booking holds until its start, past the payment window and the sweep", async () => {
  const w = await world(app)
  const b = await booked(w.customer, w, 2, '14:00', '15:00', 'cash')
  assert.equal(b.hold_expires_at, app.ctx.zone.format(startOf(2, '14:00')))
  await sweepAfterWindow()
  const row = await stored('court', b.id)
  assert.equal(row.status, 'pending')
  assert.equal(row.hold_expires_at?.getTime(), startOf(2, '14:00').getTime())
  const other = await newcomer()
  assert.equal((await book(app, other, fixedSlot(w.court.id, 2, '14:00', '15:00'))).statusCode, 409)
})

test('cash chosen through /api/payments/initiate: held BOOKING_HOLD_MINUTES when unverified, until the start when verified', async () => {
  const w = await world(app)
  const customer = await newcomer()
  const mine = await booked(customer, w, 3, '10:00', '11:00')
  const theirs = await booked(w.customer, w, 3, '11:00', '12:00')
  // A few minutes later: the intent's window runs from the intent.
  clock.advance(5 * 60_000)
  assert.equal((await initiate(customer, 'court', mine.id, 'cash')).statusCode, 200)
  assert.equal((await initiate(w.customer, 'court', theirs.id, 'cash')).statusCode, 200)
  assert.equal((await stored('court', mine.id)).hold_expires_at?.getTime(), windowEnd().getTime())
  assert.equal((await stored('court', theirs.id)).hold_expires_at?.getTime(), startOf(3, '11:00').getTime())
  const shown = await app.inject({ method: 'GET', url: `/api/bookings/${mine.id}`, headers: customer.headers })
  assert.equal(shown.json().data.hold_expires_at, app.ctx.zone.format(windowEnd()))

  await sweepAfterWindow()
  await assertExpired('court', mine.id)
  assert.equal((await stored('court', theirs.id)).status, 'pending')
  assert.equal((await book(app, w.customer, fixedSlot(w.court.id, 3, '10:00', '11:00'))).statusCode, 201)
})

test("an unverified customer's indoor cash booking is held BOOKING_HOLD_MINUTES, then expired and the slot free", async () => {
  const w = await world(app)
  const game = await createIndoorGame(app, w.venue.id, { capacity: 4, price_per_hour: 30000 })
  const customer = await newcomer()
  const res = await bookIndoor(customer, game.id, 2, '10:00', '11:00')
  assert.equal(res.statusCode, 201, res.body)
  const id = res.json().data.id as number
  assert.equal((await initiate(customer, 'indoor', id, 'cash')).statusCode, 200)
  const row = await stored('indoor', id)
  assert.equal(row.payment_method, 'cash')
  assert.equal(row.hold_expires_at?.getTime(), windowEnd().getTime())
  assert.equal((await bookIndoor(w.customer, game.id, 2, '10:00', '11:00')).statusCode, 409)

  // A verified customer's indoor cash booking holds until its start.
  const held = await bookIndoor(w.customer, game.id, 2, '12:00', '13:00')
  assert.equal((await initiate(w.customer, 'indoor', held.json().data.id, 'cash')).statusCode, 200)
  assert.equal((await stored('indoor', held.json().data.id)).hold_expires_at?.getTime(), startOf(2, '12:00').getTime())

  await sweepAfterWindow()
  await assertExpired('indoor', id)
  assert.equal((await stored('indoor', held.json().data.id)).status, 'pending')
  assert.equal((await bookIndoor(w.customer, game.id, 2, '10:00', '11:00')).statusCode, 201)
})

test('verifying the phone within the window extends the cash holds to the start; online intents keep the window', async () => {
  const w = await world(app)
  const game = await createIndoorGame(app, w.venue.id, { capacity: 4, price_per_hour: 30000 })
  const phone = '+9779812345670'
  const customer = await newcomer(phone)
  const cash = await booked(customer, w, 4, '10:00', '11:00', 'cash')
  const online = await booked(customer, w, 4, '11:00', '12:00', 'gateway_2')
  const indoor = (await bookIndoor(customer, game.id, 4, '10:00', '11:00')).json().data.id as number
  assert.equal((await initiate(customer, 'indoor', indoor, 'cash')).statusCode, 200)
  const window = windowEnd().getTime()
  assert.equal((await stored('court', cash.id)).hold_expires_at?.getTime(), window)

  clock.advance(10 * 60_000)
  assert.equal(
    (await app.inject({ method: 'POST', url: '/api/auth/otp/send', payload: { identifier: phone, type: 'sms' } }))
      .statusCode,
    200,
  )
  const verify = await app.inject({
    method: 'POST',
    url: '/api/auth/otp/verify',
    payload: { identifier: phone, type: 'sms', otp: await lastOtp(app, phone), device_name: 'Phone' },
  })
  assert.equal(verify.statusCode, 200, verify.body)
  assert.equal(verify.json().data.phone_verified, true)

  assert.equal((await stored('court', cash.id)).hold_expires_at?.getTime(), startOf(4, '10:00').getTime())
  assert.equal((await stored('indoor', indoor)).hold_expires_at?.getTime(), startOf(4, '10:00').getTime())
  assert.equal((await stored('court', online.id)).hold_expires_at?.getTime(), window)
  const shown = await app.inject({ method: 'GET', url: `/api/bookings/${cash.id}`, headers: customer.headers })
  assert.equal(shown.json().data.hold_expires_at, app.ctx.zone.format(startOf(4, '10:00')))

  await sweepAfterWindow()
  assert.equal((await stored('court', cash.id)).status, 'pending')
  assert.equal((await stored('indoor', indoor)).status, 'pending')
  await assertExpired('court', online.id)
  // Verified now: a new cash booking holds until its start.
  const next = await booked(customer, w, 4, '15:00', '16:00', 'cash')
  assert.equal(next.hold_expires_at, app.ctx.zone.format(startOf(4, '15:00')))
})

test('verifying the phone while choosing cash, at the same moment: the cash hold ends at the start either way', async () => {
  const w = await world(app)
  const phone = '+9779812345672'
  const customer = await newcomer(phone)
  const mine = await booked(customer, w, 9, '10:00', '11:00')
  await app.inject({ method: 'POST', url: '/api/auth/otp/send', payload: { identifier: phone, type: 'sms' } })
  const otp = await lastOtp(app, phone)
  const [verify, cash] = await Promise.all([
    app.inject({
      method: 'POST',
      url: '/api/auth/otp/verify',
      payload: { identifier: phone, type: 'sms', otp, device_name: 'Phone' },
    }),
    initiate(customer, 'court', mine.id, 'cash'),
  ])
  assert.equal(verify.statusCode, 200, verify.body)
  assert.equal(cash.statusCode, 200, cash.body)
  const row = await stored('court', mine.id)
  assert.equal(row.payment_method, 'cash')
  assert.equal(row.hold_expires_at?.getTime(), startOf(9, '10:00').getTime())
})

test('verifying a phone after the window does not bring back an expired hold', async () => {
  const w = await world(app)
  const phone = '+9779812345671'
  const customer = await newcomer(phone)
  const cash = await booked(customer, w, 5, '10:00', '11:00', 'cash')
  letHoldsRunOut(app, clock)
  await app.inject({ method: 'POST', url: '/api/auth/otp/send', payload: { identifier: phone, type: 'sms' } })
  const verify = await app.inject({
    method: 'POST',
    url: '/api/auth/otp/verify',
    payload: { identifier: phone, type: 'sms', otp: await lastOtp(app, phone), device_name: 'Phone' },
  })
  assert.equal(verify.statusCode, 200, verify.body)
  assert.equal((await stored('court', cash.id)).hold_expires_at?.getTime(), clock.now().getTime() - 60_000)
  await expireLapsedHolds(app)
  await assertExpired('court', cash.id)
})

test('five new accounts with three cash bookings each hold one court only for BOOKING_HOLD_MINUTES', async () => {
  const w = await world(app)
  const accounts = await Promise.all(Array.from({ length: 5 }, () => newcomer()))
  // 06:00–21:00: fifteen of the day's sixteen hourly slots.
  const hours = Array.from({ length: 15 }, (_, i) => 6 + i)
  const time = (h: number) => `${String(h).padStart(2, '0')}:00`
  const availability = async () => {
    const res = await app.inject({
      method: 'GET',
      url: `/api/courts/${w.court.id}/availability?date=${daysFromFixedNow(6)}`,
    })
    assert.equal(res.statusCode, 200, res.body)
    const slots = res.json().slots as { start_time: string; is_available: boolean }[]
    return slots.filter((s) => s.is_available).map((s) => s.start_time.slice(0, 5))
  }
  const results = await Promise.all(
    hours.map((h, i) =>
      book(
        app,
        accounts[Math.floor(i / 3)],
        fixedSlot(w.court.id, 6, time(h), time(h + 1), { payment_method: 'cash' }),
      ),
    ),
  )
  for (const r of results) assert.equal(r.statusCode, 201, r.body)
  const ids = results.map((r) => r.json().data.id as number)
  const window = windowEnd().getTime()
  assert.deepEqual(await availability(), ['21:00'])
  for (const id of ids) {
    const hold = (await stored('court', id)).hold_expires_at
    assert.ok(hold !== null && hold.getTime() <= window, `booking ${id} is held until ${hold?.toISOString()}`)
  }

  await sweepAfterWindow()
  for (const id of ids) await assertExpired('court', id)
  // The whole day (06:00–22:00) is open again.
  assert.deepEqual(await availability(), [...hours, 21].map(time))
  // A real customer books any of them again.
  for (const h of [6, 13, 20]) {
    const res = await book(app, w.customer, fixedSlot(w.court.id, 6, time(h), time(h + 1), { payment_method: 'cash' }))
    assert.equal(res.statusCode, 201, res.body)
  }
})

test("an unverified customer's series holds its later weeks only BOOKING_HOLD_MINUTES; a verified one's until their start", async () => {
  const w = await world(app)
  const series = (user: TestUser, start: string) =>
    app.inject({
      method: 'POST',
      url: '/api/bookings/series',
      headers: user.headers,
      payload: {
        court_id: w.court.id,
        start_date: daysFromFixedNow(7),
        weeks: 2,
        start_time: start,
        end_time: `${String(Number(start.slice(0, 2)) + 1).padStart(2, '0')}:00`,
        payment_method: 'cash',
      },
    })
  const customer = await newcomer()
  const mine = await series(customer, '10:00')
  assert.equal(mine.statusCode, 201, mine.body)
  const theirs = await series(w.customer, '12:00')
  assert.equal(theirs.statusCode, 201, theirs.body)
  const holds = async (res: typeof mine) =>
    Promise.all(
      (res.json().data.occurrences as { id: number }[]).map(async (o) =>
        (await stored('court', o.id)).hold_expires_at?.getTime(),
      ),
    )
  const window = windowEnd().getTime()
  assert.deepEqual(await holds(mine), [window, window])
  assert.deepEqual(await holds(theirs), [startOf(7, '12:00').getTime(), startOf(14, '12:00').getTime()])
})

test('a new phone number takes the verified holds back: one phone cannot vouch for one account after another', async () => {
  const w = await world(app)
  const b = await booked(w.customer, w, 3, '14:00', '15:00', 'cash')
  assert.equal(b.hold_expires_at, app.ctx.zone.format(startOf(3, '14:00')))
  const moved = await app.inject({
    method: 'PUT',
    url: '/api/profile',
    headers: w.customer.headers,
    payload: { phone: '+9779812345999' },
  })
  assert.equal(moved.statusCode, 200, moved.body)
  const row = await stored('court', b.id)
  assert.equal(row.hold_expires_at?.getTime(), windowEnd().getTime())
  await sweepAfterWindow()
  await assertExpired('court', b.id)
})

test('desk bookings are unchanged: a walk-in staff book has no hold, whoever is at the desk', async () => {
  const w = await world(app)
  const res = await app.inject({
    method: 'POST',
    url: `/api/venues/${w.venue.id}/bookings`,
    headers: w.staff.headers,
    payload: { ...fixedSlot(w.court.id, 8, '10:00', '11:00'), customer_name: 'Walk In', type: 'walkin' },
  })
  assert.equal(res.statusCode, 201, res.body)
  const row = await stored('court', res.json().data.id)
  assert.deepEqual({ status: row.status, hold: row.hold_expires_at }, { status: 'pending', hold: null })
  await sweepAfterWindow()
  assert.equal((await stored('court', res.json().data.id)).status, 'pending')
})
