import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { reconcilePayments } from '../../src/modules/payments/reconcile.ts'
import { build } from '../helpers/app.ts'
import { createUser, FIXED_NOW } from '../helpers/factories.ts'
import { expireLapsedHolds } from '../helpers/sweeps.ts'
import {
  bookingRow,
  insertBooking,
  notificationsOf,
  openPaymentPage,
  payWithoutReturning,
  simulate,
} from './helpers.ts'
import { reconcileKit } from './reconcile-helpers.ts'

// A gateway success confirmed after the hold sweep cancelled the booking: reinstated when the slot
// is free, else credited to the wallet; and callback, GET and job racing on one payment.

const AFTER_SECONDS = 1

// `app` runs on a ManualClock at FIXED_NOW (Tuesday 10 March 2026, 09:00 venue time); the race
// uses `system`, an app on the system clock, for the reconciliation job among its racers.
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

test('a success after the hold sweep cancelled the booking reinstates it when the slot is still free', async () => {
  // Once by a late callback, once by a status check of a lost one.
  for (const how of ['callback', 'status check'] as const) {
    const { user, booking } = await kit.setup()
    const { payment, payment_url } = await kit.startGateway(
      user,
      booking.id,
      how === 'callback' ? 'gateway_2' : 'gateway_1',
    )
    await openPaymentPage(app, payment_url)
    await kit.expireHold('court', booking.id)
    assert.equal(await expireLapsedHolds(app), 1) // the gateway said "not paid yet"
    assert.equal((await bookingRow(app, 'court', booking.id)).status, 'cancelled')

    if (how === 'callback') {
      const cb = await app.inject({ method: 'GET', url: await simulate(app, payment_url, 'success') })
      assert.equal(cb.statusCode, 200, cb.body)
    } else {
      await payWithoutReturning(app, payment_url)
      assert.equal((await kit.getPayment(user, payment.id)).json().data.status, 'completed')
    }
    const row = await bookingRow(app, 'court', booking.id)
    assert.equal(row.status, 'confirmed', how)
    assert.equal(row.paid_amount, 120000)
    const full = await app.ctx.db
      .selectFrom('bookings')
      .select(['cancel_reason', 'cancelled_at'])
      .where('id', '=', booking.id)
      .executeTakeFirstOrThrow()
    assert.equal(full.cancel_reason, null)
    assert.equal(full.cancelled_at, null)
    assert.equal((await kit.paymentRow(payment.id)).status, 'completed')
    assert.deepEqual(
      (await notificationsOf(app, user.id)).map((n) => n.type),
      ['BookingCancelled', 'BookingConfirmed'],
    )
    assert.equal((await kit.assertLedgerHolds(user.id)).balance, 0)
  }
})

test('a success after the slot went to someone else is credited to the wallet, with a notification', async () => {
  const { venue, court, user, booking, date } = await kit.setup()
  const { payment, payment_url } = await kit.startGateway(user, booking.id, 'gateway_3')
  await openPaymentPage(app, payment_url)
  await kit.expireHold('court', booking.id)
  assert.equal(await expireLapsedHolds(app), 1)
  const other = await createUser(app)
  await insertBooking(app, {
    userId: other.id,
    venueId: venue.id,
    courtId: court.id,
    total: 120000,
    date,
    status: 'confirmed',
    paid: 120000,
  })

  const cb = await app.inject({ method: 'GET', url: await simulate(app, payment_url, 'success') })
  assert.equal(cb.statusCode, 200, cb.body)
  assert.equal(cb.json().data.payment.status, 'refunded')
  assert.equal((await bookingRow(app, 'court', booking.id)).status, 'cancelled')
  // The sandbox's Fonepay granted its 10 % promotion: the customer paid 1,080.00 and gets that back.
  const l = await kit.assertLedgerHolds(user.id)
  assert.equal(l.balance, 108000)
  const credit = l.rows.filter((r) => r.type === 'credit')
  assert.equal(credit.length, 1)
  assert.equal(credit[0].amount, 108000)
  const notes = await notificationsOf(app, user.id)
  assert.deepEqual(
    notes.map((n) => n.type),
    ['BookingCancelled', 'BookingCancelled'],
  )
  const late = notes.find((n) => n.data.late_payment)!
  assert.match(String(late.data.message), /booked by someone else/)
  assert.match(String(late.data.message), /1080\.00 has been credited to your wallet/)
  assert.equal(late.data.refund_amount, '1080.00')
  assert.equal((await kit.getPayment(user, payment.id)).json().data.status, 'refunded')
})

test('callback, GET and job racing on one payment: one completion, one ledger row', async () => {
  // System clock: the job takes a payment once its created_at (the database's now()) is
  // PAYMENT_RECONCILE_AFTER_SECONDS behind the app's clock; on a ManualClock it would never race.
  const { app, kit } = system
  // A top-up: exactly one topup row may complete.
  const user = await createUser(app)
  const t = await kit.startTopup(user, 'gateway_2', '700.00')
  const callback = await simulate(app, t.payment_url, 'success')
  // A booking the sweep cancelled: exactly one reinstatement and one confirmation.
  const s = await kit.setup()
  const b = await kit.startGateway(s.user, s.booking.id, 'gateway_1')
  await openPaymentPage(app, b.payment_url)
  await kit.expireHold('court', s.booking.id)
  await expireLapsedHolds(app)
  const bookingCallback = await simulate(app, b.payment_url, 'success')
  await sleep(AFTER_SECONDS * 1000 + 200)

  const racers = await Promise.allSettled([
    ...[callback, bookingCallback, callback, bookingCallback].map((url) => app.inject({ method: 'GET', url })),
    kit.getPayment(user, t.paymentId),
    kit.getPayment(s.user, b.payment.id),
    kit.getPayment(user, t.paymentId),
    reconcilePayments(app.ctx, app.gateways, app.ctx.clock.now()),
    reconcilePayments(app.ctx, app.gateways, app.ctx.clock.now()),
    expireLapsedHolds(app),
  ])
  for (const r of racers) {
    assert.equal(r.status, 'fulfilled', r.status === 'rejected' ? String(r.reason) : '')
    const value = (r as PromiseFulfilledResult<unknown>).value as { statusCode?: number; body?: string }
    if (value?.statusCode !== undefined) assert.equal(value.statusCode, 200, value.body)
  }

  assert.equal((await kit.paymentRow(t.paymentId)).status, 'completed')
  const l = await kit.assertLedgerHolds(user.id)
  assert.equal(l.balance, 70000)
  assert.equal(l.rows.length, 1)
  assert.equal(l.rows[0].status, 'completed')

  assert.equal((await bookingRow(app, 'court', s.booking.id)).status, 'confirmed')
  assert.equal((await bookingRow(app, 'court', s.booking.id)).paid_amount, 120000)
  const types = (await notificationsOf(app, s.user.id)).map((n) => n.type)
  assert.deepEqual(types, ['BookingCancelled', 'BookingConfirmed'])
  const sl = await kit.assertLedgerHolds(s.user.id)
  assert.equal(sl.rows.length, 0)
})
