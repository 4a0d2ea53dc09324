import type { FastifyInstance } from 'fastify'
import { Type } from 'typebox'
import { NotFound } from '../../lib/errors.ts'
import { Data, errorResponses, Message } from '../../lib/schemas.ts'
import { findVenueByKey } from '../venues/repository.ts'
import { venueAccessFirst } from '../venues/service/manage.ts'
import { CourtSchema } from './resource.ts'
import { CourtCreateBody, CourtUpdateBody } from './schemas.ts'
import {
  courtAccessFirst,
  courtForViewer,
  courtResource,
  createCourt,
  deleteCourt,
  updateCourt,
  venueCourts,
} from './service/courts.ts'
import timetableRoutes from './timetable-routes.ts'

const tags = ['Courts']
const security = [{ bearer: [] }]
const CourtParams = Type.Object({ court: Type.String() })
type P = { court: string; venue: string }

export default async function routes(app: FastifyInstance) {
  const { ctx } = app
  const params = (req: { params: unknown }) => req.params as P

  app.get(
    '/venues/:venue/courts',
    {
      onRequest: app.auth.optional,
      schema: {
        tags,
        summary: 'The active courts of a venue, with sport, price_per_hour and starting_price',
        params: Type.Object({ venue: Type.String({ description: 'Venue id (a slug is also accepted)' }) }),
        response: { 200: Data(Type.Array(CourtSchema)), ...errorResponses },
      },
    },
    async (req) => {
      const venue = await findVenueByKey(ctx.db, params(req).venue)
      if (!venue) throw new NotFound()
      return { data: await venueCourts(ctx, req.user ?? null, venue) }
    },
  )

  app.post(
    '/venues/:venue/courts',
    {
      onRequest: app.auth.required,
      preValidation: venueAccessFirst(ctx, ['owner', 'manager']),
      schema: {
        tags,
        security,
        summary: 'Add a court to the venue (owner, manager)',
        params: Type.Object({ venue: Type.String() }),
        body: CourtCreateBody,
        response: { 201: Data(CourtSchema), ...errorResponses },
      },
    },
    async (req, reply) =>
      reply.code(201).send({ data: await createCourt(ctx, req.user!, params(req).venue, req.body as never) }),
  )

  app.get(
    '/courts/:court',
    {
      onRequest: app.auth.optional,
      schema: {
        tags,
        summary: 'One court with sport, images, schedules and pricing (active court of a visible venue)',
        params: CourtParams,
        response: { 200: Data(CourtSchema), ...errorResponses },
      },
    },
    async (req) => {
      const court = await courtForViewer(ctx, req.user ?? null, params(req).court)
      return { data: await courtResource(ctx, court.id) }
    },
  )

  for (const method of ['PUT', 'PATCH'] as const) {
    app.route({
      method,
      url: '/courts/:court',
      onRequest: app.auth.required,
      preValidation: courtAccessFirst(ctx, ['owner', 'manager']),
      schema: {
        tags,
        security,
        summary: 'Update a court (owner, manager); partial',
        params: CourtParams,
        body: CourtUpdateBody,
        response: { 200: Data(CourtSchema), ...errorResponses },
      },
      handler: async (req) => ({ data: await updateCourt(ctx, req.user!, params(req).court, req.body as never) }),
    })
  }

  app.delete(
    '/courts/:court',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        summary: 'Delete a court (owner, manager): soft delete; 409 while upcoming confirmed bookings exist',
        params: CourtParams,
        response: { 200: Message, 409: Message, ...errorResponses },
      },
    },
    async (req) => {
      await deleteCourt(ctx, req.user!, params(req).court)
      return { message: 'Court deleted.' }
    },
  )

  await timetableRoutes(app)
}
