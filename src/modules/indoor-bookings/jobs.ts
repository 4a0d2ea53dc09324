import type { AppContext } from '../../lib/context.ts'
import { expireDueHolds, sendReminders } from '../booking-core/index.ts'
import { checkBookingAtGateway, type Gateways } from '../payments/index.ts'

// The indoor bookings' sweeps (as the court bookings' in bookings/jobs.ts): lapsed payment holds
// and the day-before reminders, through the shared job queue.

export const HOLD_SWEEP_MS = 30_000
export const REMINDER_SWEEP_MS = 30_000

export function registerIndoorBookingJobs(ctx: AppContext, gateways: Gateways) {
  ctx.jobs.every('indoor-bookings.expire-holds', HOLD_SWEEP_MS, async () => {
    await expireUnpaidIndoorHolds(ctx, gateways)
  })
  ctx.jobs.every('indoor-bookings.reminders', REMINDER_SWEEP_MS, async () => {
    await sendReminders(ctx, 'indoor')
  })
}

/** Pending indoor bookings whose payment hold ran out are expired, after asking the gateway (as for courts). */
export function expireUnpaidIndoorHolds(ctx: AppContext, gateways: Gateways): Promise<number> {
  return expireDueHolds(ctx, 'indoor', {
    beforeExpire: (id) => checkBookingAtGateway(ctx, gateways, 'indoor', id, ctx.clock.now()),
  })
}
