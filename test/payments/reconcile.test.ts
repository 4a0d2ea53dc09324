import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { reconcilePayments } from '../../src/modules/payments/reconcile.ts'
import { build } from '../helpers/app.ts'
import { createUser, FIXED_NOW } from '../helpers/factories.ts'
import { expireLapsedHolds } from '../helpers/sweeps.ts'
import { bookingRow, ledger, notificationsOf, openPaymentPage, payWithoutReturning, simulate } from './helpers.ts'
import { GATEWAY_LIST, reconcileKit } from './reconcile-helpers.ts'

// Callbacks that never arrive: GET /api/payments/{id}, the reconciliation job and the hold sweep
// ask the gateway's status API instead (src/modules/payments/reconcile.ts).

const AFTER_SECONDS = 1

// `app` runs on a ManualClock at FIXED_NOW (Tuesday 10 March 2026, 09:00 venue time). The job's
// tests use `system`, an app on the system clock: the job picks payments by created_at, which the
// database's now() writes, and compares it with the app's clock (see the comment in each).
let app: App
let kit: ReturnType<typeof reconcileKit>
const system = {} as { app: App; kit: ReturnType<typeof reconcileKit> }
before(async () => {
  const env = { PAYMENT_RECONCILE_AFTER_SECONDS: String(AFTER_SECONDS) }
  app = await build(undefined, env, { clock: new ManualClock(FIXED_NOW) })
  kit = reconcileKit(app)
  system.app = await build(undefined, env)
  system.kit = reconcileKit(system.app)
})
after(async () => {
  await system.app.close()
  await app.close()
})

test('a lost callback is settled by GET /api/payments/{id} (all three gateways)', async () => {
  for (const method of GATEWAY_LIST) {
    const { user, booking } = await kit.setup()
    const { payment, payment_url } = await kit.startGateway(user, booking.id, method)
    await payWithoutReturning(app, payment_url)
    assert.equal((await bookingRow(app, 'court', booking.id)).status, 'pending', method)

    const res = await kit.getPayment(user, payment.id)
    assert.equal(res.statusCode, 200, res.body)
    const data = res.json().data
    assert.equal(data.status, 'completed', method)
    assert.equal(data.method, method)
    assert.equal(data.amount, '1200.00')
    assert.equal(data.booking.status, 'confirmed')
    assert.equal(data.booking.is_paid, true)
    assert.ok(data.paid_at)
    assert.equal((await bookingRow(app, 'court', booking.id)).paid_amount, 120000)
    // Asking again changes nothing.
    assert.equal((await kit.getPayment(user, payment.id)).json().data.status, 'completed')
    const confirmed = (await notificationsOf(app, user.id)).filter((n) => n.type === 'BookingConfirmed')
    assert.equal(confirmed.length, 1, method)
    const l = await kit.assertLedgerHolds(user.id)
    assert.equal(l.balance, 0)
  }
})

test('the reconciliation job settles lost top-ups once they are PAYMENT_RECONCILE_AFTER_SECONDS old', async () => {
  // System clock: "old enough" compares payments.created_at (the database's now()) with the app's clock.
  const { app, kit } = system
  const user = await createUser(app)
  const started = []
  for (const method of GATEWAY_LIST) {
    const t = await kit.startTopup(user, method, '300.00')
    await payWithoutReturning(app, t.payment_url)
    started.push(t)
  }
  // Too young: not asked about yet.
  const early = await reconcilePayments(app.ctx, app.gateways, app.ctx.clock.now())
  assert.equal(early.checked, 0)
  for (const t of started) assert.equal((await kit.paymentRow(t.paymentId)).status, 'initiated')
  assert.equal((await ledger(app, user.id)).balance, 0)

  await sleep(AFTER_SECONDS * 1000 + 200)
  // Through the job queue: proves the job is registered.
  await app.ctx.jobs.runDue()
  for (const t of started) {
    const p = await kit.paymentRow(t.paymentId)
    assert.equal(p.status, 'completed', p.method)
    assert.equal(p.reconcile_attempts, 1)
    const tx = await app.ctx.db
      .selectFrom('wallet_transactions')
      .select(['status'])
      .where('id', '=', t.transactionId)
      .executeTakeFirstOrThrow()
    assert.equal(tx.status, 'completed')
  }
  const l = await kit.assertLedgerHolds(user.id)
  assert.equal(l.balance, 90000)
  // A second pass has nothing to do.
  assert.equal((await reconcilePayments(app.ctx, app.gateways, app.ctx.clock.now())).checked, 0)
})

