import type { AppContext } from '../../../lib/context.ts'
import { Conflict, Invalid, NotFound } from '../../../lib/errors.ts'
import { pathId, SERIAL_MAX } from '../../../lib/ids.ts'
import {
  amenityRows,
  deleteAmenityRow,
  deleteSportRow,
  insertAmenity,
  insertSport,
  sportInUse,
  sportRows,
  updateAmenity,
  updateSport,
} from '../repository/reference.ts'
import { slugify } from '../slug.ts'

// The amenity and sport catalogues: public lists, managed by super_admin.

const isUniqueViolation = (e: unknown) => (e as { code?: string })?.code === '23505'
// Amenity and sport keys are `serial` (int4): a larger id names nothing.
const idOf = (key: string) => pathId(key, SERIAL_MAX)

export const listAmenities = (ctx: AppContext) => amenityRows(ctx.db)

export const listSports = (ctx: AppContext) => sportRows(ctx.db)

export async function saveAmenity(ctx: AppContext, key: string | null, body: { name?: string; icon?: string | null }) {
  try {
    if (key === null) {
      return await insertAmenity(ctx.db, { name: body.name!.trim(), icon: body.icon ?? null })
    }
    const id = idOf(key)
    const row = await updateAmenity(ctx.db, id, {
      ...(body.name !== undefined && { name: body.name.trim() }),
      ...(body.icon !== undefined && { icon: body.icon }),
    })
    if (!row) throw new NotFound()
    return row
  } catch (e) {
    if (isUniqueViolation(e)) throw new Invalid('name', 'The name has already been taken.')
    throw e
  }
}

export async function deleteAmenity(ctx: AppContext, key: string) {
  if (!(await deleteAmenityRow(ctx.db, idOf(key)))) throw new NotFound()
}

export async function saveSport(
  ctx: AppContext,
  key: string | null,
  body: { name?: string; slug?: string; key?: string; label?: string; category?: 'indoor' | 'outdoor' },
) {
  try {
    if (key === null) {
      const name = body.name!.trim()
      const slug = body.slug ?? slugify(name)
      return await insertSport(ctx.db, {
        name,
        slug,
        key: body.key ?? slug.replace(/-/g, '_'),
        label: body.label ?? name,
        category: body.category ?? 'outdoor',
      })
    }
    const row = await updateSport(ctx.db, idOf(key), {
      ...(body.name !== undefined && { name: body.name.trim() }),
      ...(body.slug !== undefined && { slug: body.slug }),
      ...(body.key !== undefined && { key: body.key }),
      ...(body.label !== undefined && { label: body.label }),
      ...(body.category !== undefined && { category: body.category }),
    })
    if (!row) throw new NotFound()
    return row
  } catch (e) {
    if (isUniqueViolation(e)) {
      const detail = String((e as { detail?: string; constraint?: string }).constraint ?? '')
      throw new Invalid(detail.includes('key') ? 'key' : 'slug', 'The sport has already been taken.')
    }
    throw e
  }
}

export async function deleteSport(ctx: AppContext, key: string) {
  const id = idOf(key)
  if (await sportInUse(ctx.db, id)) throw new Conflict('The sport is used by courts and cannot be deleted.')
  if (!(await deleteSportRow(ctx.db, id))) throw new NotFound()
}
