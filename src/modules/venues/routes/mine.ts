import { Type } from 'typebox'
import { signedIn } from '../../../lib/auth.ts'
import type { RouteApp } from '../../../lib/route.ts'
import { errorResponses } from '../../../lib/schemas.ts'
import { MyVenueSchema } from '../resource.ts'
import { myVenues } from '../service/mine.ts'

const tags = ['Venues']
const security = [{ bearer: [] }]

export default async function myVenueRoutes(app: RouteApp) {
  const { ctx } = app

  app.get(
    '/venues/my-venues',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'listMyVenues',
        summary: 'Every venue the caller owns or is assigned to, any status (all venues for super_admin)',
        description:
          'Each item is a Venue plus my_role, what the caller is at that venue: "owner", "manager" or "staff" ' +
          '(owner wins over an assignment), or "super_admin" for a super_admin who neither owns nor is assigned to it. ' +
          'Clients decide from my_role which management screens to offer: owners and managers manage courts, ' +
          'schedules, pricing, holidays, coupons and details; only owners manage staff and verification.',
        response: { 200: Type.Array(MyVenueSchema), ...errorResponses },
      },
    },
    async (req) => myVenues(ctx, signedIn(req)),
  )
}
