import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { build } from '../helpers/app.ts'
import {
  createCourt,
  createIndoorGame,
  createUser,
  createVenue,
  daysFromFixedNow,
  FIXED_NOW,
} from '../helpers/factories.ts'
import { bookingRow, insertBooking, ledger, simulate } from './helpers.ts'

// The app runs on a ManualClock at FIXED_NOW (Tuesday 10 March 2026, 09:00 venue time); booking
// dates count from that day, never from the machine's date.
let app: App
before(async () => {
  // The gateway test returns to an app's web address (RETURN_URL_ALLOWLIST; return-url.test.ts).
  app = await build(undefined, { RETURN_URL_ALLOWLIST: 'https://app.example/' }, { clock: new ManualClock(FIXED_NOW) })
})
after(() => app.close())

let day = 0
async function setup(wallet = 0, total = 150000) {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const venue = await createVenue(app, owner.id)
  const court = await createCourt(app, venue.id)
  const user = await createUser(app, { wallet })
  const booking = await insertBooking(app, {
    userId: user.id,
    venueId: venue.id,
    courtId: court.id,
    total,
    date: daysFromFixedNow(2 + (day++ % 300)),
  })
  return { owner, venue, court, user, booking }
}

const initiate = (headers: Record<string, string> | undefined, payload: Record<string, unknown>) =>
  app.inject({ method: 'POST', url: '/api/payments/initiate', headers, payload })

