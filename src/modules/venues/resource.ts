import { type Static, Type } from 'typebox'
import type { AppContext } from '../../lib/context.ts'
import type { Executor } from '../../lib/db.ts'
import { DateTime, Nullable } from '../../lib/schemas.ts'
import type { Storage } from '../../lib/storage.ts'
import type { Zone } from '../../lib/zone.ts'

// The contract's VenueResource (and the {id, name, slug} summary other resources embed), with the
// one batch loader that builds it. Other features embed venues only through this file.

export const VenueSummarySchema = Type.Object({ id: Type.Integer(), name: Type.String(), slug: Type.String() })
export type VenueSummary = Static<typeof VenueSummarySchema>

export function venueSummary(v: { id: number; name: string; slug: string }): VenueSummary {
  return { id: v.id, name: v.name, slug: v.slug }
}

export const VenueImageSchema = Type.Object({
  id: Type.Integer({ description: 'Media id, used to delete' }),
  url: Type.String(),
  thumb_url: Type.String(),
  is_primary: Type.Boolean({ description: 'true for the thumbnail collection' }),
  collection: Type.String({ description: 'thumbnail or gallery' }),
  sort_order: Nullable(Type.Integer()),
})
export type VenueImage = Static<typeof VenueImageSchema>

export const AmenitySchema = Type.Object({ id: Type.Integer(), name: Type.String(), icon: Nullable(Type.String()) })

export const VenueCourtSummarySchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  type: Type.String(),
  description: Nullable(Type.String()),
  capacity: Type.Integer(),
  is_active: Type.Boolean(),
})

export const VenueSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  slug: Type.String(),
  description: Nullable(Type.String()),
  phone: Nullable(Type.String()),
  email: Nullable(Type.String()),
  address: Type.String(),
  city: Type.String(),
  state: Type.String(),
  latitude: Type.String({ description: 'Decimal string' }),
  longitude: Type.String({ description: 'Decimal string' }),
  opening_time: Type.String({ description: 'HH:mm:ss' }),
  closing_time: Type.String({ description: 'HH:mm:ss' }),
  is_active: Type.Boolean(),
  free_cancellation_hours: Type.Integer({
    description: 'A customer who cancels at least this many hours before the start is refunded (0–720)',
  }),
  is_verified: Type.Boolean(),
  verification_status: Type.String({ description: 'unverified, pending, verified or rejected' }),
  verification_requested_at: Nullable(DateTime),
  verification_reviewed_at: Nullable(DateTime),
  verification_note: Nullable(Type.String()),
  distance: Nullable(Type.String({ description: 'e.g. "2.35 km"; null unless coordinates were sent' })),
  distance_km: Type.Optional(Type.Number({ description: 'Present when coordinates were sent' })),
  currency: Type.String(),
  currency_symbol: Type.String(),
  thumbnail: Nullable(VenueImageSchema),
  gallery: Type.Array(VenueImageSchema),
  images: Type.Array(VenueImageSchema, { description: 'Thumbnail plus gallery (legacy)' }),
  amenities: Type.Array(AmenitySchema),
  courts: Type.Array(VenueCourtSummarySchema),
  courts_count: Nullable(Type.Integer()),
  reviews_avg_rating: Nullable(Type.Number({ description: 'Rounded to 1 decimal' })),
  reviews_count: Nullable(Type.Integer()),
  created_at: DateTime,
})
export type Venue = Static<typeof VenueSchema>

export interface VenueRow {
  id: number
  name: string
  slug: string
  description: string | null
  phone: string | null
  email: string | null
  address: string
  city: string
  state: string
  latitude: string
  longitude: string
  opening_time: string
  closing_time: string
  is_active: boolean
  free_cancellation_hours: number
  verification_status: string
  verification_requested_at: Date | null
  verification_reviewed_at: Date | null
  verification_note: string | null
  reviews_avg_rating: string | null
  reviews_count: number
  created_at: Date
}

