import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { build } from '../helpers/app.ts'
import { createUser, daysFromFixedNow, FIXED_NOW } from '../helpers/factories.ts'
import { simulate } from '../payments/helpers.ts'
import { book, notificationsOf, row, scene } from './helpers.ts'

// The contract's indoor booking flow: POST /api/indoor-game-bookings, POST /api/payments/initiate
// with booking_type indoor, the gateway callback, then GET the booking.

// A fixed start; dates are counted from its day (daysFromFixedNow), never from the real date.
const clock = new ManualClock(FIXED_NOW)
let app: App
before(async () => {
  app = await build(undefined, {}, { clock })
})
after(() => app.close())

test('paying through each sandbox gateway confirms the booking and sends IndoorGameBookingConfirmed', async () => {
  let day = 2
  for (const method of ['gateway_1', 'gateway_2', 'gateway_3']) {
    const s = await scene(app)
    const created = await book(app, s.customer, {
      indoor_game_id: s.game.id,
      date: daysFromFixedNow(day++),
      start_time: '17:00',
      end_time: '19:00',
    })
    assert.equal(created.statusCode, 201, created.body)
    const id = created.json().data.id
    const init = await app.inject({
      method: 'POST',
      url: '/api/payments/initiate',
      headers: s.customer.headers,
      payload: { booking_type: 'indoor', booking_id: id, method },
    })
    assert.equal(init.statusCode, 201, init.body)
    const { payment, payment_url } = init.json().data
    assert.equal(payment.amount, '600.00')
    assert.equal(payment.status, 'initiated')
    const held = await row(app, id)
    assert.equal(held.payment_method, method)
    assert.ok(held.hold_expires_at)

    const callback = await app.inject({ method: 'GET', url: await simulate(app, payment_url, 'success') })
    assert.equal(callback.statusCode, 200, callback.body)

    const res = await app.inject({ method: 'GET', url: `/api/indoor-game-bookings/${id}`, headers: s.customer.headers })
    assert.equal(res.statusCode, 200)
    const b = res.json().data
    assert.equal(b.status, 'confirmed', method)
    assert.equal(b.paid_amount, '600.00')
    assert.equal(b.balance_due, 0)
    assert.equal(b.is_paid, true)
    assert.equal(b.payments.length, 1)
    assert.equal(b.payments[0].id, payment.id)
    assert.equal(b.payments[0].method, method)
    assert.equal(b.payments[0].status, 'completed')
    assert.equal((await row(app, id)).hold_expires_at, null)

    const confirmed = (await notificationsOf(app, s.customer.id)).filter(
      (n) => n.type === 'App\\Notifications\\IndoorGameBookingConfirmed',
    )
    assert.equal(confirmed.length, 1, method)
    const data = confirmed[0].data as Record<string, unknown>
    assert.equal(data.booking_id, id)
    assert.equal(typeof data.message, 'string')
  }
})

test('a failed gateway payment leaves the booking pending and unpaid', async () => {
  const s = await scene(app)
  const created = await book(app, s.customer, {
    indoor_game_id: s.game.id,
    date: daysFromFixedNow(6),
    start_time: '08:00',
    end_time: '09:00',
  })
  const id = created.json().data.id
  const init = await app.inject({
    method: 'POST',
    url: '/api/payments/initiate',
    headers: s.customer.headers,
    payload: { booking_type: 'indoor', booking_id: id, method: 'gateway_2' },
  })
  assert.equal(init.statusCode, 201, init.body)
  await app.inject({ method: 'GET', url: await simulate(app, init.json().data.payment_url, 'failure') })
  const b = (
    await app.inject({ method: 'GET', url: `/api/indoor-game-bookings/${id}`, headers: s.customer.headers })
  ).json().data
  assert.equal(b.status, 'pending')
  assert.equal(b.paid_amount, '0.00')
  assert.equal(b.payments[0].status, 'failed')
  const notes = await notificationsOf(app, s.customer.id)
  assert.equal(notes.filter((n) => n.type.endsWith('IndoorGameBookingConfirmed')).length, 0)
})

test('a wallet payment confirms at once; the booking then lists the wallet payment', async () => {
  const s = await scene(app, { wallet: 50000 })
  const created = await book(app, s.customer, {
    indoor_game_id: s.game.id,
    date: daysFromFixedNow(7),
    start_time: '08:00',
    end_time: '09:00',
  })
  const id = created.json().data.id
  const init = await app.inject({
    method: 'POST',
    url: '/api/payments/initiate',
    headers: s.customer.headers,
    payload: { booking_type: 'indoor', booking_id: id, method: 'wallet' },
  })
  assert.equal(init.statusCode, 200, init.body)
  const list = await app.inject({ method: 'GET', url: '/api/indoor-game-bookings', headers: s.customer.headers })
  const b = list.json().data[0]
  assert.equal(b.id, id)
  assert.equal(b.status, 'confirmed')
  assert.equal(b.payments[0].method, 'wallet')
  assert.equal(b.user.wallet_balance, '200.00')
  // Someone else cannot pay for it.
  const other = await createUser(app, { wallet: 50000 })
  const refused = await app.inject({
    method: 'POST',
    url: '/api/payments/initiate',
    headers: other.headers,
    payload: { booking_type: 'indoor', booking_id: id, method: 'wallet' },
  })
  assert.equal(refused.statusCode, 403)
})
