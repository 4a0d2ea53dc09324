import type { AppContext } from '../../lib/context.ts'
import type { Executor } from '../../lib/db.ts'
import { sweepStep } from '../../lib/sweeps.ts'
import { toHHmm } from '../../lib/time.ts'
import { notify } from '../notifications/index.ts'
import type { BookingKind } from './repository/bookings.ts'
import { claimReminder, dueReminders, type ReminderSpan } from './repository/reminders.ts'

// BookingReminder, the day before, for either booking kind; each kind's module registers its own
// sweep (bookings/jobs.ts, indoor-bookings/jobs.ts) through the shared job queue.

/**
 * "The day before": a reminder goes out once a booking's start is at most 25 hours ahead, so with
 * the sweep every 30 s it arrives between 25 and 24 hours before the start (later only for a
 * booking made or confirmed inside that window).
 */
export const REMINDER_LEAD_HOURS = 25

/** The sweep_retries name of a kind's reminders. */
export const reminderSweep = (kind: BookingKind) => `bookings.reminders.${kind}`
/** How many reminder candidates are read per query (each is then sent in its own transaction). */
const REMINDER_BATCH = 200

/**
 * BookingReminder, once per booking, for confirmed bookings (and pending cash ones, paid at the
 * venue) starting within the next REMINDER_LEAD_HOURS. Each booking is claimed and notified in its
 * own transaction: the UPDATE … WHERE reminder_sent_at IS NULL … RETURNING claims it, so a second
 * run, even a concurrent one on another instance, finds nothing left to claim; a booking whose
 * reminder fails is retried later with back-off and never holds up the others.
 */
export async function sendReminders(ctx: AppContext, kind: BookingKind, now = ctx.clock.now()): Promise<number> {
  const sweep = reminderSweep(kind)
  const span = reminderSpan(ctx, now)
  let sent = 0
  let afterId = 0
  for (;;) {
    const rows = await dueReminders(ctx.db, kind, sweep, span, afterId, REMINDER_BATCH)
    for (const row of rows) {
      const done = await sweepStep(ctx, sweep, row, () =>
        ctx.db.transaction().execute((trx) => remindOne(ctx, trx, kind, row.id, now)),
      )
      if (done) sent++
    }
    if (rows.length < REMINDER_BATCH) return sent
    afterId = rows[rows.length - 1].id
  }
}

/** The venue-local wall-clock span a reminder is due in at `now`: from now to REMINDER_LEAD_HOURS on. */
function reminderSpan(ctx: AppContext, now: Date): ReminderSpan {
  return {
    from: ctx.zone.format(now),
    until: ctx.zone.format(new Date(now.getTime() + REMINDER_LEAD_HOURS * 3_600_000)),
  }
}

/** Claims and notifies one booking's reminder; false when it was no longer due (or already claimed). */
async function remindOne(ctx: AppContext, trx: Executor, kind: BookingKind, id: number, now: Date): Promise<boolean> {
  const b = await claimReminder(trx, kind, id, reminderSpan(ctx, now))
  if (!b) return false
  const at = toHHmm(b.start_time)
  await notify(
    ctx,
    b.user_id,
    'BookingReminder',
    {
      message: `Reminder: your booking ${b.booking_number} at ${b.venue_name} is on ${b.date} at ${at}.`,
      booking_id: b.id,
      booking_type: kind,
      booking_number: b.booking_number,
      venue_id: b.venue_id,
      date: b.date,
      start_time: at,
    },
    trx,
  )
  return true
}
