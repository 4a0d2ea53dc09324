import { type ExpressionBuilder, type SelectQueryBuilder, sql } from 'kysely'
import type { DB } from '../../db/types.ts'
import type { Executor } from '../../lib/db.ts'
import { parseId } from '../../lib/ids.ts'
import { devanagariSkeleton } from '../../lib/transliterate.ts'

// SQL of the venue catalogue and venue rows. The distance query is the one that matters: a
// bounding box on (latitude, longitude) — served by venues_geo_idx — narrows the rows before the
// exact great-circle (haversine) distance is computed and compared with the radius.

const EARTH_RADIUS_KM = 6371
const KM_PER_DEGREE_LAT = 111.045

export type CatalogueScope = { kind: 'public' } | { kind: 'own'; userId: number } | { kind: 'all' }

export interface Geo {
  lat: number
  lng: number
  radiusKm: number
}

export interface CatalogueFilter {
  scope: CatalogueScope
  search?: string
  city?: string
  sport?: string
  isVerified?: boolean
  ownerId?: number
  geo?: Geo
  sort: 'recommended' | 'distance' | 'rating' | 'price' | 'newest' | 'soonest'
  limit: number
  offset: number
}

type VDB = DB & { v: DB['venues'] }
type VenueQuery = SelectQueryBuilder<VDB, 'v', object>

/** Great-circle distance in km from a point to the venue row `v`. */
export function distanceSql(lat: number, lng: number) {
  return sql<number>`(${2 * EARTH_RADIUS_KM} * asin(least(1, sqrt(
    power(sin(radians((v.latitude::float8 - ${lat}::float8) / 2)), 2)
    + cos(radians(${lat}::float8)) * cos(radians(v.latitude::float8))
    * power(sin(radians((v.longitude::float8 - ${lng}::float8) / 2)), 2)))))`
}

/** The latitude/longitude box that contains every point within `radiusKm` of the centre. */
export function boundingBox({ lat, lng, radiusKm }: Geo) {
  const dLat = radiusKm / KM_PER_DEGREE_LAT
  const cosLat = Math.cos((lat * Math.PI) / 180)
  const dLng = cosLat < 1e-6 ? 360 : radiusKm / (KM_PER_DEGREE_LAT * cosLat)
  const wraps = lng - dLng < -180 || lng + dLng > 180 || dLng >= 180
  return {
    minLat: Math.max(-90, lat - dLat),
    maxLat: Math.min(90, lat + dLat),
    minLng: wraps ? -180 : lng - dLng,
    maxLng: wraps ? 180 : lng + dLng,
  }
}

