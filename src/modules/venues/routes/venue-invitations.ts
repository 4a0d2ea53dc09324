import { Type } from 'typebox'
import { signedIn } from '../../../lib/auth.ts'
import type { RouteApp } from '../../../lib/route.ts'
import { Data, errorResponses, Message } from '../../../lib/schemas.ts'
import { InvitationIdParams, InvitationSchema } from '../schemas.ts'
import {
  acceptAsMember,
  listInvitations,
  myInvitations,
  resendInvitation,
  withdrawInvitation,
} from '../service/membership.ts'

// Invitations after they are sent (issue 51; docs/catalogue.md, "Staff invitations"): the owner's
// list, resend and withdraw, and an existing account's own pending invitations and accepting one.

const tags = ['Venue staff']
const security = [{ bearer: [] }]
const VenueParams = Type.Object({ venue: Type.String({ description: 'Venue id or slug' }) })
const MyInvitationParams = Type.Object({ invitation: Type.String({ description: 'Invitation id' }) })

export default async function venueInvitationRoutes(app: RouteApp) {
  const { ctx } = app

  app.get(
    '/venues/:venue/invitations',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'listVenueInvitations',
        summary: 'Invitations not accepted yet, pending or expired, newest first (owner, super_admin)',
        params: VenueParams,
        response: { 200: Data(Type.Array(InvitationSchema)), ...errorResponses },
      },
    },
    async (req) => ({ data: await listInvitations(ctx, signedIn(req), req.params.venue) }),
  )

  app.post(
    '/venues/:venue/invitations/:invitation/resend',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'resendVenueInvitation',
        summary: 'Mail an invitation again with a new link, valid 7 more days (owner, super_admin)',
        description:
          'The old link stops working (404). An existing account is notified again. An accepted invitation is ' +
          '409; an unknown one, or another venue’s, 404.',
        params: InvitationIdParams,
        response: { 200: Data(InvitationSchema), 409: Message, ...errorResponses },
      },
    },
    async (req) => ({
      data: await resendInvitation(ctx, signedIn(req), req.params.venue, req.params.invitation),
    }),
  )

  app.delete(
    '/venues/:venue/invitations/:invitation',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'withdrawVenueInvitation',
        summary: 'Withdraw an invitation not accepted yet (owner, super_admin)',
        description: 'Its link then answers 404. An accepted invitation is 409; an unknown one 404.',
        params: InvitationIdParams,
        response: { 200: Message, 409: Message, ...errorResponses },
      },
    },
    async (req) => {
      await withdrawInvitation(ctx, signedIn(req), req.params.venue, req.params.invitation)
      return { message: 'Invitation withdrawn.' }
    },
  )

  app.get(
    '/me/invitations',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'listMyInvitations',
        summary: 'The signed-in user’s pending staff invitations (to their email, not expired)',
        response: { 200: Data(Type.Array(InvitationSchema)), ...errorResponses },
      },
    },
    async (req) => ({ data: await myInvitations(ctx, signedIn(req)) }),
  )

  app.post(
    '/me/invitations/:invitation/accept',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'acceptMyInvitation',
        summary: 'Accept a staff invitation to your email: become manager or staff of the venue',
        description:
          'Only the account with the invited email; someone else’s or an unknown invitation is 404. Accepted ' +
          'or expired 410; the venue’s owner 422. A role held at the venue before is replaced.',
        params: MyInvitationParams,
        response: { 200: Data(InvitationSchema), 410: Message, ...errorResponses },
      },
    },
    async (req) => ({ data: await acceptAsMember(ctx, signedIn(req), req.params.invitation) }),
  )
}
