import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { build } from '../helpers/app.ts'
import { createCourt, createUser, createVenue, daysFromFixedNow, FIXED_NOW } from '../helpers/factories.ts'
import { bookingRow, insertBooking, ledger, simulate } from './helpers.ts'

// The app runs on a ManualClock at FIXED_NOW (Tuesday 10 March 2026, 09:00 venue time); booking
// dates count from that day, never from the machine's date.
let app: App
before(async () => {
  app = await build(undefined, {}, { clock: new ManualClock(FIXED_NOW) })
})
after(() => app.close())

let day = 0
async function setup() {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const venue = await createVenue(app, owner.id)
  const court = await createCourt(app, venue.id)
  const user = await createUser(app)
  const booking = await insertBooking(app, {
    userId: user.id,
    venueId: venue.id,
    courtId: court.id,
    total: 120000,
    date: daysFromFixedNow(2 + day++),
  })
  return { user, booking }
}

async function startGateway(user: { headers: Record<string, string> }, bookingId: number, method: string) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/payments/initiate',
    headers: user.headers,
    payload: { booking_id: bookingId, method },
  })
  assert.equal(res.statusCode, 201, res.body)
  return res.json().data as { payment: { id: number }; payment_url: string }
}

test('two identical callbacks at once confirm the booking once', async () => {
  for (const method of ['gateway_1', 'gateway_2', 'gateway_3']) {
    const { user, booking } = await setup()
    const { payment_url } = await startGateway(user, booking.id, method)
    const callback = await simulate(app, payment_url, 'success')
    const results = await Promise.all(Array.from({ length: 5 }, () => app.inject({ method: 'GET', url: callback })))
    for (const r of results) assert.equal(r.statusCode, 200, r.body)
    const row = await bookingRow(app, 'court', booking.id)
    assert.equal(row.status, 'confirmed')
    assert.equal(row.paid_amount, 120000, method)
    const notes = await app.ctx.db.selectFrom('notifications').select('type').where('user_id', '=', user.id).execute()
    assert.equal(notes.filter((n) => n.type.endsWith('BookingConfirmed')).length, 1, method)
  }
})

test('a tampered callback is 422 and confirms nothing', async () => {
  const { user, booking } = await setup()
  const { payment_url } = await startGateway(user, booking.id, 'gateway_1')
  const callback = await simulate(app, payment_url, 'success')
  const url = new URL(callback, 'http://x')
  const data = JSON.parse(Buffer.from(url.searchParams.get('data')!, 'base64').toString())
  data.total_amount = '1.0'
  url.searchParams.set('data', Buffer.from(JSON.stringify(data)).toString('base64'))
  const res = await app.inject({ method: 'GET', url: url.pathname + url.search })
  assert.equal(res.statusCode, 422)
  assert.deepEqual(res.json(), { message: 'The payment could not be verified.' })
  assert.equal((await bookingRow(app, 'court', booking.id)).status, 'pending')
  // A forged POST callback too.
  const post = await app.inject({
    method: 'POST',
    url: '/api/payments/gateway_3/callback',
    payload: { PRN: 'x', DV: 'y', PS: 'true' },
  })
  assert.equal(post.statusCode, 422)
})

test('POST callbacks (form-encoded) are accepted like GET ones', async () => {
  const { user, booking } = await setup()
  const { payment_url } = await startGateway(user, booking.id, 'gateway_3')
  const callback = new URL(await simulate(app, payment_url, 'success'), 'http://x')
  const res = await app.inject({
    method: 'POST',
    url: callback.pathname,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: callback.searchParams.toString(),
  })
  assert.equal(res.statusCode, 200, res.body)
  assert.equal((await bookingRow(app, 'court', booking.id)).status, 'confirmed')
})

test('money the gateway takes for a booking cancelled meanwhile goes to the wallet', async () => {
  const { user, booking } = await setup()
  const { payment_url } = await startGateway(user, booking.id, 'gateway_2')
  await app.ctx.db
    .updateTable('bookings')
    .set({ status: 'cancelled', cancel_reason: 'Cancelled by the customer' })
    .where('id', '=', booking.id)
    .execute()
  const res = await app.inject({ method: 'GET', url: await simulate(app, payment_url, 'success') })
  assert.equal(res.statusCode, 200, res.body)
  assert.equal(res.json().data.payment.status, 'refunded')
  assert.equal((await bookingRow(app, 'court', booking.id)).status, 'cancelled')
  const l = await ledger(app, user.id)
  assert.equal(l.balance, 120000)
  assert.equal(l.sum, 120000)
})

test('two gateway payments that both succeed: the second is returned to the wallet', async () => {
  const { user, booking } = await setup()
  const a = await startGateway(user, booking.id, 'gateway_1')
  const b = await startGateway(user, booking.id, 'gateway_3')
  await app.inject({ method: 'GET', url: await simulate(app, a.payment_url, 'success') })
  const second = await app.inject({ method: 'GET', url: await simulate(app, b.payment_url, 'success') })
  assert.equal(second.json().data.payment.status, 'refunded')
  assert.equal((await bookingRow(app, 'court', booking.id)).paid_amount, 120000)
  // The sandbox's Fonepay granted its 10 % promotion: the customer paid 1,080.00 of the 1,200.00, and a
  // refund never returns more than the customer paid (the rest goes back to the promotion's account).
  assert.equal((await ledger(app, user.id)).balance, 108000)
})
