import type { AppContext } from '../../lib/context.ts'
import { expireDueHolds, sendReminders } from '../booking-core/index.ts'
import { checkBookingAtGateway, type Gateways } from '../payments/index.ts'
import { runSeriesPaymentSweeps } from './series-payments.ts'

// The court bookings' sweeps, run through the shared job queue so that with several instances each
// period's run happens once (indoor bookings register theirs in indoor-bookings/jobs.ts). Both are
// safe to run concurrently with themselves: rows are claimed with row locks / conditional updates.

export const HOLD_SWEEP_MS = 30_000
export const REMINDER_SWEEP_MS = 30_000
export const SERIES_PAYMENT_SWEEP_MS = 30_000

export function registerBookingJobs(ctx: AppContext, gateways: Gateways) {
  ctx.jobs.every('bookings.expire-holds', HOLD_SWEEP_MS, async () => {
    await expireUnpaidHolds(ctx, gateways)
  })
  ctx.jobs.every('bookings.reminders', REMINDER_SWEEP_MS, async () => {
    await sendReminders(ctx, 'court')
  })
  // Customers' series: the payment reminder a day before each later week's deadline, then its release.
  ctx.jobs.every('bookings.series-payments', SERIES_PAYMENT_SWEEP_MS, async () => {
    await runSeriesPaymentSweeps(ctx)
  })
}

/**
 * Pending court bookings whose payment hold ran out are expired ("Payment not received": coupon
 * released, BookingCancelled, the slot offered to the waitlist), each in its own transaction; one
 * that fails is retried later with back-off and the rest go on. Before a booking is expired its
 * initiated gateway payments are asked about, so a customer who paid but whose callback was lost is
 * confirmed instead. Returns how many were expired.
 */
export function expireUnpaidHolds(ctx: AppContext, gateways: Gateways): Promise<number> {
  return expireDueHolds(ctx, 'court', {
    beforeExpire: (id) => checkBookingAtGateway(ctx, gateways, 'court', id, ctx.clock.now()),
  })
}
