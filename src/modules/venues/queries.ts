import type { AppContext } from '../../lib/context.ts'
import type { Executor } from '../../lib/db.ts'
import { type Venue, venueImage, venueResource } from './resource.ts'

// Read models of venues: the batch loader that builds the contract's VenueResource.

const venueColumns = [
  'id',
  'name',
  'name_ne',
  'slug',
  'description',
  'phone',
  'email',
  'address',
  'address_ne',
  'city',
  'state',
  'latitude',
  'longitude',
  'opening_time',
  'closing_time',
  'is_active',
  'free_cancellation_hours',
  'booking_window_days',
  'min_notice_minutes',
  'max_hours_per_day',
  'no_show_limit',
  'allows_pay_at_venue',
  'verification_status',
  'verification_requested_at',
  'verification_reviewed_at',
  'verification_note',
  'reviews_avg_rating',
  'reviews_count',
  'min_price',
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
      .select(['va.venue_id', 'a.id', 'a.name', 'a.name_ne', 'a.icon'])
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
  for (const a of amenities)
    byId.get(a.venue_id)?.amenities.push({ id: a.id, name: a.name, name_ne: a.name_ne, icon: a.icon })
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
