import { sql } from 'kysely'
import type { Executor } from '../../../lib/db.ts'
import { dueRows, type SweepRow } from '../../../lib/sweeps.ts'
import { type BookingKind, bookingTable } from './bookings.ts'

// The reminder sweep's rows, for both booking kinds (sweeps.ts).

/** The venue-local wall-clock span ("YYYY-MM-DD HH:mm:ss") a booking's start must fall in for a reminder. */
export interface ReminderSpan {
  from: string
  until: string
}

/** SQL: booking `b` is due a reminder in `span` (the same test for the candidates and the claim). */
function reminderWindow(span: ReminderSpan) {
  const { from, until } = span
  return sql<boolean>`b.reminder_sent_at IS NULL AND b.user_id IS NOT NULL AND b.status IN ('confirmed', 'pending')
    AND (b.status = 'confirmed' OR b.payment_method = 'cash')
    AND b.date BETWEEN ${from.slice(0, 10)}::date AND ${until.slice(0, 10)}::date
    AND (b.date + b.start_time) > ${from}::timestamp AND (b.date + b.start_time) <= ${until}::timestamp`
}

/** Bookings of a kind (either table) due a reminder, after id `afterId`, leaving out those in back-off. */
export async function dueReminders(
  db: Executor,
  kind: BookingKind,
  sweep: string,
  span: ReminderSpan,
  afterId: number,
  limit: number,
): Promise<SweepRow[]> {
  return dueRows(db, sweep, bookingTable(kind), reminderWindow(span), afterId, limit)
}

/**
 * Claims one booking's reminder (reminder_sent_at, a bookkeeping column, takes the database's now())
 * if it is still due; the booking and its venue's name, or undefined.
 */
export async function claimReminder(trx: Executor, kind: BookingKind, id: number, span: ReminderSpan) {
  const claimed = await sql<{
    id: number
    user_id: number
    booking_number: string
    venue_id: number
    venue_name: string
    date: string
    start_time: string
  }>`
    UPDATE ${sql.table(bookingTable(kind))} AS b SET reminder_sent_at = now()
    FROM venues v
    WHERE b.id = ${id} AND v.id = b.venue_id AND ${reminderWindow(span)}
    RETURNING b.id, b.user_id, b.booking_number, b.venue_id, v.name AS venue_name,
      b.date::text AS date, b.start_time::text AS start_time`.execute(trx)
  return claimed.rows[0]
}
