import { sql } from 'kysely'
import type { AppContext } from '../../lib/context.ts'
import { formatDateTime, toHHmm } from '../../lib/time.ts'
import { notify } from '../notifications/service.ts'
import { checkGatewaysBeforeHoldExpiry } from '../payments/reconcile.ts'
import { EXPIRY_BATCH, expireHolds } from './operations.ts'
import { type BookingKind, bookingTable } from './payable.ts'

// Scheduled work of bookings (court and indoor alike), run through the shared job queue so that
// with several instances each period's run happens once. Both functions are also safe to run
// concurrently with themselves: rows are claimed with row locks / conditional updates.

export const HOLD_SWEEP_MS = 30_000
export const REMINDER_SWEEP_MS = 30_000
/**
 * "The day before": a reminder goes out once a booking's start is at most 25 hours ahead, so with
 * the sweep every 30 s it arrives between 25 and 24 hours before the start (later only for a
 * booking made or confirmed inside that window).
 */
export const REMINDER_LEAD_HOURS = 25

export function registerBookingJobs(ctx: AppContext) {
  ctx.jobs.every('bookings.expire-holds', HOLD_SWEEP_MS, async () => {
    await expireUnpaidHolds(ctx)
  })
  ctx.jobs.every('bookings.reminders', REMINDER_SWEEP_MS, async () => {
    await sendBookingReminders(ctx)
  })
}

/**
 * Pending bookings of both kinds whose payment hold ran out become cancelled ("Payment not
 * received"): coupon usage released, BookingCancelled sent. Returns how many were cancelled.
 */
export async function expireUnpaidHolds(ctx: AppContext): Promise<number> {
  // A customer who paid but whose callback was lost is confirmed here instead of cancelled.
  await checkGatewaysBeforeHoldExpiry(ctx)
  let total = 0
  for (const kind of ['court', 'indoor'] as const) {
    for (;;) {
      const n = await ctx.db.transaction().execute((trx) => expireHolds(ctx, trx, kind))
      total += n
      if (n < EXPIRY_BATCH) break
    }
  }
  return total
}

/**
 * BookingReminder, once per booking, for confirmed bookings (and pending cash ones, paid at the
 * venue) starting within the next REMINDER_LEAD_HOURS. The UPDATE … WHERE reminder_sent_at IS NULL
 * … RETURNING claims each booking: a second run, even a concurrent one on another instance, finds
 * nothing left to claim. The notification is written in the same transaction as the claim.
 */
export async function sendBookingReminders(ctx: AppContext, now = new Date()): Promise<number> {
  let sent = 0
  for (const kind of ['court', 'indoor'] as const) {
    sent += await remindKind(ctx, kind, now)
  }
  return sent
}

async function remindKind(ctx: AppContext, kind: BookingKind, now: Date): Promise<number> {
  const from = formatDateTime(now)!
  const until = formatDateTime(new Date(now.getTime() + REMINDER_LEAD_HOURS * 3_600_000))!
  const table = sql.table(bookingTable(kind))
  return ctx.db.transaction().execute(async (trx) => {
    const claimed = await sql<{
      id: number
      user_id: number
      booking_number: string
      venue_id: number
      date: string
      start_time: string
    }>`
      UPDATE ${table} SET reminder_sent_at = now()
      WHERE id IN (
        SELECT id FROM ${table}
        WHERE reminder_sent_at IS NULL AND user_id IS NOT NULL AND status IN ('confirmed', 'pending')
          AND (status = 'confirmed' OR payment_method = 'cash')
          AND date BETWEEN ${from.slice(0, 10)}::date AND ${until.slice(0, 10)}::date
          AND (date + start_time) > ${from}::timestamp AND (date + start_time) <= ${until}::timestamp
        ORDER BY id
        FOR UPDATE SKIP LOCKED
      ) AND reminder_sent_at IS NULL
      RETURNING id, user_id, booking_number, venue_id, date::text AS date, start_time::text AS start_time`.execute(trx)
    if (claimed.rows.length === 0) return 0
    const venues = await trx
      .selectFrom('venues')
      .select(['id', 'name'])
      .where('id', 'in', [...new Set(claimed.rows.map((r) => r.venue_id))])
      .execute()
    const venueName = new Map(venues.map((v) => [v.id, v.name]))
    for (const b of claimed.rows) {
      const at = toHHmm(b.start_time)
      await notify(
        ctx,
        b.user_id,
        'BookingReminder',
        {
          message: `Reminder: your booking ${b.booking_number} at ${venueName.get(b.venue_id) ?? 'the venue'} is on ${b.date} at ${at}.`,
          booking_id: b.id,
          booking_type: kind,
          booking_number: b.booking_number,
          venue_id: b.venue_id,
          date: b.date,
          start_time: at,
        },
        trx,
      )
    }
    return claimed.rows.length
  })
}
