import type { Executor } from '../../../lib/db.ts'
import { type BookingKind, bookingTable } from './bookings.ts'

// Who a booking of either kind belongs to and where it is: what access checks read before anything else.

export interface BookingParties {
  id: number
  user_id: number | null
  venue_id: number
}

/** The booking's customer and venue; undefined when the id does not exist. */
export async function bookingParties(db: Executor, kind: BookingKind, id: number): Promise<BookingParties | undefined> {
  return db.selectFrom(bookingTable(kind)).select(['id', 'user_id', 'venue_id']).where('id', '=', id).executeTakeFirst()
}
