import { type Insertable, sql, type Updateable } from 'kysely'
import type { IndoorGames } from '../../db/types.ts'
import type { Executor } from '../../lib/db.ts'

// Rows of indoor_games.

/** A live (not deleted) game by id. */
export async function findGameRow(db: Executor, id: number) {
  return db
    .selectFrom('indoor_games')
    .select(['id', 'venue_id', 'is_active'])
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst()
}

export async function insertGame(db: Executor, values: Insertable<IndoorGames>): Promise<number> {
  const row = await db.insertInto('indoor_games').values(values).returning('id').executeTakeFirstOrThrow()
  return row.id
}

export async function updateGame(db: Executor, id: number, values: Updateable<IndoorGames>): Promise<void> {
  await db.updateTable('indoor_games').set(values).where('id', '=', id).execute()
}

/** Locks the game row until the transaction ends, so a booking confirmed meanwhile is seen or waits. */
export async function lockGame(trx: Executor, id: number): Promise<void> {
  await trx.selectFrom('indoor_games').select('id').where('id', '=', id).forUpdate().execute()
}

/** Whether a confirmed or playing booking of the game ends after `now` (venue date and time). */
export async function hasUpcomingBookings(
  db: Executor,
  gameId: number,
  now: { date: string; time: string },
): Promise<boolean> {
  const row = await db
    .selectFrom('indoor_game_bookings')
    .select('id')
    .where('indoor_game_id', '=', gameId)
    .where('status', 'in', ['confirmed', 'playing'])
    .where(sql<boolean>`(date > ${now.date}::date or (date = ${now.date}::date and end_time > ${now.time}::time))`)
    .limit(1)
    .executeTakeFirst()
  return !!row
}
