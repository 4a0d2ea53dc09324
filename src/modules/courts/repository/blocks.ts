import { sql } from 'kysely'
import type { Executor } from '../../../lib/db.ts'
import { bookedResourceLock } from '../../booking-core/index.ts'

// What a new maintenance block checks (courts/service/blocks.ts): the court's live bookings
// under the block's range, read under the court's advisory lock (the lock every booking INSERT of
// the court takes), so no booking slips in between the check and the block.

/** Takes the court's booking lock for the rest of the transaction. */
export async function lockCourtBookings(trx: Executor, courtId: number): Promise<void> {
  await sql`SELECT ${bookedResourceLock('BK', courtId)}`.execute(trx)
}

/** The court's live bookings (pending with a running hold, confirmed, playing) overlapping [start, end) on `date`. */
export function liveBookingsUnder(
  db: Executor,
  q: { courtId: number; date: string; start: string; end: string; now: Date },
) {
  return db
    .selectFrom('bookings')
    .select(['id', 'booking_number', 'status', 'start_time', 'end_time'])
    .where('court_id', '=', q.courtId)
    .where('date', '=', q.date)
    .where('start_time', '<', q.end)
    .where('end_time', '>', q.start)
    .where((eb) =>
      eb.or([
        eb('status', 'in', ['confirmed', 'playing']),
        eb.and([
          eb('status', '=', 'pending'),
          eb.or([eb('hold_expires_at', 'is', null), eb('hold_expires_at', '>', q.now)]),
        ]),
      ]),
    )
    .orderBy('start_time')
    .orderBy('id')
    .execute()
}
