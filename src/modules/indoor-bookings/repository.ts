import type { Insertable } from 'kysely'
import type { IndoorGameBookings } from '../../db/types.ts'
import type { Executor } from '../../lib/db.ts'
import { allocatedNumber } from '../booking-core/index.ts'
import type { IndoorBookingRow } from './resource.ts'

// Queries on indoor_game_bookings.

export async function findBooking(db: Executor, id: number): Promise<IndoorBookingRow | undefined> {
  return db.selectFrom('indoor_game_bookings').selectAll().where('id', '=', id).executeTakeFirst()
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

/** Bookings by id, in the order of `ids` (unknown ids are skipped). */
export async function bookingsByIds(db: Executor, ids: number[]): Promise<IndoorBookingRow[]> {
  if (ids.length === 0) return []
  const rows = await db.selectFrom('indoor_game_bookings').selectAll().where('id', 'in', ids).execute()
  const byId = new Map(rows.map((r) => [r.id, r]))
  return ids.flatMap((id) => byId.get(id) ?? [])
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
