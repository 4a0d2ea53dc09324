import type { Insertable } from 'kysely'
import type { IndoorGameBookings } from '../../db/types.ts'
import type { Executor } from '../../lib/db.ts'
import type { PageParams } from '../../lib/pagination.ts'
import { allocatedNumber } from '../booking-core/index.ts'
import type { IndoorBookingRow } from './resource.ts'

// Queries on indoor_game_bookings.

/** A booking id from the path (undefined → 404). */
export { parseId } from '../../lib/ids.ts'

export async function findBooking(db: Executor, id: number, lock = false): Promise<IndoorBookingRow | undefined> {
  let q = db.selectFrom('indoor_game_bookings').selectAll().where('id', '=', id)
  if (lock) q = q.forUpdate()
  return q.executeTakeFirst()
}

/** Inserts an indoor booking, numbered in the same statement (see allocatedNumber); 23P01 on overlap. */
export async function insertBooking(
  db: Executor,
  values: Omit<Insertable<IndoorGameBookings>, 'booking_number'>,
  year: number,
): Promise<IndoorBookingRow> {
  return db
    .insertInto('indoor_game_bookings')
    .values({ ...values, booking_number: allocatedNumber('IG', year, values.indoor_game_id) })
    .returningAll()
    .executeTakeFirstOrThrow()
}

export interface ListFilter {
  userId?: number
  venueId?: number
  date?: string
  status?: string
  indoorGameId?: number
}

/** One page of bookings matching the filter and the total count. */
export async function listBookings(
  db: Executor,
  filter: ListFilter,
  page: PageParams,
  order: 'newest' | 'schedule',
): Promise<{ rows: IndoorBookingRow[]; total: number }> {
  let q = db.selectFrom('indoor_game_bookings')
  if (filter.userId !== undefined) q = q.where('user_id', '=', filter.userId)
  if (filter.venueId !== undefined) q = q.where('venue_id', '=', filter.venueId)
  if (filter.date !== undefined) q = q.where('date', '=', filter.date)
  if (filter.status !== undefined) q = q.where('status', '=', filter.status)
  if (filter.indoorGameId !== undefined) q = q.where('indoor_game_id', '=', filter.indoorGameId)
  const count = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
  const direction = order === 'newest' ? 'desc' : 'asc'
  const rows = await q
    .selectAll()
    .orderBy('date', direction)
    .orderBy('start_time', direction)
    .orderBy('id', direction)
    .limit(page.perPage)
    .offset(page.offset)
    .execute()
  return { rows, total: Number(count.n) }
}

/** The indoor game a booking is made on, with its venue's state; undefined when it does not exist. */
export async function gameForBooking(db: Executor, gameId: number) {
  return db
    .selectFrom('indoor_games as g')
    .innerJoin('venues as v', 'v.id', 'g.venue_id')
    .select(['g.id', 'g.venue_id', 'g.tenant_id', 'g.capacity', 'g.is_active', 'v.is_active as venue_active'])
    .select('v.verification_status')
    .where('g.id', '=', gameId)
    .where('g.deleted_at', 'is', null)
    .where('v.deleted_at', 'is', null)
    .executeTakeFirst()
}
