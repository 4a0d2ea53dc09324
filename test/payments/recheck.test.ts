import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { build } from '../helpers/app.ts'
import { createUser } from '../helpers/factories.ts'
import { expireLapsedHolds } from '../helpers/sweeps.ts'
import { bookingRow, insertBooking, ledger, notificationsOf, openPaymentPage, payWithoutReturning } from './helpers.ts'
import { HOUR, MINUTE, payloadOf, plus, recheckKit } from './recheck-helpers.ts'

// A gateway payment failed here (its 1-hour link ran out unpaid) that the customer then pays on the
// old link, the redirect back lost: the re-check of failed payments (payments/recheck.ts) finds it
// at the gateway (the in-service sandbox) and settles it through the same late-success path as a
// callback: the booking reinstated and confirmed, or the wallet credited when the slot was taken.

const clock = new ManualClock('2025-03-04T04:15:00Z')
let app: App
let kit: ReturnType<typeof recheckKit>
before(async () => {
  app = await build(undefined, {}, { clock })
  kit = recheckKit(app, clock, '2025-03-11')
})
after(() => app.close())

/** The booking's hold (15 min) runs out while the customer is away: the sweep cancels it. */
async function holdRunsOut(createdAt: Date, bookingId: number) {
  clock.set(plus(createdAt, 16 * MINUTE))
  assert.equal(await expireLapsedHolds(app), 1)
  assert.equal((await bookingRow(app, 'court', bookingId)).status, 'cancelled')
}

test('eSewa paid on the old link after it was failed here: the re-check 5 minutes later reinstates and confirms the booking', async () => {
  const { user, booking } = await kit.setup()
  const p = await kit.startGateway(user, booking.id, 'gateway_1')
  await holdRunsOut(p.createdAt, booking.id)
  assert.equal((await kit.reconcileAtLinkExpiry(p.createdAt)).failed, 1) // eSewa does not know it: failed
  const failedAt = clock.now()
  const failed = await kit.paymentRow(p.id)
  assert.equal(failed.status, 'failed')
  assert.equal(failed.gateway_verdict, 'not_found')

  await payWithoutReturning(app, p.url)
  assert.equal((await kit.recheckAt(plus(failedAt, 5 * MINUTE - 1000))).checked, 0)
  assert.deepEqual(await kit.recheckAt(plus(failedAt, 5 * MINUTE)), { checked: 1, completed: 1 })

  const row = await kit.paymentRow(p.id)
  assert.equal(row.status, 'completed')
  assert.equal(payloadOf(row).via, 'recheck')
  const b = await bookingRow(app, 'court', booking.id)
  assert.equal(b.status, 'confirmed')
  assert.equal(b.paid_amount, 120000)
  assert.deepEqual(
    (await notificationsOf(app, user.id)).map((n) => n.type),
    ['BookingCancelled', 'BookingConfirmed'],
  )
  const l = await ledger(app, user.id)
  assert.equal(l.balance, 0)
  // A completed payment is never asked about again.
  assert.equal((await kit.recheckAt(plus(failedAt, 2 * HOUR))).checked, 0)
})

test('Fonepay paid after it was failed here, the slot meanwhile booked by someone else: the re-check credits the wallet', async () => {
  const { venue, court, user, booking, date } = await kit.setup()
  const p = await kit.startGateway(user, booking.id, 'gateway_3')
  await openPaymentPage(app, p.url) // at Fonepay, not paid: "pending"
  await holdRunsOut(p.createdAt, booking.id)
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
  assert.equal((await kit.reconcileAtLinkExpiry(p.createdAt)).failed, 1)
  const failedAt = clock.now()
  assert.equal((await kit.paymentRow(p.id)).gateway_verdict, 'pending')

  // Paid without Fonepay's sandbox discount, so the customer paid exactly the amount asked.
  const url = new URL(p.url)
  url.searchParams.set('discount', '0')
  await payWithoutReturning(app, url.toString())
  assert.deepEqual(await kit.recheckAt(plus(failedAt, 5 * MINUTE)), { checked: 1, completed: 1 })

  assert.equal((await kit.paymentRow(p.id)).status, 'refunded')
  assert.equal((await bookingRow(app, 'court', booking.id)).status, 'cancelled')
  const l = await ledger(app, user.id)
  assert.equal(l.balance, 120000)
  assert.equal(l.sum, 120000)
  const late = (await notificationsOf(app, user.id)).find((n) => n.data.late_payment)
  assert.ok(late, 'the customer is told where the money went')
  assert.match(String(late.data.message), /booked by someone else/)
})

test('a failed top-up paid later is completed by the payments.recheck job', async () => {
  const user = await createUser(app)
  const t = await kit.startTopup(user, 'gateway_1', '500.00')
  assert.equal((await kit.reconcileAtLinkExpiry(new Date((await kit.paymentRow(t.id)).created_at))).failed, 1)
  const failedAt = clock.now()
  await payWithoutReturning(app, t.url)

  // Not yet due: the job leaves it.
  clock.set(plus(failedAt, 4 * MINUTE))
  await app.ctx.jobs.runDue(clock.now())
  assert.equal((await kit.paymentRow(t.id)).status, 'failed')
  clock.set(plus(failedAt, 5 * MINUTE))
  await app.ctx.jobs.runDue(clock.now())
  assert.equal((await kit.paymentRow(t.id)).status, 'completed')
  const tx = await app.ctx.db
    .selectFrom('wallet_transactions')
    .select('status')
    .where('id', '=', t.transactionId)
    .executeTakeFirstOrThrow()
  assert.equal(tx.status, 'completed')
  const l = await ledger(app, user.id)
  assert.equal(l.balance, 50000)
  assert.equal(l.sum, 50000)
})
