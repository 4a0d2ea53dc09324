import type { Static } from 'typebox'
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
import type { AmenityBody, AmenityUpdateBody, SportBody, SportUpdateBody } from '../schemas.ts'
import { slugify } from '../slug.ts'

// The amenity and sport catalogues: public lists, managed by super_admin.

const isUniqueViolation = (e: unknown) => (e as { code?: string })?.code === '23505'
// Amenity and sport keys are `serial` (int4): a larger id names nothing.
const idOf = (key: string) => pathId(key, SERIAL_MAX)

/** A Nepali name as stored: trimmed; null (or nothing) clears it. */
const nepali = (value: string | null | undefined) => value?.trim() || null

export const listAmenities = (ctx: AppContext) => amenityRows(ctx.db)

export const listSports = (ctx: AppContext) => sportRows(ctx.db)

/** A taken amenity name is the contract's 422 on `name`. */
function amenityNameTaken(e: unknown): never {
  if (isUniqueViolation(e)) throw new Invalid('name', 'The name has already been taken.')
  throw e
}

/** A taken sport slug or key is the contract's 422 on that field. */
function sportTaken(e: unknown): never {
  if (isUniqueViolation(e)) {
    const detail = String((e as { detail?: string; constraint?: string }).constraint ?? '')
    throw new Invalid(detail.includes('key') ? 'key' : 'slug', 'The sport has already been taken.')
  }
  throw e
}

export function createAmenity(ctx: AppContext, body: Static<typeof AmenityBody>) {
  return insertAmenity(ctx.db, {
    name: body.name.trim(),
    name_ne: nepali(body.name_ne),
    icon: body.icon ?? null,
  }).catch(amenityNameTaken)
}

/**
 * An update naming none of the fields it may change (`{}`, or unknown fields only) is 422 on the
 * first of them, never an UPDATE with nothing to set.
 */
function someOf<T extends object>(update: T, fields: readonly string[]): T {
  if (Object.keys(update).length === 0) {
    throw new Invalid(fields[0], `Give at least one of ${fields.join(', ')} to change.`)
  }
  return update
}

export async function changeAmenity(ctx: AppContext, key: string, body: Static<typeof AmenityUpdateBody>) {
  const id = idOf(key)
  const update = someOf(
    {
      ...(body.name !== undefined && { name: body.name.trim() }),
      ...(body.name_ne !== undefined && { name_ne: nepali(body.name_ne) }),
      ...(body.icon !== undefined && { icon: body.icon }),
    },
    ['name', 'name_ne', 'icon'],
  )
  const row = await updateAmenity(ctx.db, id, update).catch(amenityNameTaken)
  if (!row) throw new NotFound()
  return row
}

export async function deleteAmenity(ctx: AppContext, key: string) {
  if (!(await deleteAmenityRow(ctx.db, idOf(key)))) throw new NotFound()
}

export function createSport(ctx: AppContext, body: Static<typeof SportBody>) {
  const name = body.name.trim()
  const slug = body.slug ?? slugify(name)
  return insertSport(ctx.db, {
    name,
    name_ne: nepali(body.name_ne),
    slug,
    key: body.key ?? slug.replace(/-/g, '_'),
    label: body.label ?? name,
    category: body.category ?? 'outdoor',
  }).catch(sportTaken)
}

export async function changeSport(ctx: AppContext, key: string, body: Static<typeof SportUpdateBody>) {
  const id = idOf(key)
  const update = someOf(
    {
      ...(body.name !== undefined && { name: body.name.trim() }),
      ...(body.name_ne !== undefined && { name_ne: nepali(body.name_ne) }),
      ...(body.slug !== undefined && { slug: body.slug }),
      ...(body.key !== undefined && { key: body.key }),
      ...(body.label !== undefined && { label: body.label }),
      ...(body.category !== undefined && { category: body.category }),
    },
    ['name', 'name_ne', 'slug', 'key', 'label', 'category'],
  )
  const row = await updateSport(ctx.db, id, update).catch(sportTaken)
  if (!row) throw new NotFound()
  return row
}

export async function deleteSport(ctx: AppContext, key: string) {
  const id = idOf(key)
  if (await sportInUse(ctx.db, id)) throw new Conflict('The sport is used by courts and cannot be deleted.')
  if (!(await deleteSportRow(ctx.db, id))) throw new NotFound()
}
