import assert from 'node:assert/strict'
import type { App } from '../../src/app.ts'
import type { ManualClock } from '../../src/lib/clock.ts'
import { recheckFailedPayments } from '../../src/modules/payments/recheck.ts'
import { reconcilePayments } from '../../src/modules/payments/reconcile.ts'
import { createCourt, createUser, createVenue, type TestUser } from '../helpers/factories.ts'
import { insertBooking } from './helpers.ts'

// Shared steps of the re-check tests (recheck*.test.ts, mismatched.test.ts). Everything runs on the
// app's ManualClock: a payment's created_at (the database's now() at insert) is set to the clock's
// time right after it is made, so link lifetimes and the re-check window count from the clock.

export const MINUTE = 60_000
export const HOUR = 60 * MINUTE

/** `date` (YYYY-MM-DD) plus `days`. */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`)
  d.setUTCDate(d.getUTCDate() + days)
  return d.toISOString().slice(0, 10)
}

export function recheckKit(app: App, clock: ManualClock, firstDate: string) {
  let day = 0

  /** A venue, a court, a customer and a pending unpaid booking (1200.00) a week or more ahead. */
  async function setup() {
    const owner = await createUser(app, { roles: ['venue_owner'] })
    const venue = await createVenue(app, owner.id)
    const court = await createCourt(app, venue.id)
    const user = await createUser(app)
    const date = addDays(firstDate, day++)
    const booking = await insertBooking(app, {
      userId: user.id,
      venueId: venue.id,
      courtId: court.id,
      total: 120000,
      date,
    })
    return { venue, court, user, booking, date }
  }

  /** Starts a gateway payment of the booking; created_at is the clock's now. */
  async function startGateway(user: TestUser, bookingId: number, method: string) {
    const res = await app.inject({
      method: 'POST',
      url: '/api/payments/initiate',
      headers: user.headers,
      payload: { booking_id: bookingId, method, booking_type: 'court' },
    })
    assert.equal(res.statusCode, 201, res.body)
    const data = res.json().data as { payment: { id: number }; payment_url: string }
    await stampCreated(data.payment.id)
    return { id: data.payment.id, url: data.payment_url, createdAt: clock.now() }
  }

  /** A wallet top-up through a gateway; created_at is the clock's now. */
  async function startTopup(user: TestUser, method: string, amount: string) {
    const res = await app.inject({
      method: 'POST',
      url: '/api/wallet/topup',
      headers: user.headers,
      payload: { amount, method },
    })
    assert.equal(res.statusCode, 201, res.body)
    const payment = await app.ctx.db
      .selectFrom('payments')
      .select('id')
      .where('payable_type', '=', 'topup')
      .where('payable_id', '=', res.json().data.id)
      .executeTakeFirstOrThrow()
    await stampCreated(payment.id)
    return { id: payment.id, url: res.json().payment_url as string, transactionId: res.json().data.id as number }
  }

  async function stampCreated(paymentId: number) {
    await app.ctx.db.updateTable('payments').set({ created_at: clock.now() }).where('id', '=', paymentId).execute()
  }

  const paymentRow = (id: number) =>
    app.ctx.db.selectFrom('payments').selectAll().where('id', '=', id).executeTakeFirstOrThrow()

  /** The reconciliation job at the moment the link (1 h) of a payment created at `createdAt` expires. */
  async function reconcileAtLinkExpiry(createdAt: Date) {
    clock.set(new Date(createdAt.getTime() + HOUR))
    return reconcilePayments(app.ctx, app.gateways, clock.now())
  }

  /** One re-check pass at `at`. */
  async function recheckAt(at: Date) {
    clock.set(at)
    return recheckFailedPayments(app.ctx, app.gateways, at)
  }

  return { setup, startGateway, startTopup, paymentRow, reconcileAtLinkExpiry, recheckAt }
}

export const plus = (from: Date, ms: number) => new Date(from.getTime() + ms)

export function payloadOf(row: { gateway_payload: unknown }) {
  return (typeof row.gateway_payload === 'string' ? JSON.parse(row.gateway_payload) : row.gateway_payload) as Record<
    string,
    unknown
  >
}