test('a payment pending at the gateway stays initiated, fails after the link lifetime, and a later confirmed success still counts', async () => {
  // System clock: the job's age and link lifetime count from payments.created_at (the database's now()).
  const { app, kit } = system
  const user = await createUser(app)
  const { user: bookingUser, booking } = await kit.setup()
  const topups = []
  for (const method of GATEWAY_LIST) {
    const t = await kit.startTopup(user, method, '200.00')
    await openPaymentPage(app, t.payment_url) // at the gateway, not paid
    topups.push(t)
  }
  const courtPayment = await kit.startGateway(bookingUser, booking.id, 'gateway_2')
  await sleep(AFTER_SECONDS * 1000 + 200)

  const first = await reconcilePayments(app.ctx, app.gateways, app.ctx.clock.now())
  assert.equal(first.checked, 4)
  assert.equal(first.completed + first.failed, 0)
  for (const id of [...topups.map((t) => t.paymentId), courtPayment.payment.id]) {
    const p = await kit.paymentRow(id)
    assert.equal(p.status, 'initiated')
    assert.equal(p.reconcile_attempts, 1)
    // Next check backs off: after the first wait, at least AFTER_SECONDS later.
    assert.ok(p.reconcile_at && new Date(p.reconcile_at).getTime() > app.ctx.clock.now().getTime())
  }
  assert.equal((await kit.getPayment(user, topups[0].paymentId)).json().data.status, 'initiated')
  // Not due again yet.
  assert.equal((await reconcilePayments(app.ctx, app.gateways, app.ctx.clock.now())).checked, 0)

  // Two hours later every link (1 h) has expired: the next check fails them.
  const twoHoursAgo = new Date(app.ctx.clock.now().getTime() - 2 * 3_600_000)
  await app.ctx.db
    .updateTable('payments')
    .set({ created_at: twoHoursAgo, reconcile_at: twoHoursAgo })
    .where('id', 'in', [...topups.map((t) => t.paymentId), courtPayment.payment.id])
    .execute()
  const last = await reconcilePayments(app.ctx, app.gateways, app.ctx.clock.now())
  assert.equal(last.failed, 4)
  for (const t of topups) {
    assert.equal((await kit.paymentRow(t.paymentId)).status, 'failed')
    const tx = await app.ctx.db
      .selectFrom('wallet_transactions')
      .select('status')
      .where('id', '=', t.transactionId)
      .executeTakeFirstOrThrow()
    assert.equal(tx.status, 'failed')
  }
  assert.equal((await bookingRow(app, 'court', booking.id)).status, 'pending')
  assert.equal((await kit.assertLedgerHolds(user.id)).balance, 0)

  // The customer pays after all and the gateway confirms: never dropped because we said failed.
  const cb = await app.inject({ method: 'GET', url: await simulate(app, topups[1].payment_url, 'success') })
  assert.equal(cb.statusCode, 200, cb.body)
  assert.equal(cb.json().data.status, 'completed')
  assert.equal((await kit.assertLedgerHolds(user.id)).balance, 20000)
  const again = await app.inject({ method: 'GET', url: await simulate(app, courtPayment.payment_url, 'success') })
  assert.equal(again.json().data.status, 'completed')
  assert.equal((await bookingRow(app, 'court', booking.id)).status, 'confirmed')
  // A failure callback for a failed payment changes nothing.
  const failure = await app.inject({ method: 'GET', url: await simulate(app, topups[2].payment_url, 'failure') })
  assert.equal(failure.json().data.status, 'failed')
  assert.equal((await kit.assertLedgerHolds(user.id)).balance, 20000)
})

test('the hold sweep asks the gateway first: a lost-but-paid booking is confirmed, not cancelled', async () => {
  const court = await kit.setup()
  const indoor = await kit.setup({ indoor: true })
  const unpaid = await kit.setup()
  const a = await kit.startGateway(court.user, court.booking.id, 'gateway_3')
  const b = await kit.startGateway(indoor.user, indoor.booking.id, 'gateway_1', 'indoor')
  await kit.startGateway(unpaid.user, unpaid.booking.id, 'gateway_2')
  await payWithoutReturning(app, a.payment_url)
  await payWithoutReturning(app, b.payment_url)
  await kit.expireHold('court', court.booking.id)
  await kit.expireHold('indoor', indoor.booking.id)
  await kit.expireHold('court', unpaid.booking.id)

  assert.equal(await expireLapsedHolds(app), 1) // only the one nobody paid
  assert.equal((await bookingRow(app, 'court', court.booking.id)).status, 'confirmed')
  assert.equal((await bookingRow(app, 'indoor', indoor.booking.id)).status, 'confirmed')
  assert.equal((await bookingRow(app, 'court', unpaid.booking.id)).status, 'cancelled')
  assert.equal((await kit.paymentRow(a.payment.id)).status, 'completed')
  assert.deepEqual(
    (await notificationsOf(app, court.user.id)).map((n) => n.type),
    ['BookingConfirmed'],
  )
  assert.deepEqual(
    (await notificationsOf(app, indoor.user.id)).map((n) => n.type),
    ['IndoorGameBookingConfirmed'],
  )
  for (const u of [court.user, indoor.user, unpaid.user]) assert.equal((await kit.assertLedgerHolds(u.id)).balance, 0)
})