/** A venue row without relations (empty images, amenities and courts). */
export function venueResource(v: VenueRow, zone: Zone, distanceKm?: number | null): Venue {
  const out: Venue = {
    id: v.id,
    name: v.name,
    slug: v.slug,
    description: v.description,
    phone: v.phone,
    email: v.email,
    address: v.address,
    city: v.city,
    state: v.state,
    latitude: String(v.latitude),
    longitude: String(v.longitude),
    opening_time: v.opening_time,
    closing_time: v.closing_time,
    is_active: v.is_active,
    free_cancellation_hours: v.free_cancellation_hours,
    is_verified: v.verification_status === 'verified',
    verification_status: v.verification_status,
    verification_requested_at: zone.format(v.verification_requested_at),
    verification_reviewed_at: zone.format(v.verification_reviewed_at),
    verification_note: v.verification_note,
    distance: null,
    currency: 'NPR',
    currency_symbol: 'Rs',
    thumbnail: null,
    gallery: [],
    images: [],
    amenities: [],
    courts: [],
    courts_count: 0,
    reviews_avg_rating: v.reviews_avg_rating === null ? null : Math.round(Number(v.reviews_avg_rating) * 10) / 10,
    reviews_count: v.reviews_count,
    created_at: zone.format(v.created_at)!,
  }
  if (distanceKm !== undefined && distanceKm !== null) {
    const km = Math.round(distanceKm * 100) / 100
    out.distance = `${km.toFixed(2)} km`
    out.distance_km = km
  }
  return out
}

export function venueImage(
  storage: Storage,
  m: { id: number; path: string; collection: string; sort_order: number | null },
): VenueImage {
  const url = storage.url(m.path)!
  return {
    id: m.id,
    url,
    thumb_url: url,
    is_primary: m.collection === 'thumbnail',
    collection: m.collection,
    sort_order: m.sort_order,
  }
}

const venueColumns = [
  'id',
  'name',
  'slug',
  'description',
  'phone',
  'email',
  'address',
  'city',
  'state',
  'latitude',
  'longitude',
  'opening_time',
  'closing_time',
  'is_active',
  'free_cancellation_hours',
  'verification_status',
  'verification_requested_at',
  'verification_reviewed_at',
  'verification_note',
  'reviews_avg_rating',
  'reviews_count',
  'created_at',
] as const

/**
 * Venues by id with images, amenities and active courts, in the order of `ids`. Soft-deleted
 * venues are included (bookings keep showing them); unknown ids are skipped. `distances` (km by
 * venue id) fills distance and distance_km.
 */
export async function loadVenueResources(
  ctx: Pick<AppContext, 'db' | 'storage' | 'zone'>,
  ids: number[],
  opts: { distances?: Map<number, number>; db?: Executor } = {},
): Promise<Venue[]> {
  if (ids.length === 0) return []
  const db = opts.db ?? ctx.db
  const unique = [...new Set(ids)]
  const [rows, media, amenities, courts] = await Promise.all([
    db.selectFrom('venues').select(venueColumns).where('id', 'in', unique).execute(),
    db
      .selectFrom('media')
      .select(['id', 'model_id', 'path', 'collection', 'sort_order'])
      .where('model_type', '=', 'venue')
      .where('model_id', 'in', unique)
      .orderBy('sort_order')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('venue_amenities as va')
      .innerJoin('amenities as a', 'a.id', 'va.amenity_id')
      .select(['va.venue_id', 'a.id', 'a.name', 'a.icon'])
      .where('va.venue_id', 'in', unique)
      .orderBy('a.id')
      .execute(),
    db
      .selectFrom('courts')
      .select(['id', 'venue_id', 'name', 'type', 'description', 'capacity', 'is_active'])
      .where('venue_id', 'in', unique)
      .where('deleted_at', 'is', null)
      .where('is_active', '=', true)
      .orderBy('id')
      .execute(),
  ])
  const byId = new Map<number, Venue>()
  for (const r of rows) byId.set(r.id, venueResource(r, ctx.zone, opts.distances?.get(r.id)))
  for (const m of media) {
    const v = byId.get(m.model_id)
    if (!v) continue
    const img = venueImage(ctx.storage, m)
    if (m.collection === 'thumbnail') v.thumbnail ??= img
    else v.gallery.push(img)
  }
  for (const v of byId.values()) v.images = v.thumbnail ? [v.thumbnail, ...v.gallery] : [...v.gallery]
  for (const a of amenities) byId.get(a.venue_id)?.amenities.push({ id: a.id, name: a.name, icon: a.icon })
  for (const c of courts) {
    const { venue_id, ...court } = c
    byId.get(venue_id)?.courts.push(court)
  }
  for (const v of byId.values()) v.courts_count = v.courts.length
  return ids.map((id) => byId.get(id)).filter((v): v is Venue => v !== undefined)
}

/** One venue resource by id, or null. */
export async function loadVenueResource(
  ctx: Pick<AppContext, 'db' | 'storage' | 'zone'>,
  id: number,
  opts: { db?: Executor } = {},
): Promise<Venue | null> {
  const [v] = await loadVenueResources(ctx, [id], opts)
  return v ?? null
}
