import assert from 'node:assert/strict'
import type { Server } from 'node:http'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { book, fixedSlot, world } from '../bookings/helpers.ts'
import { build } from '../helpers/app.ts'
import { FIXED_NOW } from '../helpers/factories.ts'
import { fake, khaltiCallback, reset, startFakeGateways, stopFakeGateways } from './fake-gateways.ts'
import { ledger } from './helpers.ts'

// Khalti's refund API with PAYMENT_DRIVER=live against a local fake of Khalti's HTTP API
// (fake-gateways.ts): POST /merchant-transaction/{transaction_id}/refund/ with the secret key, an
// amount for a partial refund; when Khalti refuses or is down, the refund goes to the wallet.

// The app runs on a ManualClock at FIXED_NOW (Tuesday 10 March 2026, 09:00 venue time); booking
// dates count from that day, never from the machine's date.
let server: Server
let app: App
before(async () => {
  const started = await startFakeGateways()
  server = started.server
  app = await build(undefined, started.env, { clock: new ManualClock(FIXED_NOW) })
})
after(async () => {
  await app.close()
  await stopFakeGateways(server)
})

async function paidByKhalti(days: number) {
  reset('Completed')
  const w = await world(app)
  const booked = await book(app, w.customer, fixedSlot(w.court.id, days))
  assert.equal(booked.statusCode, 201, booked.body)
  const id = booked.json().data.id as number
  const init = await app.inject({
    method: 'POST',
    url: '/api/payments/initiate',
    headers: w.customer.headers,
    payload: { booking_id: id, method: 'gateway_2' },
  })
  assert.equal(init.statusCode, 201, init.body)
  const payment = await app.ctx.db
    .selectFrom('payments')
    .select(['id', 'reference'])
    .where('id', '=', init.json().data.payment.id)
    .executeTakeFirstOrThrow()
  const cb = await app.inject({
    method: 'GET',
    url: khaltiCallback({ pidx: `pidx-${payment.reference}`, purchase_order_id: payment.reference! }),
  })
  assert.equal(cb.json().data.status, 'completed', cb.body)
  return { w, paymentId: payment.id }
}

test('a partial refund to source asks Khalti for that amount of the looked-up transaction', async () => {
  const { w, paymentId } = await paidByKhalti(3)
  const res = await app.inject({
    method: 'POST',
    url: `/api/payments/${paymentId}/refund`,
    headers: w.owner.headers,
    payload: { amount: '300.00', to: 'source' },
  })
  assert.equal(res.statusCode, 200, res.body)
  assert.equal(res.json().message, 'Refund sent back through Khalti.')
  assert.ok(fake.calls.includes('POST /khalti/merchant-transaction/GFq9PFS7b2iYvL8Lir9oXe/refund/'), fake.calls.join())
  assert.deepEqual(
    fake.refunds.map((b) => JSON.parse(b)),
    [{ amount: 30000 }],
  )
  assert.equal((await ledger(app, w.customer.id)).balance, 0)
})

test('when Khalti refuses the refund, the money goes to the wallet instead', async () => {
  const { w, paymentId } = await paidByKhalti(4)
  fake.refundStatus = 400
  const res = await app.inject({
    method: 'POST',
    url: `/api/payments/${paymentId}/refund`,
    headers: w.owner.headers,
    payload: { to: 'source' },
  })
  assert.equal(res.statusCode, 200, res.body)
  assert.equal(res.json().message, 'Refund credited to the customer wallet.')
  // A full refund sends no amount.
  assert.deepEqual(
    fake.refunds.map((b) => JSON.parse(b)),
    [{}],
  )
  assert.equal((await ledger(app, w.customer.id)).balance, 150000)
})

test('when Khalti cannot answer, nothing is recorded (502): it may have refunded, so the wallet is not credited', async () => {
  const { w, paymentId } = await paidByKhalti(5)
  fake.refundStatus = 503
  const res = await app.inject({
    method: 'POST',
    url: `/api/payments/${paymentId}/refund`,
    headers: w.owner.headers,
    payload: { to: 'source' },
  })
  assert.equal(res.statusCode, 502, res.body)
  assert.equal((await ledger(app, w.customer.id)).balance, 0)
  const payment = await app.ctx.db
    .selectFrom('payments')
    .select(['status', 'refunded_amount'])
    .where('id', '=', paymentId)
    .executeTakeFirstOrThrow()
  assert.deepEqual(payment, { status: 'completed', refunded_amount: 0 })
})
