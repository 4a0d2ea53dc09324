import type { FastifyRequest } from 'fastify'
import type { Static } from 'typebox'
import type { AuthUser } from '../../../lib/auth.ts'
import { cacheTags } from '../../../lib/cache-tags.ts'
import type { AppContext } from '../../../lib/context.ts'
import { Invalid, NotFound } from '../../../lib/errors.ts'
import { pageParams, paginated } from '../../../lib/pagination.ts'
import { assertCanShowVenue, catalogueScope } from '../policy.ts'
import { type CatalogueFilter, type Geo, ownVenueIds, resolveVenue, searchVenues } from '../repository.ts'
import { loadVenueResource, loadVenueResources, type Venue } from '../resource.ts'
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
  req: FastifyRequest,
  filter: Omit<CatalogueFilter, 'limit' | 'offset'>,
  q: { page?: number; per_page?: number },
) {
  const params = pageParams(q)
  const { rows, total } = await searchVenues(ctx.db, { ...filter, limit: params.perPage, offset: params.offset })
  const distances = new Map<number, number>()
  for (const r of rows) if (r.distance !== null) distances.set(r.id, r.distance)
  const items = await loadVenueResources(
    ctx,
    rows.map((r) => r.id),
    { distances },
  )
  return paginated(req, ctx.config.appUrl, items, total, params)
}

/** GET /venues: the catalogue as the caller may see it, filtered, sorted and paginated. */
export async function listVenues(ctx: AppContext, req: FastifyRequest, user: AuthUser | null, q: ListQuery) {
  const scope = catalogueScope(user)
  // Guests and customers all see the same public catalogue: one cached page per URL.
  if (scope.kind === 'public') {
    return ctx.cache.through(
      `catalogue:list:${req.url}`,
      () => listScoped(ctx, req, scope, q),
      () => ({ tags: [cacheTags.catalogue] }),
    )
  }
  return listScoped(ctx, req, scope, q)
}

function listScoped(ctx: AppContext, req: FastifyRequest, scope: ReturnType<typeof catalogueScope>, q: ListQuery) {
  return page(
    ctx,
    req,
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
    q,
  )
}

/** GET /venues/nearby: public venues within the radius (default 10 km), nearest first. */
export async function nearbyVenues(ctx: AppContext, req: FastifyRequest, q: Static<typeof NearbyQuery>) {
  return ctx.cache.through(
    `catalogue:nearby:${req.url}`,
    () => nearbyPage(ctx, req, q),
    () => ({ tags: [cacheTags.catalogue] }),
  )
}

function nearbyPage(ctx: AppContext, req: FastifyRequest, q: Static<typeof NearbyQuery>) {
  return page(
    ctx,
    req,
    {
      scope: { kind: 'public' },
      geo: { lat: q.latitude, lng: q.longitude, radiusKm: q.radius ?? DEFAULT_NEARBY_RADIUS_KM },
      sort: 'distance',
    },
    q,
  )
}

/** GET /venues/my-venues: every venue the caller owns or works at (all for super_admin), any status. */
export async function myVenues(ctx: AppContext, user: AuthUser): Promise<Venue[]> {
  const ids = await ownVenueIds(ctx.db, user.roles.includes('super_admin') ? 'all' : { userId: user.id })
  return loadVenueResources(ctx, ids)
}

/** GET /venues/{slug}: a venue by slug or id, with courts, images and amenities. */
export async function showVenue(ctx: AppContext, user: AuthUser | null, key: string): Promise<Venue> {
  // Guests and customers see the same public venue (hidden ones are 404 for them, never cached).
  if (catalogueScope(user).kind === 'public') {
    return ctx.cache.through(
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
