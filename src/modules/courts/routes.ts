import { Type } from 'typebox'
import { signedIn } from '../../lib/auth.ts'
import { NotFound } from '../../lib/errors.ts'
import type { Routes } from '../../lib/route.ts'
import { Data, errorResponses, flagOn, Message } from '../../lib/schemas.ts'
import { MANAGER_ROLES, resolveVenue, venueAccessFirst } from '../venues/index.ts'
import { courtAccessFirst } from './hooks.ts'
import { CourtSchema } from './resource.ts'
import { CourtCreateBody, CourtListQuery, CourtUpdateBody } from './schemas.ts'
import { courtForViewer, courtResource, createCourt, deleteCourt, updateCourt, venueCourts } from './service/courts.ts'
import timetableRoutes from './timetable-routes.ts'

const tags = ['Courts']
const security = [{ bearer: [] }]
const CourtParams = Type.Object({ court: Type.String() })
const VenueParams = Type.Object({ venue: Type.String({ description: 'Venue id (a slug is also accepted)' }) })

const routes: Routes = async (app) => {
  const { ctx } = app

  app.get(
    '/venues/:venue/courts',
    {
      onRequest: app.auth.optional,
      schema: {
        tags,
        operationId: 'listVenueCourts',
        security: [],
        summary: 'The active courts of a venue, with sport, price_per_hour and starting_price',
        description:
          "Guests and customers see the active courts of a public venue. With include_inactive=1 (or true) the venue's " +
          'owner, managers, staff and super_admin also see deactivated courts (is_active false), so they can ' +
          'reactivate them; for anyone else the parameter is ignored.',
        params: VenueParams,
        querystring: CourtListQuery,
        response: { 200: Data(Type.Array(CourtSchema)), ...errorResponses },
      },
    },
    async (req) => {
      const venue = await resolveVenue(ctx.db, req.params.venue)
      if (!venue) throw new NotFound()
      return { data: await venueCourts(ctx, req.user ?? null, venue, flagOn(req.query.include_inactive)) }
    },
  )

  app.post(
    '/venues/:venue/courts',
    {
      onRequest: app.auth.required,
      preValidation: venueAccessFirst(ctx, MANAGER_ROLES),
      schema: {
        tags,
        security,
        operationId: 'createCourt',
        summary: 'Add a court to the venue (owner, manager)',
        params: VenueParams,
        body: CourtCreateBody,
        response: { 201: Data(CourtSchema), ...errorResponses },
      },
    },
    async (req, reply) =>
      reply.code(201).send({ data: await createCourt(ctx, signedIn(req), req.params.venue, req.body) }),
  )

  app.get(
    '/courts/:court',
    {
      onRequest: app.auth.optional,
      schema: {
        tags,
        operationId: 'getCourt',
        security: [],
        summary: 'One court with sport, images, schedules and pricing (active court of a visible venue)',
        params: CourtParams,
        response: { 200: Data(CourtSchema), ...errorResponses },
      },
    },
    async (req) => {
      const court = await courtForViewer(ctx, req.user ?? null, req.params.court)
      return { data: await courtResource(ctx, court.id) }
    },
  )

  for (const method of ['PUT', 'PATCH'] as const) {
    app.route({
      method,
      url: '/courts/:court',
      onRequest: app.auth.required,
      preValidation: courtAccessFirst(ctx, MANAGER_ROLES),
      schema: {
        tags,
        security,
        operationId: method === 'PUT' ? 'updateCourt' : 'patchCourt',
        summary: 'Update a court (owner, manager); partial',
        params: CourtParams,
        body: CourtUpdateBody,
        response: { 200: Data(CourtSchema), ...errorResponses },
      },
      handler: async (req) => ({ data: await updateCourt(ctx, signedIn(req), req.params.court, req.body) }),
    })
  }

  app.delete(
    '/courts/:court',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'deleteCourt',
        summary: 'Delete a court (owner, manager): soft delete; 409 while upcoming confirmed bookings exist',
        params: CourtParams,
        response: { 200: Message, 409: Message, ...errorResponses },
      },
    },
    async (req) => {
      await deleteCourt(ctx, signedIn(req), req.params.court)
      return { message: 'Court deleted.' }
    },
  )

  await timetableRoutes(app)
}

export default routes
