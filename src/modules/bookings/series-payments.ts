import type { AppContext } from '../../lib/context.ts'
import { type SweepRow, sweepStep } from '../../lib/sweeps.ts'
import { toHHmm } from '../../lib/time.ts'
import { lockBooking, transition } from '../booking-core/index.ts'
import { notify } from '../notifications/index.ts'
import {
  claimPayReminder,
  unpaidLaterWeeks,
  unremindedLaterWeeks,
  type WeekSpan,
  weekStart,
} from './repository/series-payments.ts'

// Paying a customer's series week by week (docs/bookings.md, "Unpaid bookings and series"): every
// week after the first must be paid SERIES_PAY_BEFORE_HOURS (default 48) before it starts. A day
// before that deadline the customer is told once (SeriesPaymentDue); at the deadline an unpaid week
// is released: cancelled through booking-core's transition (refund of anything paid, coupon,
// BookingCancelled, and the freed slot offered to the waitlist). Staff-made series are exempt.
// Both sweeps work row by row (lib/sweeps.ts) and are safe to run twice or on two instances at once:
// a release locks the booking and re-checks it, a reminder is claimed by a conditional UPDATE.

export const SERIES_RELEASE_SWEEP = 'bookings.series-release'
export const SERIES_PAY_REMINDER_SWEEP = 'bookings.series-pay-reminders'
/** The payment reminder goes out this long before the deadline. */
export const PAY_REMINDER_LEAD_HOURS = 24
const BATCH = 200
const HOUR_MS = 3_600_000
/** The wall-clock windows are this much wider than the instants they stand for (a daylight-saving change). */
const SLACK_HOURS = 3

/** The cancel_reason of a released week. */
export function seriesReleasedReason(hours: number): string {
  return `Not paid ${hours} hours before the start: this week of the series was released.`
}

/** The instant by which a later week of a customer's series starting at `date` `start_time` must be paid. */
export function payBy(ctx: AppContext, date: string, startTime: string): Date {
  return new Date(ctx.zone.instant(date, startTime).getTime() - ctx.config.unpaid.seriesPayBeforeHours * HOUR_MS)
}

/** Weeks that start after now and at most `hours` (plus the slack) from now, on the wall clock. */
function startingWithin(ctx: AppContext, now: Date, hours: number): WeekSpan {
  return {
    from: ctx.zone.format(now),
    until: ctx.zone.format(new Date(now.getTime() + (hours + SLACK_HOURS) * HOUR_MS)),
  }
}

/** Runs `step` for every row `next` reads, batch by batch; how many steps returned true. */
async function eachRow(
  ctx: AppContext,
  sweep: string,
  next: (afterId: number) => Promise<SweepRow[]>,
  step: (id: number) => Promise<boolean>,
): Promise<number> {
  let done = 0
  let afterId = 0
  for (;;) {
    const rows = await next(afterId)
    for (const row of rows) if (await sweepStep(ctx, sweep, row, () => step(row.id))) done++
    if (rows.length < BATCH) return done
    afterId = rows[rows.length - 1].id
  }
}

/**
 * Releases every later week of a customer's series still unpaid at its deadline, each in its own
 * transaction; returns how many were released.
 */
export function releaseUnpaidSeriesWeeks(ctx: AppContext, now = ctx.clock.now()): Promise<number> {
  const span = startingWithin(ctx, now, ctx.config.unpaid.seriesPayBeforeHours)
  return eachRow(
    ctx,
    SERIES_RELEASE_SWEEP,
    (afterId) => unpaidLaterWeeks(ctx.db, SERIES_RELEASE_SWEEP, span, afterId, BATCH),
    (id) => releaseWeek(ctx, id, now),
  )
}

/** One week: locked, checked again (still pending, deadline passed, not started), then cancelled. */
function releaseWeek(ctx: AppContext, id: number, now: Date): Promise<boolean> {
  return ctx.db.transaction().execute(async (trx) => {
    const booking = await lockBooking(trx, 'court', id)
    if (booking?.status !== 'pending') return false
    if (payBy(ctx, booking.date, booking.start_time) > now) return false
    // A week that has started is the hold sweep's (its hold runs until the start).
    if (ctx.zone.instant(booking.date, booking.start_time) <= now) return false
    await transition(ctx, trx, booking, 'cancel', {
      reason: seriesReleasedReason(ctx.config.unpaid.seriesPayBeforeHours),
      by: 'system',
    })
    return true
  })
}

/**
 * SeriesPaymentDue, once per week, PAY_REMINDER_LEAD_HOURS before its deadline (from then until the
 * deadline, for a week made inside that window); returns how many were sent.
 */
export function remindUnpaidSeriesWeeks(ctx: AppContext, now = ctx.clock.now()): Promise<number> {
  const span = startingWithin(ctx, now, ctx.config.unpaid.seriesPayBeforeHours + PAY_REMINDER_LEAD_HOURS)
  return eachRow(
    ctx,
    SERIES_PAY_REMINDER_SWEEP,
    (afterId) => unremindedLaterWeeks(ctx.db, SERIES_PAY_REMINDER_SWEEP, span, afterId, BATCH),
    (id) => remindWeek(ctx, id, now),
  )
}

async function remindWeek(ctx: AppContext, id: number, now: Date): Promise<boolean> {
  const week = await weekStart(ctx.db, id)
  if (!week) return false
  const deadline = payBy(ctx, week.date, week.start_time)
  if (now >= deadline || now.getTime() < deadline.getTime() - PAY_REMINDER_LEAD_HOURS * HOUR_MS) return false
  return ctx.db.transaction().execute(async (trx) => {
    const b = await claimPayReminder(trx, id, now)
    if (!b || b.user_id === null) return false
    const at = toHHmm(b.start_time)
    const by = ctx.zone.format(deadline).slice(0, 16)
    await notify(
      ctx,
      b.user_id,
      'SeriesPaymentDue',
      {
        message:
          `Your booking ${b.booking_number} on ${b.date} at ${at} (a weekly series) is not paid yet. ` +
          `Pay for it by ${by} or it will be released.`,
        booking_id: b.id,
        booking_type: 'court',
        booking_number: b.booking_number,
        venue_id: b.venue_id,
        series_id: b.series_id,
        date: b.date,
        start_time: at,
        pay_by: by,
      },
      trx,
    )
    return true
  })
}

/** Both series sweeps, as the job runs them: reminders first, then releases. */
export async function runSeriesPaymentSweeps(ctx: AppContext, now = ctx.clock.now()) {
  const reminded = await remindUnpaidSeriesWeeks(ctx, now)
  const released = await releaseUnpaidSeriesWeeks(ctx, now)
  return { reminded, released }
}
