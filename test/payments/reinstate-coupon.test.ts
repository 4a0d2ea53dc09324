import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { build } from '../helpers/app.ts'
import {
  createCourt,
  createUser,
  createVenue,
  daysFromFixedNow,
  FIXED_NOW,
  type TestUser,
} from '../helpers/factories.ts'
import { expireLapsedHolds } from '../helpers/sweeps.ts'
import { bookingRow, notificationsOf, openPaymentPage, simulate } from './helpers.ts'
import { reconcileKit } from './reconcile-helpers.ts'

// A late gateway success reinstates a booking the hold sweep cancelled through booking-core's
// transition, which takes the booking's coupon again: the coupon is counted once, the customer cannot
// redeem a single-use coupon a second time, and when they already did (the coupon was released with
// the expired hold and used on another booking), the reinstatement is refused and the money goes to
// the wallet instead of leaving a discounted booking with no usage behind it.

// The app runs on a ManualClock at FIXED_NOW (Tuesday 10 March 2026, 09:00 venue time); bookings
// count their dates from that day, and holds run out as the clock moves on.
let app: App
let kit: ReturnType<typeof reconcileKit>
before(async () => {
  app = await build(undefined, {}, { clock: new ManualClock(FIXED_NOW) })
  kit = reconcileKit(app)
})
after(() => app.close())

let day = 3
let seq = 0

async function world() {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const venue = await createVenue(app, owner.id)
  const court = await createCourt(app, venue.id, { price_per_hour: 150000 })
  const customer = await createUser(app)
  const code = `ONCE${process.pid}${++seq}`
  const made = await app.inject({
    method: 'POST',
    url: `/api/venues/${venue.id}/coupons`,
    headers: owner.headers,
    payload: { code, type: 'fixed', value: '300.00', per_user_limit: 1 },
  })
  assert.equal(made.statusCode, 201, made.body)
  return { venue, court, customer, code, couponId: made.json().data.id as number }
}

async function book(customer: TestUser, courtId: number, code: string, start: string) {
  const h = Number(start.slice(0, 2))
  return app.inject({
    method: 'POST',
    url: '/api/bookings',
    headers: customer.headers,
    payload: {
      court_id: courtId,
      date: daysFromFixedNow(day),
      start_time: start,
      end_time: `${String(h + 1).padStart(2, '0')}:00`,
      coupon_code: code,
    },
  })
}

/** used_count of the coupon and its live usage rows: the two must always agree. */
async function couponCounts(couponId: number) {
  const coupon = await app.ctx.db
    .selectFrom('coupons')
    .select('used_count')
    .where('id', '=', couponId)
    .executeTakeFirstOrThrow()
  const live = await app.ctx.db
    .selectFrom('coupon_usages')
    .select('booking_id')
    .where('coupon_id', '=', couponId)
    .where('released_at', 'is', null)
    .execute()
  return { used: coupon.used_count, live: live.map((r) => Number(r.booking_id)) }
}

/** A discounted booking paid by gateway_1, its hold run out and swept while the customer was still paying. */
async function lapsedWhilePaying(w: Awaited<ReturnType<typeof world>>) {
  const res = await book(w.customer, w.court.id, w.code, '10:00')
  assert.equal(res.statusCode, 201, res.body)
  const booking = res.json().data
  assert.equal(booking.discount_amount, '300.00')
  assert.equal(booking.total_amount, '1200.00')
  const { payment_url } = await kit.startGateway(w.customer, booking.id, 'gateway_1')
  await openPaymentPage(app, payment_url)
  await kit.expireHold('court', booking.id)
  assert.equal(await expireLapsedHolds(app), 1)
  assert.equal((await bookingRow(app, 'court', booking.id)).status, 'cancelled')
  // The expired hold gave the use back.
  assert.deepEqual(await couponCounts(w.couponId), { used: 0, live: [] })
  return { booking, payment_url }
}

test('reinstated by a late success, the booking takes its coupon again: counted once, not redeemable twice', async () => {
  const w = await world()
  day++
  const { booking, payment_url } = await lapsedWhilePaying(w)
  const cb = await app.inject({ method: 'GET', url: await simulate(app, payment_url, 'success') })
  assert.equal(cb.statusCode, 200, cb.body)
  const row = await bookingRow(app, 'court', booking.id)
  assert.equal(row.status, 'confirmed')
  assert.equal(row.paid_amount, 120000)
  assert.deepEqual(await couponCounts(w.couponId), { used: 1, live: [booking.id] })
  const shown = await app.inject({ method: 'GET', url: `/api/bookings/${booking.id}`, headers: w.customer.headers })
  assert.equal(shown.json().data.coupon_usage.code, w.code)
  // The single-use coupon is spent: a second booking with it is refused.
  const again = await book(w.customer, w.court.id, w.code, '14:00')
  assert.equal(again.statusCode, 422, again.body)
  assert.deepEqual(again.json().errors, {
    coupon_code: ['You have already used this coupon the maximum number of times.'],
  })
  assert.deepEqual(await couponCounts(w.couponId), { used: 1, live: [booking.id] })
})

test('a coupon used again meanwhile refuses the reinstatement: the payment goes to the wallet, the booking stays cancelled', async () => {
  const w = await world()
  day++
  const { booking, payment_url } = await lapsedWhilePaying(w)
  // The released single-use coupon goes on another booking of the same customer.
  const other = await book(w.customer, w.court.id, w.code, '16:00')
  assert.equal(other.statusCode, 201, other.body)
  assert.deepEqual(await couponCounts(w.couponId), { used: 1, live: [other.json().data.id] })

  const cb = await app.inject({ method: 'GET', url: await simulate(app, payment_url, 'success') })
  assert.equal(cb.statusCode, 200, cb.body)
  const row = await bookingRow(app, 'court', booking.id)
  assert.equal(row.status, 'cancelled')
  assert.equal(row.paid_amount, 0)
  // Still one use, on the other booking; the 1,200.00 paid is in the wallet, and the customer is told why.
  assert.deepEqual(await couponCounts(w.couponId), { used: 1, live: [other.json().data.id] })
  const { balance } = await kit.assertLedgerHolds(w.customer.id)
  assert.equal(balance, 120000)
  const last = (await notificationsOf(app, w.customer.id)).at(-1)!
  assert.equal(last.type, 'BookingCancelled')
  assert.match(String((last.data as { message: string }).message), /its coupon has been used up meanwhile/)
})
