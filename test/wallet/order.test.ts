import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { book, fixedSlot, world } from '../bookings/helpers.ts'
import { build } from '../helpers/app.ts'
import { FIXED_NOW } from '../helpers/factories.ts'
import { simulate } from '../payments/helpers.ts'

// The wallet's history is in the order its balance moved: a top-up started before a payment but
// confirmed after it is listed above the payment, with its completion time, and every row's
// balance_after follows from the one below it.

// The app runs on a ManualClock at FIXED_NOW (Tuesday 10 March 2026, 09:00 venue time); booking
// dates count from that day, never from the machine's date.
let app: App
before(async () => {
  app = await build(undefined, {}, { clock: new ManualClock(FIXED_NOW) })
})
after(() => app.close())

test('a top-up completed after a later payment is listed after it, balances in order', async () => {
  const w = await world(app, { wallet: 200000 })
  const topup = await app.inject({
    method: 'POST',
    url: '/api/wallet/topup',
    headers: w.customer.headers,
    payload: { amount: '500.00', method: 'gateway_2' },
  })
  assert.equal(topup.statusCode, 201, topup.body)
  assert.equal(topup.json().data.status, 'pending')
  assert.equal(topup.json().data.completed_at, null)
  // A payment from the wallet while the top-up is still pending.
  const booked = await book(app, w.customer, fixedSlot(w.court.id, 3))
  const paid = await app.inject({
    method: 'POST',
    url: '/api/payments/initiate',
    headers: w.customer.headers,
    payload: { booking_id: booked.json().data.id, method: 'wallet' },
  })
  assert.equal(paid.statusCode, 200, paid.body)
  const cb = await app.inject({ method: 'GET', url: await simulate(app, topup.json().payment_url, 'success') })
  assert.equal(cb.statusCode, 200, cb.body)

  const list = (await app.inject({ method: 'GET', url: '/api/wallet', headers: w.customer.headers })).json()
  const rows = list.transactions.data as Array<{
    type: string
    amount: string
    balance_after: string
    completed_at: string
  }>
  assert.deepEqual(
    rows.map((r) => [r.type, r.amount, r.balance_after]),
    [
      ['topup', '500.00', '1000.00'],
      ['debit', '1500.00', '500.00'],
      ['topup', '2000.00', '2000.00'],
    ],
  )
  assert.ok(rows.every((r) => r.completed_at !== null))
  assert.ok(rows[0].completed_at >= rows[1].completed_at)
  assert.equal(list.balance, '1000.00')
})
