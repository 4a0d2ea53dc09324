import { Type } from 'typebox'
import { signedIn } from '../../../lib/auth.ts'
import { pageParams, paginated } from '../../../lib/pagination.ts'
import type { RouteApp } from '../../../lib/route.ts'
import { errorResponses, PageQuery, Paginated } from '../../../lib/schemas.ts'
import { VenueSchema } from '../resource.ts'
import { VerificationRejectBody, VerificationRequestBody } from '../schemas.ts'
import {
  approveVerification,
  pendingRequests,
  rejectVerification,
  requestVerification,
} from '../service/verification.ts'

const tags = ['Venue verification']
const security = [{ bearer: [] }]
const VenueParams = Type.Object({ venue: Type.String({ description: 'Venue id or slug' }) })
const Result = Type.Object({ message: Type.String(), data: VenueSchema })
// Refusals of a transition are 422 with a message only; field validation adds errors.
const Refused = Type.Object({
  message: Type.String(),
  errors: Type.Optional(Type.Record(Type.String(), Type.Array(Type.String()))),
})

export default async function verificationRoutes(app: RouteApp) {
  const { ctx } = app

  app.post(
    '/venues/:venue/verification/request',
    {
      onRequest: app.auth.roles('venue_owner', 'super_admin'),
      schema: {
        tags,
        security,
        operationId: 'requestVenueVerification',
        summary: 'Submit the venue for verification (its venue_owner): unverified|rejected → pending',
        description: '422 when the venue is already pending or verified, with a message saying which.',
        params: VenueParams,
        body: VerificationRequestBody,
        response: { 200: Result, ...errorResponses, 422: Refused },
      },
    },
    async (req) => {
      const body = req.body
      const data = await requestVerification(ctx, signedIn(req), req.params.venue, body.note)
      return { message: 'Verification request submitted.', data }
    },
  )

  app.get(
    '/admin/venues/verification-requests',
    {
      onRequest: app.auth.roles('super_admin'),
      schema: {
        tags,
        security,
        operationId: 'listVerificationRequests',
        summary: 'Venues whose verification is pending, oldest request first',
        querystring: PageQuery,
        response: { 200: Paginated(VenueSchema), ...errorResponses },
      },
    },
    async (req) => {
      const page = pageParams(req.query)
      const { items, total } = await pendingRequests(ctx, page)
      return paginated(req, ctx.config.appUrl, items, total, page)
    },
  )

  app.post(
    '/admin/venues/:venue/verification/approve',
    {
      onRequest: app.auth.roles('super_admin'),
      schema: {
        tags,
        security,
        operationId: 'approveVenueVerification',
        summary: 'Approve a pending verification request: pending → verified',
        params: VenueParams,
        response: { 200: Result, ...errorResponses, 422: Refused },
      },
    },
    async (req) => ({
      message: 'Venue verified.',
      data: await approveVerification(ctx, req.params.venue),
    }),
  )

  app.post(
    '/admin/venues/:venue/verification/reject',
    {
      onRequest: app.auth.roles('super_admin'),
      schema: {
        tags,
        security,
        operationId: 'rejectVenueVerification',
        summary: 'Reject a pending verification request: pending → rejected (optional reason)',
        params: VenueParams,
        body: VerificationRejectBody,
        response: { 200: Result, ...errorResponses, 422: Refused },
      },
    },
    async (req) => ({
      message: 'Verification request rejected.',
      data: await rejectVerification(ctx, req.params.venue, req.body.reason),
    }),
  )
}
