import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { build } from '../helpers/app.ts'
import { createUser, daysFromFixedNow, FIXED_NOW, type TestUser } from '../helpers/factories.ts'
import { book, fixedSlot, notificationsOf, world } from './helpers.ts'

let app: App
before(async () => {
  app = await build(undefined, {}, { clock: new ManualClock(FIXED_NOW) })
})
after(() => app.close())

const FORBIDDEN = { message: 'This action is unauthorized.' }

function show(user: TestUser | undefined, id: number | string) {
  return app.inject({ method: 'GET', url: `/api/bookings/${id}`, headers: user?.headers })
}

function cancel(user: TestUser | undefined, id: number | string, payload?: Record<string, unknown>) {
  return app.inject({ method: 'PATCH', url: `/api/bookings/${id}/cancel`, headers: user?.headers, payload })
}

async function payByWallet(user: TestUser, bookingId: number) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/payments/initiate',
    headers: user.headers,
    payload: { booking_id: bookingId, method: 'wallet' },
  })
  assert.equal(res.statusCode, 200, res.body)
}

async function walletOf(userId: number) {
  const u = await app.ctx.db
    .selectFrom('users')
    .select('wallet_balance')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow()
  return u.wallet_balance
}

test('GET /api/bookings/{booking}: the owner gets court, user, payments and charges; others 403; 404; 401', async () => {
  const w = await world(app, { wallet: 500000 })
  const created = (await book(app, w.customer, fixedSlot(w.court.id, 3))).json().data
  await payByWallet(w.customer, created.id)
  const res = await show(w.customer, created.id)
  assert.equal(res.statusCode, 200, res.body)
  const b = res.json().data
  assert.equal(b.id, created.id)
  assert.equal(b.status, 'confirmed')
  assert.equal(b.paid_amount, '1500.00')
  assert.equal(b.balance_due, '0.00')
  assert.equal(b.is_paid, true)
  assert.equal(b.hold_expires_at, null)
  assert.equal(b.court.id, w.court.id)
  assert.equal(b.user.id, w.customer.id)
  assert.equal(b.payments.length, 1)
  assert.equal(b.payments[0].method, 'wallet')
  assert.equal(b.payments[0].amount, '1500.00')
  assert.equal(b.payments[0].refunded_amount, '0.00')
  assert.equal(b.payments[0].status, 'completed')
  assert.match(b.payments[0].paid_at, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
  assert.deepEqual(b.charges, [])
  const notes = await notificationsOf(app, w.customer.id)
  assert.equal(notes.filter((n) => n.type === 'BookingConfirmed').length, 1)

  const stranger = await createUser(app)
  for (const who of [stranger, w.staff, w.owner]) {
    const r = await show(who, created.id)
    assert.equal(r.statusCode, 403)
    assert.deepEqual(r.json(), FORBIDDEN)
  }
  assert.equal((await show(w.customer, 99999999)).statusCode, 404)
  assert.deepEqual((await show(w.customer, 'abc')).json(), { message: 'Not found.' })
  assert.equal((await show(undefined, created.id)).statusCode, 401)
})

test('cancel: an unpaid booking is cancelled, its coupon released, BookingCancelled sent and the slot freed', async () => {
  const w = await world(app)
  const code = `HALF${w.venue.id}`
  await app.ctx.db
    .insertInto('coupons')
    .values({ venue_id: w.venue.id, code, type: 'fixed', value: 50000, usage_limit: 1, is_active: true })
    .execute()
  const created = (
    await book(app, w.customer, fixedSlot(w.court.id, 4, '10:00', '11:00', { coupon_code: code }))
  ).json().data
  assert.equal(created.discount_amount, '500.00')
  const res = await cancel(w.customer, created.id, { reason: 'Rain expected' })
  assert.equal(res.statusCode, 200, res.body)
  const b = res.json().data
  assert.equal(b.status, 'cancelled')
  assert.equal(b.cancel_reason, 'Rain expected')
  assert.match(b.cancelled_at, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
  assert.equal(b.hold_expires_at, null)
  assert.equal(b.coupon_usage, null)
  const coupon = await app.ctx.db
    .selectFrom('coupons')
    .select('used_count')
    .where('code', '=', code)
    .executeTakeFirstOrThrow()
  assert.equal(coupon.used_count, 0)
  const notes = await notificationsOf(app, w.customer.id)
  const cancelled = notes.filter((n) => n.type === 'BookingCancelled')
  assert.equal(cancelled.length, 1)
  assert.equal(cancelled[0].data.booking_id, created.id)
  assert.equal(typeof cancelled[0].data.message, 'string')
  // The slot and the coupon are free again.
  const again = await book(app, w.customer, fixedSlot(w.court.id, 4, '10:00', '11:00', { coupon_code: code }))
  assert.equal(again.statusCode, 201, again.body)
  // Without a body the reason defaults.
  const noBody = await cancel(w.customer, again.json().data.id)
  assert.equal(noBody.statusCode, 200, noBody.body)
  assert.equal(noBody.json().data.cancel_reason, 'Cancelled by the customer')
})

test('cancel: a paid booking cancelled at least free_cancellation_hours ahead is refunded to the wallet', async () => {
  const w = await world(app, { wallet: 150000, freeCancellationHours: 24 })
  const created = (await book(app, w.customer, fixedSlot(w.court.id, 2))).json().data
  await payByWallet(w.customer, created.id)
  assert.equal(await walletOf(w.customer.id), 0)
  const res = await cancel(w.customer, created.id)
  assert.equal(res.statusCode, 200, res.body)
  assert.equal(res.json().data.status, 'cancelled')
  assert.equal(res.json().data.payments[0].status, 'refunded')
  assert.equal(res.json().data.payments[0].refunded_amount, '1500.00')
  assert.equal(await walletOf(w.customer.id), 150000)
  const credit = await app.ctx.db
    .selectFrom('wallet_transactions')
    .select(['type', 'amount', 'reference_type', 'reference_id', 'balance_after'])
    .where('user_id', '=', w.customer.id)
    .where('type', '=', 'credit')
    .executeTakeFirstOrThrow()
  assert.deepEqual(credit, {
    type: 'credit',
    amount: 150000,
    reference_type: 'booking',
    reference_id: created.id,
    balance_after: 150000,
  })
})

test('cancel: inside the free-cancellation window there is no refund', async () => {
  const w = await world(app, { wallet: 150000, freeCancellationHours: 100 })
  const created = (await book(app, w.customer, fixedSlot(w.court.id, 3))).json().data
  await payByWallet(w.customer, created.id)
  const res = await cancel(w.customer, created.id)
  assert.equal(res.statusCode, 200, res.body)
  assert.equal(res.json().data.status, 'cancelled')
  assert.equal(res.json().data.payments[0].status, 'completed')
  assert.equal(await walletOf(w.customer.id), 0)
  const credits = await app.ctx.db
    .selectFrom('wallet_transactions')
    .select('id')
    .where('user_id', '=', w.customer.id)
    .where('type', '=', 'credit')
    .execute()
  assert.equal(credits.length, 0)
})

test('cancel: non-owner and completed are 403; cancelled, playing, no-show or started are 422; 404; 401', async () => {
  const w = await world(app)
  const make = async (days: number, start: string) =>
    (
      await book(
        app,
        w.customer,
        fixedSlot(w.court.id, days, start, `${String(Number(start.slice(0, 2)) + 1).padStart(2, '0')}:00`),
      )
    ).json().data.id as number
  const id = await make(5, '08:00')
  const stranger = await createUser(app)
  for (const who of [stranger, w.owner, w.staff]) {
    const r = await cancel(who, id)
    assert.equal(r.statusCode, 403)
    assert.deepEqual(r.json(), FORBIDDEN)
  }
  const setStatus = (bid: number, status: string, date?: string) =>
    app.ctx.db
      .updateTable('bookings')
      .set({ status, ...(date ? { date } : {}) })
      .where('id', '=', bid)
      .execute()
  await setStatus(id, 'completed')
  const completed = await cancel(w.customer, id)
  assert.equal(completed.statusCode, 403)
  assert.deepEqual(completed.json(), FORBIDDEN)

  for (const [status, message] of [
    ['cancelled', 'A cancelled booking cannot be cancelled.'],
    ['playing', 'A playing booking cannot be cancelled.'],
    ['no_show', 'A no-show booking cannot be cancelled.'],
  ]) {
    const bid = await make(6, status === 'cancelled' ? '08:00' : status === 'playing' ? '10:00' : '12:00')
    await setStatus(bid, status)
    const r = await cancel(w.customer, bid)
    assert.equal(r.statusCode, 422, status)
    assert.deepEqual(r.json(), { message })
  }
  const started = await make(7, '08:00')
  await setStatus(started, 'confirmed', daysFromFixedNow(-1))
  const r = await cancel(w.customer, started)
  assert.equal(r.statusCode, 422)
  assert.deepEqual(r.json(), { message: 'A booking that has started cannot be cancelled.' })

  assert.equal((await cancel(w.customer, 99999999)).statusCode, 404)
  assert.equal((await cancel(w.customer, 'x1')).statusCode, 404)
  assert.equal((await cancel(undefined, id)).statusCode, 401)
  assert.equal((await cancel(stranger, id, { reason: 'x'.repeat(501) })).statusCode, 403)
  const tooLong = await cancel(w.customer, await make(8, '08:00'), { reason: 'x'.repeat(501) })
  assert.equal(tooLong.statusCode, 422)
  assert.ok(tooLong.json().errors.reason)
})