export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`)

function applyFilters(q: VenueQuery, f: CatalogueFilter): VenueQuery {
  q = q.where('v.deleted_at', 'is', null)
  if (f.scope.kind === 'public') {
    q = q.where('v.verification_status', '=', 'verified').where('v.is_active', '=', true)
  } else if (f.scope.kind === 'own') {
    const userId = f.scope.userId
    q = q.where((eb) =>
      eb.or([
        eb('v.owner_id', '=', userId),
        eb('v.id', 'in', eb.selectFrom('venue_staff').select('venue_id').where('user_id', '=', userId)),
      ]),
    )
  } else if (f.ownerId !== undefined) {
    q = q.where('v.owner_id', '=', f.ownerId)
  }
  if (f.isVerified === true) q = q.where('v.verification_status', '=', 'verified')
  if (f.isVerified === false) q = q.where('v.verification_status', '!=', 'verified')
  if (f.search) q = q.where((eb) => searchFilter(eb, f.search!))
  if (f.city) q = q.where(sql<boolean>`lower(v.city) = lower(${f.city})`)
  if (f.sport) q = q.where((eb) => sportFilter(eb, f.sport!))
  if (f.geo) {
    const box = boundingBox(f.geo)
    q = q
      .where('v.latitude', '>=', String(box.minLat))
      .where('v.latitude', '<=', String(box.maxLat))
      .where('v.longitude', '>=', String(box.minLng))
      .where('v.longitude', '<=', String(box.maxLng))
      .where(sql<boolean>`${distanceSql(f.geo.lat, f.geo.lng)} <= ${f.geo.radiusKm}::float8`)
  }
  return q
}

/** Shorter skeletons (one or two consonants) would match nearly every venue. */
const MIN_SKELETON = 3

/**
 * The search matches name, city and address, and the Nepali name and address, as typed; a query in
 * Devanagari also matches the Latin ones by consonant skeleton (src/lib/transliterate.ts,
 * migrations/044), so "बानेश्वर" finds a venue in Baneshwor.
 */
function searchFilter(eb: ExpressionBuilder<VDB, 'v'>, search: string) {
  const term = `%${escapeLike(search)}%`
  const terms = [
    eb('v.name', 'ilike', term),
    eb('v.city', 'ilike', term),
    eb('v.address', 'ilike', term),
    eb('v.name_ne', 'ilike', term),
    eb('v.address_ne', 'ilike', term),
  ]
  const skeleton = devanagariSkeleton(search)
  // The skeleton is a-z and 0-9 only: nothing in it needs escaping for LIKE.
  if (skeleton.length >= MIN_SKELETON) terms.push(eb('v.search_skeleton', 'like', `%${skeleton}%`))
  return eb.or(terms)
}

/**
 * indoor/outdoor match a sport category (indoor also: any indoor game); anything else a sport (name,
 * slug or key) or a court type, or an indoor game type (chess, carrom...).
 */
function sportFilter(eb: ExpressionBuilder<VDB, 'v'>, sport: string) {
  const value = sport.trim().toLowerCase()
  const liveCourts = eb
    .selectFrom('courts as c')
    .leftJoin('sports as s', 's.id', 'c.sport_id')
    .select('c.id')
    .whereRef('c.venue_id', '=', 'v.id')
    .where('c.deleted_at', 'is', null)
    .where('c.is_active', '=', true)
  if (value === 'indoor' || value === 'outdoor') {
    const byCategory = eb.exists(liveCourts.where('s.category', '=', value))
    if (value === 'outdoor') return byCategory
    return eb.or([
      byCategory,
      eb.exists(
        eb
          .selectFrom('indoor_games as g')
          .select('g.id')
          .whereRef('g.venue_id', '=', 'v.id')
          .where('g.deleted_at', 'is', null)
          .where('g.is_active', '=', true),
      ),
    ])
  }
  return eb.or([
    eb.exists(
      liveCourts.where((w) =>
        w.or([
          w(sql`lower(s.name)`, '=', value),
          w('s.slug', '=', value),
          w('s.key', '=', value),
          w(sql`lower(c.type)`, '=', value),
        ]),
      ),
    ),
    // An indoor game's type (chess, carrom, playstation...): venues with such a live game.
    eb.exists(
      eb
        .selectFrom('indoor_games as g')
        .select('g.id')
        .whereRef('g.venue_id', '=', 'v.id')
        .where('g.deleted_at', 'is', null)
        .where('g.is_active', '=', true)
        .where('g.game_type', '=', value),
    ),
  ])
}

/** The venues the filter matches (scope, search, city, sport, verification, owner, radius), as `v`. */
export function catalogueVenues(db: Executor, f: Omit<CatalogueFilter, 'sort' | 'limit' | 'offset'>) {
  return applyFilters(db.selectFrom('venues as v'), { ...f, sort: 'recommended', limit: 0, offset: 0 })
}

/**
 * The ORDER BY terms of a sort over venue rows `v`, the venue id last (a stable page order).
 * `soonest` is the free-time search's (its earliest start goes first, src/modules/catalogue):
 * without a date it is Recommended; distance without coordinates is Recommended too.
 */
export function sortKeys(sort: CatalogueFilter['sort'], geo: Geo | undefined) {
  const distance = geo ? distanceSql(geo.lat, geo.lng) : null
  const keys = []
  switch (sort === 'distance' && !distance ? 'recommended' : sort) {
    case 'distance':
      keys.push(sql`${distance} asc`)
      break
    case 'rating':
      keys.push(sql`v.reviews_avg_rating desc nulls last`, sql`v.reviews_count desc`)
      break
    case 'price':
      keys.push(sql`v.min_price asc nulls last`)
      break
    case 'newest':
      keys.push(sql`v.created_at desc`)
      break
    default:
      // Recommended: verified first, then the best rated and most reviewed; nearer first when
      // coordinates were sent.
      keys.push(
        sql`(v.verification_status = 'verified') desc`,
        sql`v.reviews_avg_rating desc nulls last`,
        sql`v.reviews_count desc`,
      )
      if (distance) keys.push(sql`${distance} asc`)
  }
  keys.push(sql`v.id desc`)
  return keys
}

/** One page of the catalogue: venue ids (in order) with their distance, and the total. */
export async function searchVenues(
  db: Executor,
  f: CatalogueFilter,
): Promise<{ rows: Array<{ id: number; distance: number | null }>; total: number }> {
  const base = applyFilters(db.selectFrom('venues as v'), f)
  const distance = f.geo ? distanceSql(f.geo.lat, f.geo.lng) : sql<number | null>`null::float8`
  let q = base.select(['v.id', distance.as('distance')])
  for (const key of sortKeys(f.sort, f.geo)) q = q.orderBy(key)
  const [rows, count] = await Promise.all([
    q.limit(f.limit).offset(f.offset).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ])
  return {
    rows: rows.map((r) => ({ id: r.id, distance: r.distance === null ? null : Number(r.distance) })),
    total: Number(count.n),
  }
}

export interface VenueRecord {
  id: number
  owner_id: number
  name: string
  slug: string
  is_active: boolean
  verification_status: string
  opening_time: string
  closing_time: string
}

const recordColumns = [
  'id',
  'owner_id',
  'name',
  'slug',
  'is_active',
  'verification_status',
  'opening_time',
  'closing_time',
] as const

/**
 * Whether a {venue} path segment can be a slug at all (slugs are ASCII letters, digits and
 * hyphens). Anything else (NUL bytes, spaces, other scripts) is simply not found, never sent to
 * the database.
 */
export const isSlugShaped = (key: string) => /^[A-Za-z0-9_-]{1,255}$/.test(key)

/**
 * The live (not deleted) venue a {venue} path key names. The rule, for every route that reads a
 * venue key: a key of 1–15 decimal digits is a venue id (never a slug); any other key is a slug.
 * Created slugs are never all digits (slug.ts), and the contract calls the key an id that also
 * accepts a slug, so the id wins. Text that can be neither never reaches the database.
 */
export async function resolveVenue(db: Executor, key: string): Promise<VenueRecord | undefined> {
  const id = parseId(key)
  if (id !== undefined) return findVenueById(db, id)
  if (!isSlugShaped(key)) return undefined
  return db
    .selectFrom('venues')
    .select(recordColumns)
    .where('slug', '=', key)
    .where('deleted_at', 'is', null)
    .executeTakeFirst()
}

export async function findVenueById(db: Executor, id: number): Promise<VenueRecord | undefined> {
  return db
    .selectFrom('venues')
    .select(recordColumns)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst()
}

/** The caller's place at a venue in GET /venues/my-venues ('super_admin' for a super_admin not attached to it). */
export type MyVenueRole = 'owner' | 'manager' | 'staff' | 'super_admin'

/**
 * Venues the user owns or is assigned to (every venue for a super_admin), newest first, each with the
 * user's role there: owner before an assignment; a super_admin neither owning nor assigned gets 'super_admin'.
 */
export async function myVenueRoles(
  db: Executor,
  userId: number,
  superAdmin: boolean,
): Promise<{ id: number; role: MyVenueRole }[]> {
  let q = db
    .selectFrom('venues as v')
    .leftJoin('venue_staff as s', (j) => j.onRef('s.venue_id', '=', 'v.id').on('s.user_id', '=', userId))
    .select(['v.id', 'v.owner_id', 's.role'])
    .where('v.deleted_at', 'is', null)
  if (!superAdmin) q = q.where((eb) => eb.or([eb('v.owner_id', '=', userId), eb('s.user_id', 'is not', null)]))
  const rows = await q.orderBy('v.created_at', 'desc').orderBy('v.id', 'desc').execute()
  return rows.map((r) => ({
    id: r.id,
    role: r.owner_id === userId ? 'owner' : ((r.role as 'manager' | 'staff' | null) ?? 'super_admin'),
  }))
}

/** Recomputes venues.min_price, the lowest hourly price of the venue's live courts (price sort). */
export async function refreshMinPrice(db: Executor, venueId: number): Promise<void> {
  await db
    .updateTable('venues')
    .set((eb) => ({
      min_price: eb
        .selectFrom('courts')
        .select((c) => c.fn.min('price_per_hour').as('p'))
        .where('venue_id', '=', venueId)
        .where('deleted_at', 'is', null)
        .where('is_active', '=', true),
    }))
    .where('id', '=', venueId)
    .execute()
}

/** Ids of live venues whose verification is pending, oldest request first, and their count. */
export async function pendingVerificationIds(
  db: Executor,
  limit: number,
  offset: number,
): Promise<{ ids: number[]; total: number }> {
  const base = db.selectFrom('venues').where('verification_status', '=', 'pending').where('deleted_at', 'is', null)
  const [rows, count] = await Promise.all([
    base.select('id').orderBy('verification_requested_at').orderBy('id').limit(limit).offset(offset).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ])
  return { ids: rows.map((r) => r.id), total: Number(count.n) }
}

/** The owner of a live venue and the user's staff role there (null when not assigned). */
export async function venueOwnerAndStaffRole(db: Executor, venueId: number, userId: number) {
  return db
    .selectFrom('venues')
    .leftJoin('venue_staff as s', (j) => j.onRef('s.venue_id', '=', 'venues.id').on('s.user_id', '=', userId))
    .select(['venues.owner_id', 's.role'])
    .where('venues.id', '=', venueId)
    .where('venues.deleted_at', 'is', null)
    .executeTakeFirst()
}
