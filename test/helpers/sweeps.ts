import type { App } from '../../src/app.ts'
import type { ManualClock } from '../../src/lib/clock.ts'
import type { AppContext } from '../../src/lib/context.ts'
import { sendReminders } from '../../src/modules/booking-core/index.ts'
import { expireUnpaidHolds } from '../../src/modules/bookings/jobs.ts'
import { runSeriesPaymentSweeps } from '../../src/modules/bookings/series-payments.ts'
import { expireUnpaidIndoorHolds } from '../../src/modules/indoor-bookings/jobs.ts'

// The booking sweeps of both modules, run by hand as their jobs would (each module registers its
// own). `ctx` replaces the app's context (a test that reads the log lines passes its own).

/** Court and indoor lapsed holds, expired after asking the gateways; how many were expired. */
export async function expireLapsedHolds(app: App, ctx: AppContext = app.ctx): Promise<number> {
  return (await expireUnpaidHolds(ctx, app.gateways)) + (await expireUnpaidIndoorHolds(ctx, app.gateways))
}

/** Court and indoor day-before reminders due now by the context's clock; how many were sent. */
export async function sendDueReminders(app: App, ctx: AppContext = app.ctx): Promise<number> {
  const now = ctx.clock.now()
  return (await sendReminders(ctx, 'court', now)) + (await sendReminders(ctx, 'indoor', now))
}

/** Customers' series: payment reminders a day before each later week's deadline, then releases of unpaid weeks. */
export function runSeriesPayments(
  app: App,
  ctx: AppContext = app.ctx,
): Promise<{ reminded: number; released: number }> {
  return runSeriesPaymentSweeps(ctx, ctx.clock.now())
}

/** Moves the app's ManualClock past every hold taken so far (BOOKING_HOLD_MINUTES and a minute); no sweep runs. */
export function letHoldsRunOut(app: App, clock: ManualClock): void {
  clock.advance((app.ctx.config.bookingHoldMinutes + 1) * 60_000)
}