test('wallet: debits, writes a debit row referencing the booking, records the payment and confirms', async () => {
  const { user, booking } = await setup(200000)
  const res = await initiate(user.headers, { booking_id: booking.id, method: 'wallet' })
  assert.equal(res.statusCode, 200, res.body)
  const body = res.json()
  assert.equal(body.message, 'Payment successful.')
  const p = body.data.payment
  assert.ok(p.id > 0)
  assert.equal(p.method, 'wallet')
  assert.equal(p.amount, '1500.00')
  assert.equal(p.refunded_amount, '0.00')
  assert.equal(p.status, 'completed')
  assert.equal(p.booking_type, 'court')
  assert.equal(p.booking_id, booking.id)
  assert.match(p.paid_at, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
  assert.deepEqual(body.data.booking, {
    id: booking.id,
    booking_type: 'court',
    booking_number: booking.booking_number,
    status: 'confirmed',
    total_amount: '1500.00',
    paid_amount: '1500.00',
    balance_due: '0.00',
    is_paid: true,
  })
  const row = await bookingRow(app, 'court', booking.id)
  assert.equal(row.status, 'confirmed')
  assert.equal(row.paid_amount, 150000)

  const wallet = (await app.inject({ method: 'GET', url: '/api/wallet', headers: user.headers })).json()
  assert.equal(wallet.balance, '500.00')
  const debit = wallet.transactions.data[0]
  assert.equal(debit.type, 'debit')
  assert.equal(debit.amount, '1500.00')
  assert.equal(debit.balance_after, '500.00')
  assert.equal(debit.reference_type, 'booking')
  assert.equal(debit.reference_id, booking.id)
  const l = await ledger(app, user.id)
  assert.equal(l.balance, l.sum)

  // Paid now: a second attempt is refused.
  const again = await initiate(user.headers, { booking_id: booking.id, method: 'wallet' })
  assert.equal(again.statusCode, 422)
  assert.deepEqual(again.json(), { message: 'This booking is already paid.' })
})

test('wallet: a short balance is 422 "Insufficient wallet balance." and nothing changes', async () => {
  const { user, booking } = await setup(100000)
  const res = await initiate(user.headers, { booking_id: booking.id, method: 'wallet' })
  assert.equal(res.statusCode, 422)
  assert.deepEqual(res.json(), { message: 'Insufficient wallet balance.' })
  assert.equal((await bookingRow(app, 'court', booking.id)).status, 'pending')
  const l = await ledger(app, user.id)
  assert.equal(l.balance, 100000)
  assert.equal(l.rows.length, 1)
  const payments = await app.ctx.db
    .selectFrom('payments')
    .select('id')
    .where('payable_id', '=', booking.id)
    .where('payable_type', '=', 'court')
    .execute()
  assert.equal(payments.length, 0)
})

test('gateway: 201 with an initiated payment and payment_url; the sandbox callback confirms the booking', async () => {
  const { user, booking } = await setup()
  const res = await initiate(user.headers, {
    booking_type: 'court',
    booking_id: booking.id,
    method: 'gateway_1',
    return_url: 'https://app.example/paid?x=1',
  })
  assert.equal(res.statusCode, 201, res.body)
  const { payment, payment_url } = res.json().data
  assert.deepEqual(Object.keys(payment).sort(), ['amount', 'id', 'method', 'status'])
  assert.equal(payment.method, 'gateway_1')
  assert.equal(payment.amount, '1500.00')
  assert.equal(payment.status, 'initiated')
  const held = await bookingRow(app, 'court', booking.id)
  assert.equal(held.status, 'pending')
  assert.equal(held.payment_method, 'gateway_1')

  const callback = await simulate(app, payment_url, 'success')
  const cb = await app.inject({ method: 'GET', url: callback })
  assert.equal(cb.statusCode, 302)
  const loc = new URL(cb.headers.location as string)
  assert.equal(loc.origin + loc.pathname, 'https://app.example/paid')
  assert.equal(loc.searchParams.get('x'), '1')
  assert.equal(loc.searchParams.get('status'), 'completed')
  assert.equal(loc.searchParams.get('payment_id'), String(payment.id))
  const row = await bookingRow(app, 'court', booking.id)
  assert.equal(row.status, 'confirmed')
  assert.equal(row.paid_amount, 150000)
})

test('gateway: an indoor booking paid through Khalti and Fonepay sandboxes is confirmed', async () => {
  for (const method of ['gateway_2', 'gateway_3']) {
    const { venue, user } = await setup()
    const game = await createIndoorGame(app, venue.id)
    const booking = await insertBooking(app, {
      userId: user.id,
      venueId: venue.id,
      indoorGameId: game.id,
      total: 30000,
      date: daysFromFixedNow(3),
    })
    const res = await initiate(user.headers, { booking_type: 'indoor', booking_id: booking.id, method })
    assert.equal(res.statusCode, 201, res.body)
    const cb = await app.inject({ method: 'GET', url: await simulate(app, res.json().data.payment_url, 'success') })
    assert.equal(cb.statusCode, 200, cb.body)
    assert.equal(cb.json().data.status, 'completed')
    assert.equal(cb.json().data.payment.booking_type, 'indoor')
    const row = await bookingRow(app, 'indoor', booking.id)
    assert.equal(row.status, 'confirmed')
    assert.equal(row.paid_amount, 30000)
  }
})

test('gateway: a cancelled payment leaves the booking pending and can be retried', async () => {
  const { user, booking } = await setup()
  const first = await initiate(user.headers, { booking_id: booking.id, method: 'gateway_3' })
  const cb = await app.inject({ method: 'GET', url: await simulate(app, first.json().data.payment_url, 'failure') })
  assert.equal(cb.statusCode, 200)
  assert.equal(cb.json().data.status, 'failed')
  assert.equal(cb.json().data.payment.status, 'failed')
  assert.equal((await bookingRow(app, 'court', booking.id)).status, 'pending')
  const retry = await initiate(user.headers, { booking_id: booking.id, method: 'gateway_2' })
  assert.equal(retry.statusCode, 201)
})

test('cash: 200, the booking stays pending and is held for cash', async () => {
  const { user, booking } = await setup()
  const res = await initiate(user.headers, { booking_id: booking.id, method: 'cash' })
  assert.equal(res.statusCode, 200, res.body)
  assert.equal(typeof res.json().message, 'string')
  assert.equal(res.json().data.payment, null)
  assert.equal(res.json().data.booking.status, 'pending')
  assert.equal(res.json().data.booking.balance_due, '1500.00')
  const row = await bookingRow(app, 'court', booking.id)
  assert.equal(row.status, 'pending')
  assert.equal(row.payment_method, 'cash')
})

test('only the owner pays a live, unpaid booking: 401, 403, 404, 422', async () => {
  const { user, booking, venue, court } = await setup(500000)
  const other = await createUser(app, { wallet: 500000 })
  assert.equal((await initiate(undefined, { booking_id: booking.id, method: 'wallet' })).statusCode, 401)
  const foreign = await initiate(other.headers, { booking_id: booking.id, method: 'wallet' })
  assert.equal(foreign.statusCode, 403)
  assert.deepEqual(foreign.json(), { message: 'This action is unauthorized.' })
  assert.equal((await initiate(user.headers, { booking_id: 99999999, method: 'wallet' })).statusCode, 404)
  assert.equal(
    (await initiate(user.headers, { booking_type: 'indoor', booking_id: booking.id, method: 'cash' })).statusCode,
    404,
  )
  const cancelled = await insertBooking(app, {
    userId: user.id,
    venueId: venue.id,
    courtId: court.id,
    total: 1000,
    date: daysFromFixedNow(1),
    status: 'cancelled',
  })
  const res = await initiate(user.headers, { booking_id: cancelled.id, method: 'gateway_1' })
  assert.equal(res.statusCode, 422)
  assert.deepEqual(res.json(), { message: 'This booking cannot be paid.' })
  const bad = await initiate(user.headers, { booking_id: booking.id, method: 'bitcoin', booking_type: 'tennis' })
  assert.equal(bad.statusCode, 422)
  assert.deepEqual(bad.json().errors, {
    method: ['The selected method is invalid.'],
    booking_type: ['The selected booking type is invalid.'],
  })
  const missing = await initiate(user.headers, {})
  assert.deepEqual(missing.json().errors, {
    booking_id: ['The booking id field is required.'],
    method: ['The method field is required.'],
  })
})
