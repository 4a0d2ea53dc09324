import { sql } from 'kysely'
import type { Executor } from '../../../lib/db.ts'
import type { PageParams } from '../../../lib/pagination.ts'
import { type BookingKind, bookingTable } from './bookings.ts'

// The booking lists of both kinds (the customer's, the venue desk's): one filter, one order, one page.

/** What a list may be narrowed to; resourceId is the court (court bookings) or the game (indoor ones). */
export interface BookingListFilter {
  userId?: number
  venueId?: number
  resourceId?: number
  date?: string
  status?: string
}

/** The column naming a booking's court or game. */
const RESOURCE_COLUMN = { court: 'court_id', indoor: 'indoor_game_id' }

/**
 * One page of the ids of a kind's bookings matching the filter, and the total count. `newest`: the
 * latest slot first (the customer's lists, the court desk's); `schedule`: the earliest first.
 */
export async function bookingIdPage(
  db: Executor,
  kind: BookingKind,
  filter: BookingListFilter,
  page: PageParams,
  order: 'newest' | 'schedule',
): Promise<{ ids: number[]; total: number }> {
  let q = db.selectFrom(bookingTable(kind))
  if (filter.userId !== undefined) q = q.where('user_id', '=', filter.userId)
  if (filter.venueId !== undefined) q = q.where('venue_id', '=', filter.venueId)
  if (filter.resourceId !== undefined) q = q.where(sql.ref(RESOURCE_COLUMN[kind]), '=', filter.resourceId)
  if (filter.date !== undefined) q = q.where('date', '=', filter.date)
  if (filter.status !== undefined) q = q.where('status', '=', filter.status)
  const direction = order === 'newest' ? 'desc' : 'asc'
  const [rows, count] = await Promise.all([
    q
      .select('id')
      .orderBy('date', direction)
      .orderBy('start_time', direction)
      .orderBy('id', direction)
      .limit(page.perPage)
      .offset(page.offset)
      .execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ])
  return { ids: rows.map((r) => r.id), total: Number(count.n) }
}
