import type { AppContext } from '../../../lib/context.ts'
import { Conflict, Invalid, NotFound } from '../../../lib/errors.ts'
import { pathId, SERIAL_MAX } from '../../../lib/ids.ts'
import { slugify } from '../slug.ts'

// The amenity and sport catalogues: public lists, managed by super_admin.

const isUniqueViolation = (e: unknown) => (e as { code?: string })?.code === '23505'
// Amenity and sport keys are `serial` (int4): a larger id names nothing.
const idOf = (key: string) => pathId(key, SERIAL_MAX)

export const listAmenities = (ctx: AppContext) =>
  ctx.db.selectFrom('amenities').select(['id', 'name', 'icon']).orderBy('id').execute()

export const listSports = (ctx: AppContext) =>
  ctx.db.selectFrom('sports').select(['id', 'name', 'slug', 'key', 'label', 'category']).orderBy('id').execute()

export async function saveAmenity(ctx: AppContext, key: string | null, body: { name?: string; icon?: string | null }) {
  try {
    if (key === null) {
      return await ctx.db
        .insertInto('amenities')
        .values({ name: body.name!.trim(), icon: body.icon ?? null })
        .returning(['id', 'name', 'icon'])
        .executeTakeFirstOrThrow()
    }
    const id = idOf(key)
    const row = await ctx.db
      .updateTable('amenities')
      .set({
        ...(body.name !== undefined && { name: body.name.trim() }),
        ...(body.icon !== undefined && { icon: body.icon }),
      })
      .where('id', '=', id)
      .returning(['id', 'name', 'icon'])
      .executeTakeFirst()
    if (!row) throw new NotFound()
    return row
  } catch (e) {
    if (isUniqueViolation(e)) throw new Invalid('name', 'The name has already been taken.')
    throw e
  }
}

export async function deleteAmenity(ctx: AppContext, key: string) {
  const res = await ctx.db.deleteFrom('amenities').where('id', '=', idOf(key)).executeTakeFirst()
  if (Number(res.numDeletedRows) === 0) throw new NotFound()
}

export async function saveSport(
  ctx: AppContext,
  key: string | null,
  body: { name?: string; slug?: string; key?: string; label?: string; category?: 'indoor' | 'outdoor' },
) {
  const columns = ['id', 'name', 'slug', 'key', 'label', 'category'] as const
  try {
    if (key === null) {
      const name = body.name!.trim()
      const slug = body.slug ?? slugify(name)
      return await ctx.db
        .insertInto('sports')
        .values({
          name,
          slug,
          key: body.key ?? slug.replace(/-/g, '_'),
          label: body.label ?? name,
          category: body.category ?? 'outdoor',
        })
        .returning(columns)
        .executeTakeFirstOrThrow()
    }
    const row = await ctx.db
      .updateTable('sports')
      .set({
        ...(body.name !== undefined && { name: body.name.trim() }),
        ...(body.slug !== undefined && { slug: body.slug }),
        ...(body.key !== undefined && { key: body.key }),
        ...(body.label !== undefined && { label: body.label }),
        ...(body.category !== undefined && { category: body.category }),
      })
      .where('id', '=', idOf(key))
      .returning(columns)
      .executeTakeFirst()
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
  const used = await ctx.db.selectFrom('courts').select('id').where('sport_id', '=', id).executeTakeFirst()
  if (used) throw new Conflict('The sport is used by courts and cannot be deleted.')
  const res = await ctx.db.deleteFrom('sports').where('id', '=', id).executeTakeFirst()
  if (Number(res.numDeletedRows) === 0) throw new NotFound()
}
