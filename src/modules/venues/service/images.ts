import type { AppContext } from '../../../lib/context.ts'
import type { Executor } from '../../../lib/db.ts'
import { Invalid, NotFound } from '../../../lib/errors.ts'
import { detectImage } from '../../../lib/storage.ts'
import { Upload } from '../../../lib/uploads.ts'
import { deleteVenueMedia, deleteVenueThumbnails, insertVenueMedia, maxGallerySortOrder } from '../repository/images.ts'
import { type VenueImage, venueImage } from '../resource.ts'

// Venue photos: one thumbnail (the cover; a new one replaces the old) and an ordered gallery.

export const MAX_IMAGE_BYTES = 5 * 1024 * 1024
export const MAX_GALLERY_PER_REQUEST = 12

export interface CheckedImage {
  file: Upload
  mime: string
  ext: string
}

/** Checks an uploaded field is a jpg/png/webp of at most 5 MB (422 on `field` otherwise). */
export async function checkImage(field: string, value: unknown): Promise<CheckedImage> {
  const label = field.replace(/_/g, ' ')
  if (!(value instanceof Upload)) throw new Invalid(field, `The ${label} field must be an image.`)
  if (value.size > MAX_IMAGE_BYTES) {
    throw new Invalid(field, `The ${label} field must not be greater than ${MAX_IMAGE_BYTES / 1024} kilobytes.`)
  }
  const type = await detectImage(value)
  if (!type) throw new Invalid(field, `The ${label} field must be a file of type: jpg, jpeg, png, webp.`)
  return { file: value, mime: type.mime, ext: type.ext }
}

/** The gallery files of a create/update body (`gallery[]` or `gallery`, one file or several). */
export async function checkGallery(body: Record<string, unknown>): Promise<CheckedImage[]> {
  const raw = body['gallery[]'] ?? body.gallery
  if (raw === undefined || raw === null || raw === '') return []
  const list = Array.isArray(raw) ? raw : [raw]
  if (list.length > MAX_GALLERY_PER_REQUEST) {
    throw new Invalid('gallery', `The gallery field must not have more than ${MAX_GALLERY_PER_REQUEST} items.`)
  }
  const out: CheckedImage[] = []
  for (const [i, item] of list.entries()) out.push(await checkImage(`gallery.${i}`, item))
  return out
}

/**
 * Files written and replaced by the image changes of one transaction: `finish(true)` after the
 * commit removes the replaced files, `finish(false)` after a rollback removes the new ones, so a
 * failed create or update leaves the stored files exactly as they were.
 */
export class ImageChanges {
  readonly added: string[] = []
  readonly replaced: string[] = []

  async finish(ctx: Pick<AppContext, 'storage'>, committed: boolean): Promise<void> {
    const paths = committed ? this.replaced : this.added
    await Promise.all(paths.map((p) => ctx.storage.delete(p)))
    this.added.length = 0
    this.replaced.length = 0
  }
}

/**
 * Stores the file and adds it to the venue; a new thumbnail replaces the previous one. Inside a
 * transaction pass `changes` (and call its finish); without it the old thumbnail file is removed
 * at once.
 */
export async function addVenueImage(
  ctx: AppContext,
  db: Executor,
  venueId: number,
  image: CheckedImage,
  collection: 'thumbnail' | 'gallery',
  changes?: ImageChanges,
): Promise<VenueImage> {
  const path = await ctx.storage.put(`venues/${venueId}`, image.file, image.ext)
  changes?.added.push(path)
  let sortOrder = 0
  if (collection === 'thumbnail') {
    const old = await deleteVenueThumbnails(db, venueId)
    if (changes) changes.replaced.push(...old.map((o) => o.path))
    else for (const o of old) await ctx.storage.delete(o.path)
  } else {
    const max = await maxGallerySortOrder(db, venueId)
    sortOrder = max === null ? 1 : max + 1
  }
  const row = await insertVenueMedia(db, {
    venueId,
    collection,
    path,
    mime: image.mime,
    size: image.file.size,
    sortOrder,
  })
  return venueImage(ctx.storage, row)
}

/** Removes one of the venue's images (404 when the id is not this venue's). */
export async function deleteVenueImage(ctx: AppContext, venueId: number, mediaId: number): Promise<void> {
  const row = await deleteVenueMedia(ctx.db, venueId, mediaId)
  if (!row) throw new NotFound()
  await ctx.storage.delete(row.path)
}
