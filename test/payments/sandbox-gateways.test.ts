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
import { bookingRow, insertBooking, simulate } from './helpers.ts'

// The sandbox every other test relies on is as awkward as the real gateways.

// The app runs on a ManualClock at FIXED_NOW (Tuesday 10 March 2026, 09:00 venue time); booking
// dates count from that day, never from the machine's date.
let app: App
before(async () => {
  app = await build(undefined, {}, { clock: new ManualClock(FIXED_NOW) })
})
after(() => app.close())

let day = 0
async function pay(method: string, total = 150000, user?: TestUser) {
  const customer = user ?? (await createUser(app))
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const venue = await createVenue(app, owner.id)
  const court = await createCourt(app, venue.id)
  const booking = await insertBooking(app, {
    userId: customer.id,
    venueId: venue.id,
    courtId: court.id,
    total,
    date: daysFromFixedNow(2 + (day++ % 300)),
  })
  const res = await app.inject({
    method: 'POST',
    url: '/api/payments/initiate',
    headers: customer.headers,
    payload: { booking_id: booking.id, method },
  })
  return { res, booking, user: customer }
}

const get = (url: string) => app.inject({ method: 'GET', url })
const payment = (id: number) =>
  app.ctx.db.selectFrom('payments').selectAll().where('id', '=', id).executeTakeFirstOrThrow()

test('eSewa sandbox: the form is taken by POST only; its data writes the amount as eSewa does ("1,500.0")', async () => {
  const { res, booking } = await pay('gateway_1')
  const paymentUrl = new URL(res.json().data.payment_url)
  assert.equal(paymentUrl.pathname, '/api/payments/gateway_1/checkout')
  const formUrl = '/api/payments/sandbox/gateway_1/api/epay/main/v2/form'
  const checkout = await get(paymentUrl.pathname + paymentUrl.search)
  assert.match(checkout.body, new RegExp(`<form method="POST" action="http://localhost:8000${formUrl}"`))
  assert.equal((await get(`${formUrl}${paymentUrl.search}`)).statusCode, 404)
  const form = await app.inject({
    method: 'POST',
    url: formUrl,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: paymentUrl.searchParams.toString(),
  })
  assert.equal(form.statusCode, 200)
  assert.match(form.body, /<form method="POST"/)

  const callback = await simulate(app, res.json().data.payment_url, 'success')
  const data = JSON.parse(Buffer.from(new URL(callback, 'http://x').searchParams.get('data')!, 'base64').toString())
  assert.equal(data.total_amount, '1,500.0')
  assert.equal(data.status, 'COMPLETE')
  const cb = await get(callback)
  assert.equal(cb.json().data.status, 'completed', cb.body)
  assert.equal((await bookingRow(app, 'court', booking.id)).status, 'confirmed')
})

test('eSewa sandbox: a stranger opening the failure URL changes nothing; the customer can still pay; Cancel fails it', async () => {
  const { res, booking } = await pay('gateway_1')
  const { id } = res.json().data.payment
  const ref = (await payment(id)).reference!
  const stranger = await get(`/api/payments/gateway_1/callback?status=failure&transaction_uuid=${ref}`)
  assert.equal(stranger.json().data.status, 'pending')
  assert.equal((await payment(id)).status, 'initiated')
  assert.equal((await get(await simulate(app, res.json().data.payment_url, 'success'))).json().data.status, 'completed')
  assert.equal((await bookingRow(app, 'court', booking.id)).status, 'confirmed')

  const second = await pay('gateway_1')
  const cancelled = await get(await simulate(app, second.res.json().data.payment_url, 'failure'))
  assert.equal(cancelled.json().data.status, 'failed')
  assert.equal((await bookingRow(app, 'court', second.booking.id)).status, 'pending')
})

test("Khalti sandbox: under Rs 10 is refused with Khalti's message (422)", async () => {
  const { res, booking } = await pay('gateway_2', 500)
  assert.equal(res.statusCode, 422, res.body)
  assert.deepEqual(res.json(), { message: 'Amount should be greater than Rs. 10, that is 1000 paisa.' })
  assert.equal((await bookingRow(app, 'court', booking.id)).status, 'pending')
})

test('Khalti sandbox: links expire (page 400, lookup Expired with HTTP 400); a cancelled payment fails', async () => {
  const { res } = await pay('gateway_2')
  const url = new URL(res.json().data.payment_url)
  const pidx = url.searchParams.get('pidx')!
  url.searchParams.set('simulate', 'expire')
  const expired = await get(url.pathname + url.search)
  assert.equal(expired.statusCode, 400)
  assert.match(expired.body, /expired/)
  url.searchParams.set('simulate', 'success')
  assert.equal((await get(url.pathname + url.search)).statusCode, 400, 'an expired link cannot be paid')
  const lookup = await app.inject({
    method: 'POST',
    url: '/api/payments/sandbox/gateway_2/epayment/lookup/',
    headers: { authorization: 'Key test_secret_key', 'content-type': 'application/json' },
    payload: { pidx },
  })
  assert.equal(lookup.statusCode, 400)
  assert.equal(lookup.json().status, 'Expired')

  const other = await pay('gateway_2')
  const back = await simulate(app, other.res.json().data.payment_url, 'failure')
  assert.equal(new URL(back, 'http://x').searchParams.get('status'), 'User canceled')
  const cb = await get(back)
  assert.equal(cb.json().data.status, 'failed')
  assert.equal((await payment(other.res.json().data.payment.id)).status, 'failed')
})

test('Fonepay sandbox: a discount (P_AMT < R_AMT) still confirms the booking for its full amount; P_AMT is recorded', async () => {
  const { res, booking } = await pay('gateway_3')
  const back = await simulate(app, res.json().data.payment_url, 'success')
  const q = new URL(back, 'http://x').searchParams
  assert.equal(q.get('R_AMT'), '1500.00')
  assert.equal(q.get('P_AMT'), '1350.0')
  const cb = await get(back)
  assert.equal(cb.json().data.status, 'completed', cb.body)
  const row = await bookingRow(app, 'court', booking.id)
  assert.equal(row.status, 'confirmed')
  assert.equal(row.paid_amount, 150000)
  const p = await payment(res.json().data.payment.id)
  const payload = typeof p.gateway_payload === 'string' ? JSON.parse(p.gateway_payload) : p.gateway_payload
  assert.equal(payload.paid_amount, 135000)
})
