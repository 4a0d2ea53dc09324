import type { Executor } from '../../../lib/db.ts'

// Rows of venue photos in `media` (model_type 'venue').

/** Deletes the venue's thumbnail rows and returns their stored paths. */
export const deleteVenueThumbnails = (db: Executor, venueId: number) =>
  db
    .deleteFrom('media')
    .where('model_type', '=', 'venue')
    .where('model_id', '=', venueId)
    .where('collection', '=', 'thumbnail')
    .returning('path')
    .execute()

/** The highest sort_order of the venue's gallery, or null when it is empty. */
export async function maxGallerySortOrder(db: Executor, venueId: number): Promise<number | null> {
  const max = await db
    .selectFrom('media')
    .select((eb) => eb.fn.max('sort_order').as('m'))
    .where('model_type', '=', 'venue')
    .where('model_id', '=', venueId)
    .where('collection', '=', 'gallery')
    .executeTakeFirst()
  return max?.m === null || max?.m === undefined ? null : Number(max.m)
}

export interface VenueMediaValues {
  venueId: number
  collection: 'thumbnail' | 'gallery'
  path: string
  mime: string
  size: number
  sortOrder: number
}

export const insertVenueMedia = (db: Executor, v: VenueMediaValues) =>
  db
    .insertInto('media')
    .values({
      model_type: 'venue',
      model_id: v.venueId,
      collection: v.collection,
      path: v.path,
      mime_type: v.mime,
      size: v.size,
      sort_order: v.sortOrder,
    })
    .returning(['id', 'path', 'collection', 'sort_order'])
    .executeTakeFirstOrThrow()

/** Deletes one image of the venue; its stored path, or undefined when the id is not this venue's. */
export const deleteVenueMedia = (db: Executor, venueId: number, mediaId: number) =>
  db
    .deleteFrom('media')
    .where('id', '=', mediaId)
    .where('model_type', '=', 'venue')
    .where('model_id', '=', venueId)
    .returning('path')
    .executeTakeFirst()
