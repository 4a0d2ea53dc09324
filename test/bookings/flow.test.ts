import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { build } from '../helpers/app.ts'
import { FIXED_NOW } from '../helpers/factories.ts'
import { simulate } from '../payments/helpers.ts'
import { book, fixedSlot, notificationsOf, world } from './helpers.ts'

// The contract's court booking flow end to end: book, pay at the (sandbox) gateway, read the booking.

let app: App
const clock = new ManualClock(FIXED_NOW)
before(async () => {
  app = await build(undefined, {}, { clock })
})
after(() => app.close())

test('book → pay by gateway → the booking is confirmed with its payment, hold cleared, BookingConfirmed', async () => {
  const w = await world(app)
  const created = await book(
    app,
    w.customer,
    fixedSlot(w.court.id, 2, '19:00', '20:00', { payment_method: 'gateway_1' }),
  )
  assert.equal(created.statusCode, 201, created.body)
  const id = created.json().data.id
  const initiated = await app.inject({
    method: 'POST',
    url: '/api/payments/initiate',
    headers: w.customer.headers,
    payload: { booking_type: 'court', booking_id: id, method: 'gateway_1' },
  })
  assert.equal(initiated.statusCode, 201, initiated.body)
  const pending = (await app.inject({ method: 'GET', url: `/api/bookings/${id}`, headers: w.customer.headers })).json()
    .data
  assert.equal(pending.status, 'pending')
  assert.equal(pending.payments.length, 1)
  assert.equal(pending.payments[0].status, 'initiated')
  assert.equal(pending.payments[0].amount, '1500.00')

  const callback = await app.inject({
    method: 'GET',
    url: await simulate(app, initiated.json().data.payment_url, 'success'),
  })
  assert.equal(callback.statusCode, 200, callback.body)
  const res = await app.inject({ method: 'GET', url: `/api/bookings/${id}`, headers: w.customer.headers })
  const b = res.json().data
  assert.equal(b.status, 'confirmed')
  assert.equal(b.paid_amount, '1500.00')
  assert.equal(b.balance_due, '0.00')
  assert.equal(b.is_paid, true)
  assert.equal(b.hold_expires_at, null)
  assert.equal(b.payments[0].status, 'completed')
  assert.equal(b.payments[0].method, 'gateway_1')
  const notes = await notificationsOf(app, w.customer.id)
  assert.deepEqual(
    notes.map((n) => n.type),
    ['BookingConfirmed'],
  )
  assert.equal(notes[0].data.booking_id, id)
  assert.equal(notes[0].data.booking_number, b.booking_number)
  // A confirmed booking still blocks its slot.
  const other = await book(app, w.manager, fixedSlot(w.court.id, 2, '19:00', '20:00'))
  assert.equal(other.statusCode, 409)
})

test('a payment on a booking whose hold ran out goes to the wallet: the slot went to someone else', async () => {
  const w = await world(app)
  const id = (await book(app, w.customer, fixedSlot(w.court.id, 3, '07:00', '08:00'))).json().data.id
  const initiated = await app.inject({
    method: 'POST',
    url: '/api/payments/initiate',
    headers: w.customer.headers,
    payload: { booking_id: id, method: 'gateway_2' },
  })
  assert.equal(initiated.statusCode, 201, initiated.body)
  // The hold runs out: BOOKING_HOLD_MINUTES and a second pass on the app's clock.
  clock.advance(app.ctx.config.bookingHoldMinutes * 60_000 + 1000)
  const taken = await book(app, w.manager, fixedSlot(w.court.id, 3, '07:00', '08:00'))
  assert.equal(taken.statusCode, 201, taken.body)
  const cb = await app.inject({ method: 'GET', url: await simulate(app, initiated.json().data.payment_url, 'success') })
  assert.equal(cb.statusCode, 200, cb.body)
  const b = (await app.inject({ method: 'GET', url: `/api/bookings/${id}`, headers: w.customer.headers })).json().data
  assert.equal(b.status, 'cancelled')
  assert.equal(b.cancel_reason, 'Payment not received')
  assert.equal(b.payments[0].status, 'refunded')
  const user = await app.ctx.db
    .selectFrom('users')
    .select('wallet_balance')
    .where('id', '=', w.customer.id)
    .executeTakeFirstOrThrow()
  assert.equal(user.wallet_balance, 150000)
})
