import { type Insertable, sql, type Updateable } from 'kysely'
import type { DB } from '../../../db/types.ts'
import { type Executor, LOCK_CLASS, xactLock } from '../../../lib/db.ts'
import { escapeLike } from '../repository.ts'

// Writes of venue create, update and delete, and the lookups that check their input.

/** The tax identity of venues by id (shown only to those who manage them). */
export async function taxIdentities(db: Executor, ids: number[]) {
  if (ids.length === 0)
    return new Map<number, { pan_number: string | null; vat_registered: boolean; legal_name: string | null }>()
  const rows = await db
    .selectFrom('venues')
    .select(['id', 'pan_number', 'vat_registered', 'legal_name'])
    .where('id', 'in', ids)
    .execute()
  return new Map(rows.map(({ id, ...identity }) => [id, identity]))
}

/** How many of `ids` name an amenity. */
export async function countAmenities(db: Executor, ids: number[]): Promise<number> {
  const found = await db.selectFrom('amenities').select('id').where('id', 'in', ids).execute()
  return found.length
}

/** Replaces the venue's amenities with `ids`. */
export async function setVenueAmenities(db: Executor, venueId: number, ids: number[]) {
  await db.deleteFrom('venue_amenities').where('venue_id', '=', venueId).execute()
  if (ids.length) {
    await db
      .insertInto('venue_amenities')
      .values(ids.map((amenity_id) => ({ venue_id: venueId, amenity_id })))
      .execute()
  }
}

export async function userExists(db: Executor, userId: number): Promise<boolean> {
  const user = await db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst()
  return user !== undefined
}

/** Gives the user the global role `role` (nothing when they hold it already). */
export async function grantRole(db: Executor, userId: number, role: string) {
  await db
    .insertInto('user_roles')
    .columns(['user_id', 'role_id'])
    .expression((eb) =>
      eb
        .selectFrom('roles')
        .select([eb.val(userId).as('user_id'), 'id as role_id'])
        .where('name', '=', role),
    )
    .onConflict((oc) => oc.doNothing())
    .execute()
}

/**
 * Venues `ownerId` has been given since `since`, counted under a per-user lock held to the end of
 * the transaction, so two creations at once cannot both pass the day's cap.
 */
export async function lockedVenuesSince(trx: Executor, ownerId: number, since: Date): Promise<number> {
  await xactLock(trx, LOCK_CLASS.venueCreator, ownerId)
  const row = await trx
    .selectFrom('venues')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('owner_id', '=', ownerId)
    .where('created_at', '>', since)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

/** Inserts a venue; its id. */
export async function insertVenue(db: Executor, values: Insertable<DB['venues']>): Promise<number> {
  const venue = await db.insertInto('venues').values(values).returning('id').executeTakeFirstOrThrow()
  return venue.id
}

export async function updateVenueRow(db: Executor, venueId: number, set: Updateable<DB['venues']>) {
  await db.updateTable('venues').set(set).where('id', '=', venueId).execute()
}

/** Locks the venue row so a booking confirmed meanwhile is seen or waits. */
export async function lockVenue(db: Executor, venueId: number) {
  await db.selectFrom('venues').select('id').where('id', '=', venueId).forUpdate().execute()
}

/** Whether a confirmed or playing court or indoor booking of the venue ends after `now` (venue wall clock). */
export async function hasUpcomingBookings(
  db: Executor,
  venueId: number,
  now: { date: string; time: string },
): Promise<boolean> {
  const upcoming = await db
    .selectFrom('bookings')
    .select('id')
    .where('venue_id', '=', venueId)
    .where('status', 'in', ['confirmed', 'playing'])
    .where(sql<boolean>`(date > ${now.date}::date or (date = ${now.date}::date and end_time > ${now.time}::time))`)
    .unionAll(
      db
        .selectFrom('indoor_game_bookings')
        .select('id')
        .where('venue_id', '=', venueId)
        .where('status', 'in', ['confirmed', 'playing'])
        .where(sql<boolean>`(date > ${now.date}::date or (date = ${now.date}::date and end_time > ${now.time}::time))`),
    )
    .limit(1)
    .execute()
  return upcoming.length > 0
}

/** The slugs equal to `base` or of the form `base-…`. */
export async function slugsLike(db: Executor, base: string): Promise<string[]> {
  const taken = await db
    .selectFrom('venues')
    .select('slug')
    .where((eb) => eb.or([eb('slug', '=', base), eb('slug', 'like', `${escapeLike(base)}-%`)]))
    .execute()
  return taken.map((t) => t.slug)
}
