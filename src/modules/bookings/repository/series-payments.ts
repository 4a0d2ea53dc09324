import { sql } from 'kysely'
import type { Executor } from '../../../lib/db.ts'
import { dueRows, type SweepRow } from '../../../lib/sweeps.ts'

// The rows of the series payment sweeps (series-payments.ts): pending later weeks of customers'
// series, by the venue wall clock. The exact deadline (an instant, daylight saving included) is
// checked per row by the service; these windows only have to contain every due row.

/** A venue-local wall-clock span, "YYYY-MM-DD HH:mm:ss": the week starts after `from` and by `until`. */
export interface WeekSpan {
  from: string
  until: string
}

/**
 * SQL: booking `b` is a pending week of a series a customer made (not its first week) that starts
 * inside `span`.
 */
function unpaidLaterWeek(span: WeekSpan) {
  const { from, until } = span
  return sql<boolean>`b.series_id IS NOT NULL AND b.status = 'pending'
    AND b.date BETWEEN ${from.slice(0, 10)}::date AND ${until.slice(0, 10)}::date
    AND (b.date + b.start_time) > ${from}::timestamp AND (b.date + b.start_time) <= ${until}::timestamp
    AND EXISTS (SELECT 1 FROM booking_series s
      WHERE s.id = b.series_id AND s.type = 'online' AND s.user_id IS NOT NULL AND b.date > s.start_date)`
}

/** Unpaid later weeks starting inside `span`, after id `afterId`, leaving out those in back-off. */
export function unpaidLaterWeeks(
  db: Executor,
  sweep: string,
  span: WeekSpan,
  afterId: number,
  limit: number,
): Promise<SweepRow[]> {
  return dueRows(db, sweep, 'bookings', unpaidLaterWeek(span), afterId, limit)
}

/** The same, not yet told that payment is due. */
export function unremindedLaterWeeks(
  db: Executor,
  sweep: string,
  span: WeekSpan,
  afterId: number,
  limit: number,
): Promise<SweepRow[]> {
  return dueRows(
    db,
    sweep,
    'bookings',
    sql<boolean>`${unpaidLaterWeek(span)} AND b.pay_reminder_sent_at IS NULL`,
    afterId,
    limit,
  )
}

/** A week's start on the wall clock, to compute its deadline. */
export async function weekStart(db: Executor, id: number) {
  return db.selectFrom('bookings').select(['date', 'start_time']).where('id', '=', id).executeTakeFirst()
}

/**
 * Claims a week's payment reminder: marks it sent if it is still pending and was not told yet
 * (a second run, even on another instance, finds nothing to claim). The booking, or undefined.
 */
export async function claimPayReminder(trx: Executor, id: number, now: Date) {
  return trx
    .updateTable('bookings')
    .set({ pay_reminder_sent_at: now })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where('pay_reminder_sent_at', 'is', null)
    .returning(['id', 'user_id', 'booking_number', 'venue_id', 'series_id', 'date', 'start_time'])
    .executeTakeFirst()
}
