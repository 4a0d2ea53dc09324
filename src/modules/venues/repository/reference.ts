import type { Executor } from '../../../lib/db.ts'

// Rows of the amenity and sport catalogues.

export const amenityRows = (db: Executor) =>
  db.selectFrom('amenities').select(['id', 'name', 'icon']).orderBy('id').execute()

export const sportRows = (db: Executor) =>
  db.selectFrom('sports').select(['id', 'name', 'slug', 'key', 'label', 'category']).orderBy('id').execute()

export const insertAmenity = (db: Executor, values: { name: string; icon: string | null }) =>
  db.insertInto('amenities').values(values).returning(['id', 'name', 'icon']).executeTakeFirstOrThrow()

/** Updates the given columns; undefined when no amenity has that id. */
export const updateAmenity = (db: Executor, id: number, set: { name?: string; icon?: string | null }) =>
  db.updateTable('amenities').set(set).where('id', '=', id).returning(['id', 'name', 'icon']).executeTakeFirst()

/** Deletes the amenity; false when there was none. */
export async function deleteAmenityRow(db: Executor, id: number): Promise<boolean> {
  const res = await db.deleteFrom('amenities').where('id', '=', id).executeTakeFirst()
  return Number(res.numDeletedRows) !== 0
}

const sportColumns = ['id', 'name', 'slug', 'key', 'label', 'category'] as const

export interface SportValues {
  name: string
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
