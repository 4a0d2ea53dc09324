import { Type } from 'typebox'
import { signedIn } from '../../lib/auth.ts'
import { pathId } from '../../lib/ids.ts'
import type { Routes } from '../../lib/route.ts'
import { Data, errorResponses, Nullable } from '../../lib/schemas.ts'
import { clearNoShows, NO_SHOW_DAYS, noShowStanding } from '../booking-core/index.ts'
import { VenueParams } from './schemas.ts'
import { deskVenue } from './service.ts'

// A customer's no-show strikes at a venue (docs/bookings.md, "No-shows"): with the venue's
// no_show_limit of no-shows there in the last 90 days a customer may book only by paying online at
// once. The desk reads the standing and clears it; a clearing is recorded, never deletes history.

const tags = ['Front desk']
const security = [{ bearer: [] }]

const NoShowStandingSchema = Type.Object(
  {
    venue_id: Type.Integer(),
    user_id: Type.Integer(),
    no_shows: Type.Integer({
      description: `No-shows at the venue in the last ${NO_SHOW_DAYS} days, since the latest clearing`,
    }),
    no_show_limit: Nullable(Type.Integer({ description: "The venue's setting; null: no limit" })),
    restricted: Type.Boolean({ description: 'true: the customer may book here only by paying online at once' }),
    cleared_at: Nullable(Type.String({ description: 'The latest clearing, YYYY-MM-DD HH:mm:ss venue time' })),
  },
  { $id: 'NoShowStanding' },
)

const Params = Type.Object({
  venue: VenueParams.properties.venue,
  user: Type.String({ description: "The customer's user id" }),
})

const routes: Routes = async (app) => {
  const { ctx } = app

  app.get(
    '/venues/:venue/customers/:user/no-shows',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'getCustomerNoShows',
        summary: "A customer's no-show strikes at the venue (owner, manager, staff)",
        params: Params,
        response: { 200: Data(NoShowStandingSchema), ...errorResponses },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store')
      const venue = await deskVenue(ctx, signedIn(req), req.params.venue)
      return { data: await noShowStanding(ctx, ctx.db, venue.id, pathId(req.params.user)) }
    },
  )

  app.delete(
    '/venues/:venue/customers/:user/no-shows',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'clearCustomerNoShows',
        summary: "Clear a customer's no-show strikes at the venue (owner, manager, staff)",
        description:
          'Records the clearing (who, when, how many); the no-show bookings stay as they are and only ' +
          'no-shows of bookings that start after it count again. 404 for an unknown user.',
        params: Params,
        response: { 200: Type.Object({ message: Type.String(), data: NoShowStandingSchema }), ...errorResponses },
      },
    },
    async (req) => {
      const user = signedIn(req)
      const venue = await deskVenue(ctx, user, req.params.venue)
      const { cleared, standing } = await clearNoShows(ctx, venue.id, pathId(req.params.user), user.id)
      return {
        message: `${cleared} no-show${cleared === 1 ? '' : 's'} cleared.`,
        data: standing,
      }
    },
  )
}

export default routes
