import { Type } from 'typebox'
import { pageParams, paginated, pathOf } from '../../lib/pagination.ts'
import { renderedAnswer, sharedCache } from '../../lib/rendered.ts'
import type { RouteApp } from '../../lib/route.ts'
import { conditionalReads, Data, errorResponses, NotModified, Paginated } from '../../lib/schemas.ts'
import { VenueSchema } from '../venues/index.ts'
import { NearbyQuery, VenueListQuery } from './schemas.ts'
import { listVenues, nearbyVenues, showVenue } from './service.ts'

const tags = ['Venues']
/** A CDN may keep a guest's venue answers 30 s, and serve them 30 s more while it asks again. */
const VENUE_CACHE = sharedCache(30, 30)
/** A free-time search changes with every booking: a CDN may keep it 5 s. */
const FREE_TIME_CACHE = sharedCache(5, 5)

// The public catalogue: the venue list with its free-time search, nearby venues, one venue.
export default async function catalogueRoutes(app: RouteApp) {
  const { ctx } = app

  app.get(
    '/venues',
    {
      onRequest: app.auth.optional,
      schema: {
        tags,
        operationId: 'listVenues',
        security: [],
        summary: 'The venue catalogue: search, filters, distance and sort',
        description:
          'Guests and customers see verified, active venues only; venue_owner, manager and staff with a token see ' +
          'only their own venues (any status); super_admin sees every venue and may filter by owner_id. With ' +
          'coordinates (lat|latitude and lng|longitude) the radius defaults to 50 km and each item has distance and ' +
          'distance_km. sort=distance without coordinates falls back to Recommended. With date (and optionally from, ' +
          'to, duration) only venues with a bookable court slot or indoor-game session of that duration starting in ' +
          '[from, to) are listed, each with free_slots (up to 5, earliest first, at the price a customer pays); ' +
          'sort=soonest puts the earliest free start first (without date it is Recommended).' +
          conditionalReads,
        querystring: VenueListQuery,
        response: { 200: Paginated(VenueSchema), 304: NotModified, ...errorResponses },
      },
    },
    // Not async: a cached page is answered within this call (src/lib/rendered.ts), and a guest's
    // answer is then kept whole by the front cache (src/lib/front-cache.ts).
    ctx.front.handler((req, reply) => {
      const page = pageParams(req.query)
      // A guest's page comes from the read cache: its JSON is encoded once per cache entry. The
      // cache key holds the query and page, so only the path of the links can still differ.
      return renderedAnswer(
        reply,
        listVenues(ctx, req.user ?? null, req.query, page),
        pathOf(req.url),
        (found) => paginated(req, ctx.config.appUrl, found.items, found.total, page),
        req.query.date === undefined ? VENUE_CACHE : FREE_TIME_CACHE,
      )
    }),
  )

  app.get(
    '/venues/nearby',
    {
      onRequest: app.auth.optional,
      schema: {
        tags,
        operationId: 'listNearbyVenues',
        security: [],
        summary: 'Public venues near a point (radius default 10 km), nearest first',
        description:
          'With date (and optionally from, to, duration): only venues with a free start in the window, each with ' +
          'free_slots, as GET /venues.' +
          conditionalReads,
        querystring: NearbyQuery,
        response: { 200: Paginated(VenueSchema), 304: NotModified, ...errorResponses },
      },
    },
    ctx.front.handler((req, reply) => {
      const page = pageParams(req.query)
      return renderedAnswer(
        reply,
        nearbyVenues(ctx, req.query, page),
        pathOf(req.url),
        (found) => paginated(req, ctx.config.appUrl, found.items, found.total, page),
        req.query.date === undefined ? VENUE_CACHE : FREE_TIME_CACHE,
      )
    }),
  )

  app.get(
    '/venues/:venue',
    {
      onRequest: app.auth.optional,
      schema: {
        tags,
        operationId: 'getVenue',
        security: [],
        summary: 'One venue by slug or id, with courts, images and amenities',
        description:
          'A venue_owner, manager or staff who neither owns nor is assigned to the venue receives 403; a guest or ' +
          'customer receives 404 for a venue that is not verified and active.' +
          conditionalReads,
        params: Type.Object({ venue: Type.String({ description: 'Venue slug (an id is also accepted)' }) }),
        response: { 200: Data(VenueSchema), 304: NotModified, ...errorResponses },
      },
    },
    ctx.front.handler((req, reply) =>
      renderedAnswer(
        reply,
        showVenue(ctx, req.user ?? null, req.params.venue),
        '',
        (venue) => ({ data: venue }),
        VENUE_CACHE,
      ),
    ),
  )
}
