import type { Executor } from '../../../lib/db.ts'

// Rows of the amenity and sport catalogues.

const sportColumns = ['id', 'name', 'name_ne', 'slug', 'key', 'label', 'category'] as const

export const amenityRows = (db: Executor) =>
  db.selectFrom('amenities').select(['id', 'name', 'name_ne', 'icon']).orderBy('id').execute()

export const sportRows = (db: Executor) => db.selectFrom('sports').select(sportColumns).orderBy('id').execute()

const amenityColumns = ['id', 'name', 'name_ne', 'icon'] as const

export const insertAmenity = (db: Executor, values: { name: string; name_ne: string | null; icon: string | null }) =>
  db.insertInto('amenities').values(values).returning(amenityColumns).executeTakeFirstOrThrow()

/** Updates the given columns; undefined when no amenity has that id. */
export const updateAmenity = (
  db: Executor,
  id: number,
  set: { name?: string; name_ne?: string | null; icon?: string | null },
) => db.updateTable('amenities').set(set).where('id', '=', id).returning(amenityColumns).executeTakeFirst()

/** Deletes the amenity; false when there was none. */
export async function deleteAmenityRow(db: Executor, id: number): Promise<boolean> {
  const res = await db.deleteFrom('amenities').where('id', '=', id).executeTakeFirst()
  return Number(res.numDeletedRows) !== 0
}

export interface SportValues {
  name: string
  name_ne: string | null
  slug: string
  key: string
  label: string
  category: 'indoor' | 'outdoor'
}

export const insertSport = (db: Executor, values: SportValues) =>
  db.insertInto('sports').values(values).returning(sportColumns).executeTakeFirstOrThrow()

/** Updates the given columns; undefined when no sport has that id. */
export const updateSport = (db: Executor, id: number, set: Partial<SportValues>) =>
  db.updateTable('sports').set(set).where('id', '=', id).returning(sportColumns).executeTakeFirst()

export async function sportInUse(db: Executor, id: number): Promise<boolean> {
  const used = await db.selectFrom('courts').select('id').where('sport_id', '=', id).executeTakeFirst()
  return used !== undefined
}

/** Deletes the sport; false when there was none. */
export async function deleteSportRow(db: Executor, id: number): Promise<boolean> {
  const res = await db.deleteFrom('sports').where('id', '=', id).executeTakeFirst()
  return Number(res.numDeletedRows) !== 0
}
