import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { reconcilePayments } from '../../src/modules/payments/reconcile.ts'
import { build } from '../helpers/app.ts'
import { FIXED_NOW } from '../helpers/factories.ts'
import { bookingRow, payWithoutReturning } from './helpers.ts'
import { reconcileKit } from './reconcile-helpers.ts'

// The status path (GET /api/payments/{id}, the reconciliation job) reads the drivers' outcomes:
// `failed` fails a payment at once, `not_found` / `pending` leave it initiated until its link
// lifetime, `completed` settles it with the amount checked and Fonepay's paid amount recorded.

// `app` runs on a ManualClock at FIXED_NOW (Tuesday 10 March 2026, 09:00 venue time). The job's
// tests use `system`, an app on the system clock: the job picks payments by created_at, which the
// database's now() writes, and compares it with the app's clock.
let app: App
let kit: ReturnType<typeof reconcileKit>
const system = {} as { app: App; kit: ReturnType<typeof reconcileKit> }
before(async () => {
  const env = { PAYMENT_RECONCILE_AFTER_SECONDS: '1' }
  app = await build(undefined, env, { clock: new ManualClock(FIXED_NOW) })
  kit = reconcileKit(app)
  system.app = await build(undefined, env)
  system.kit = reconcileKit(system.app)
})
after(async () => {
  await system.app.close()
  await app.close()
})

const payload = (row: { gateway_payload: unknown }) =>
  (typeof row.gateway_payload === 'string' ? JSON.parse(row.gateway_payload) : row.gateway_payload) as Record<
    string,
    unknown
  >

test('GET: a Khalti link that expired at the gateway fails the payment at once (lookup Expired → failed)', async () => {
  const { user, booking } = await kit.setup()
  const { payment, payment_url } = await kit.startGateway(user, booking.id, 'gateway_2')
  const url = new URL(payment_url)
  url.searchParams.set('simulate', 'expire')
  assert.equal((await app.inject({ method: 'GET', url: url.pathname + url.search })).statusCode, 400)

  const res = await kit.getPayment(user, payment.id)
  assert.equal(res.statusCode, 200, res.body)
  assert.equal(res.json().data.status, 'failed') // long before our one-hour link lifetime
  const row = await kit.paymentRow(payment.id)
  assert.equal(payload(row).reason, 'Expired')
  assert.equal(payload(row).via, 'status')
  assert.equal((await bookingRow(app, 'court', booking.id)).status, 'pending')
})

test('GET: a payment eSewa does not know (not_found) stays initiated while its link lives', async () => {
  // System clock: the link lifetime counts from payments.created_at (the database's now()).
  const { app, kit } = system
  const { user, booking } = await kit.setup()
  const { payment } = await kit.startGateway(user, booking.id, 'gateway_1')
  const res = await kit.getPayment(user, payment.id)
  assert.equal(res.json().data.status, 'initiated')
  // The job past the link lifetime: now "not found" is final.
  const later = new Date(app.ctx.clock.now().getTime() + 3601_000)
  const outcome = await reconcilePayments(app.ctx, app.gateways, later)
  assert.ok(outcome.failed >= 1)
  assert.equal((await kit.paymentRow(payment.id)).status, 'failed')
})

test('the job: a lost Fonepay payment with a discount completes for the requested amount; P_AMT is recorded', async () => {
  // System clock: the job takes a payment once its created_at (the database's now()) is old enough.
  const { app, kit } = system
  const { user, booking } = await kit.setup()
  const { payment, payment_url } = await kit.startGateway(user, booking.id, 'gateway_3')
  await payWithoutReturning(app, payment_url) // the sandbox's default 10% discount applies
  await new Promise((r) => setTimeout(r, 1100))
  await reconcilePayments(app.ctx, app.gateways, app.ctx.clock.now())
  const row = await kit.paymentRow(payment.id)
  assert.equal(row.status, 'completed')
  assert.equal(payload(row).paid_amount, 108000)
  assert.equal(payload(row).via, 'status')
  const b = await bookingRow(app, 'court', booking.id)
  assert.equal(b.status, 'confirmed')
  assert.equal(b.paid_amount, 120000)
  assert.equal((await kit.assertLedgerHolds(user.id)).balance, 0)
})
