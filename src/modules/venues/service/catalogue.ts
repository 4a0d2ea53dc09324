import type { Static } from 'typebox'
import type { AuthUser } from '../../../lib/auth.ts'
import { cacheTags } from '../../../lib/cache-tags.ts'
import type { AppContext } from '../../../lib/context.ts'
import { Invalid, NotFound } from '../../../lib/errors.ts'
import type { PageParams } from '../../../lib/pagination.ts'
import { assertCanShowVenue, catalogueScope } from '../policy.ts'
import { loadVenueResource, loadVenueResources } from '../queries.ts'
import { taxIdentities } from '../repository/manage.ts'
import { type CatalogueFilter, type Geo, myVenueRoles, resolveVenue, searchVenues } from '../repository.ts'
import type { MyVenue, Venue } from '../resource.ts'
import { type NearbyQuery, SORTS, type VenueListQuery } from '../schemas.ts'

const DEFAULT_LIST_RADIUS_KM = 50
const DEFAULT_NEARBY_RADIUS_KM = 10

type ListQuery = Static<typeof VenueListQuery>

function geoOf(q: ListQuery): Geo | undefined {
  const lat = q.lat ?? q.latitude
  const lng = q.lng ?? q.longitude
  if (lat === undefined && lng === undefined) return undefined
  if (lat === undefined) throw new Invalid('latitude', 'The latitude field is required when longitude is present.')
  if (lng === undefined) throw new Invalid('longitude', 'The longitude field is required when latitude is present.')
  return { lat, lng, radiusKm: q.radius ?? DEFAULT_LIST_RADIUS_KM }
}

function sortOf(value: string | undefined): CatalogueFilter['sort'] {
  if (value === undefined || value === '') return 'recommended'
  const sort = value.trim().toLowerCase() as CatalogueFilter['sort']
  if (!SORTS.includes(sort)) throw new Invalid('sort', 'The selected sort is invalid.')
  return sort
}

async function page(
  ctx: AppContext,
  filter: Omit<CatalogueFilter, 'limit' | 'offset'>,
  params: PageParams,
): Promise<{ items: Venue[]; total: number }> {
  const { rows, total } = await searchVenues(ctx.db, { ...filter, limit: params.perPage, offset: params.offset })
  const distances = new Map<number, number>()
  for (const r of rows) if (r.distance !== null) distances.set(r.id, r.distance)
  const items = await loadVenueResources(
    ctx,
    rows.map((r) => r.id),
    { distances },
  )
  return { items, total }
}

/** GET /venues: one page of the catalogue as the caller may see it, filtered and sorted, and the total. */
export function listVenues(ctx: AppContext, user: AuthUser | null, q: ListQuery, params: PageParams) {
  const scope = catalogueScope(user)
  // Guests and customers all see the same public catalogue: one cached page per query (a held page
  // is answered without a promise).
  if (scope.kind === 'public') {
    return ctx.cache.read(
      `catalogue:list:${JSON.stringify([q, params])}`,
      () => listScoped(ctx, scope, q, params),
      () => ({ tags: [cacheTags.catalogue] }),
    )
  }
  return listScoped(ctx, scope, q, params)
}

function listScoped(ctx: AppContext, scope: ReturnType<typeof catalogueScope>, q: ListQuery, params: PageParams) {
  return page(
    ctx,
    {
      scope,
      search: q.search?.trim() || undefined,
      city: q.city?.trim() || undefined,
      sport: (q.sport ?? q.court_type)?.trim() || undefined,
      isVerified: q.is_verified === undefined ? undefined : q.is_verified === '1' || q.is_verified === 'true',
      // owner_id is honoured for super_admin only.
      ownerId: scope.kind === 'all' ? q.owner_id : undefined,
      geo: geoOf(q),
      sort: sortOf(q.sort),
    },
    params,
  )
}

/** GET /venues/nearby: public venues within the radius (default 10 km), nearest first. */
export function nearbyVenues(ctx: AppContext, q: Static<typeof NearbyQuery>, params: PageParams) {
  return ctx.cache.read(
    `catalogue:nearby:${JSON.stringify([q, params])}`,
    () => nearbyPage(ctx, q, params),
    () => ({ tags: [cacheTags.catalogue] }),
  )
}

function nearbyPage(ctx: AppContext, q: Static<typeof NearbyQuery>, params: PageParams) {
  return page(
    ctx,
    {
      scope: { kind: 'public' },
      geo: { lat: q.latitude, lng: q.longitude, radiusKm: q.radius ?? DEFAULT_NEARBY_RADIUS_KM },
      sort: 'distance',
    },
    params,
  )
}

/**
 * GET /venues/my-venues: every venue the caller owns or works at (all for super_admin), any status,
 * each with my_role, the caller's role there.
 */
export async function myVenues(ctx: AppContext, user: AuthUser): Promise<MyVenue[]> {
  const roles = await myVenueRoles(ctx.db, user.id, user.roles.includes('super_admin'))
  const venues = await loadVenueResources(
    ctx,
    roles.map((r) => r.id),
  )
  const roleOf = new Map(roles.map((r) => [r.id, r.role]))
  // The tax identity to those who manage the venue (not its staff).
  const identities = await taxIdentities(
    ctx.db,
    venues.filter((v) => roleOf.get(v.id) !== 'staff').map((v) => v.id),
  )
  return venues.map((v) => ({ ...v, ...identities.get(v.id), my_role: roleOf.get(v.id) ?? 'super_admin' }))
}

/** GET /venues/{slug}: a venue by slug or id, with courts, images and amenities. */
export function showVenue(ctx: AppContext, user: AuthUser | null, key: string): Venue | Promise<Venue> {
  // Guests and customers see the same public venue (hidden ones are 404 for them, never cached); a
  // held one is answered without a promise.
  if (catalogueScope(user).kind === 'public') {
    return ctx.cache.read(
      `catalogue:show:${key}`,
      () => loadShown(ctx, user, key),
      () => ({ tags: [cacheTags.catalogue] }),
    )
  }
  return loadShown(ctx, user, key)
}

async function loadShown(ctx: AppContext, user: AuthUser | null, key: string): Promise<Venue> {
  const venue = await resolveVenue(ctx.db, key)
  if (!venue) throw new NotFound()
  await assertCanShowVenue(ctx.db, user, venue)
  const resource = await loadVenueResource(ctx, venue.id)
  if (!resource) throw new NotFound()
  return resource
}
