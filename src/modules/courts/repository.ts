import { type Insertable, sql, type Updateable } from 'kysely'
import type { DB } from '../../db/types.ts'
import type { Executor } from '../../lib/db.ts'

// Court rows: lookups and the writes of court create, update and delete.

/** The live (not deleted) court with that id. */
export const findCourtRow = (db: Executor, id: number) =>
  db
    .selectFrom('courts')
    .select(['id', 'venue_id', 'is_active', 'slot_minutes'])
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst()

/** Ids of the venue's live courts in id order: the active ones, or all with `includeInactive`. */
export async function venueCourtIds(
  db: Executor,
  venueId: number,
  opts: { includeInactive?: boolean } = {},
): Promise<number[]> {
  let q = db.selectFrom('courts').select('id').where('venue_id', '=', venueId).where('deleted_at', 'is', null)
  if (!opts.includeInactive) q = q.where('is_active', '=', true)
  const ids = await q.orderBy('id').execute()
  return ids.map((r) => r.id)
}

export const findSport = (db: Executor, sportId: number) =>
  db.selectFrom('sports').select(['id', 'key']).where('id', '=', sportId).executeTakeFirst()

/** Inserts a court; its id. */
export async function insertCourt(db: Executor, values: Insertable<DB['courts']>): Promise<number> {
  const court = await db.insertInto('courts').values(values).returning('id').executeTakeFirstOrThrow()
  return court.id
}

export async function updateCourtRow(db: Executor, courtId: number, set: Updateable<DB['courts']>) {
  await db.updateTable('courts').set(set).where('id', '=', courtId).execute()
}

/** Locks the court row so a booking confirmed meanwhile is seen or waits. */
export async function lockCourt(db: Executor, courtId: number) {
  await db.selectFrom('courts').select('id').where('id', '=', courtId).forUpdate().execute()
}

/** Whether a confirmed or playing booking of the court ends after `now` (venue wall clock). */
export async function hasUpcomingCourtBookings(
  db: Executor,
  courtId: number,
  now: { date: string; time: string },
): Promise<boolean> {
  const upcoming = await db
    .selectFrom('bookings')
    .select('id')
    .where('court_id', '=', courtId)
    .where('status', 'in', ['confirmed', 'playing'])
    .where(sql<boolean>`(date > ${now.date}::date or (date = ${now.date}::date and end_time > ${now.time}::time))`)
    .limit(1)
    .executeTakeFirst()
  return upcoming !== undefined
}
