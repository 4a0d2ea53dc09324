import { issueToken } from '../../../lib/auth.ts'
import { requestLocale } from '../../../lib/i18n/index.ts'
import type { RouteApp } from '../../../lib/route.ts'
import { Data, errorResponses, Message } from '../../../lib/schemas.ts'
import { AcceptInvitationBody, AcceptInvitationResponse, InvitationParams, InvitationSchema } from '../schemas.ts'
import { acceptInvitation, invitedUser, showInvitation } from '../service/invitations.ts'

const tags = ['Venue staff']

// The public side of staff invitations (docs/catalogue.md, "Staff invitations"): the console page
// the mailed link opens reads the invitation, then accepts it with a name and password.
export default async function invitationRoutes(app: RouteApp) {
  const { ctx } = app

  app.get(
    '/invitations/:token',
    {
      schema: {
        tags,
        security: [],
        operationId: 'getInvitation',
        summary: 'A staff invitation by the token of its mailed link (public)',
        description:
          'Venue, email, role and whether it can still be accepted (valid; status pending, accepted or expired). ' +
          'An unknown token is 404.',
        params: InvitationParams,
        response: { 200: Data(InvitationSchema), ...errorResponses },
      },
    },
    async (req) => ({ data: await showInvitation(ctx, req.params.token) }),
  )

  app.post(
    '/invitations/:token/accept',
    {
      schema: {
        tags,
        security: [],
        operationId: 'acceptInvitation',
        summary: 'Accept a staff invitation: create the account and sign in this device (public)',
        description:
          'Creates the account of the invited email (email verified: the link proved it; password ≥ 8 characters ' +
          'and confirmed), makes it manager or staff of the venue and answers like register, with a token. ' +
          'Unknown token 404; an invitation already used or expired 410; an email that has an account by now 422 ' +
          'on email (sign in with it and accept through POST /me/invitations/{id}/accept).',
        params: InvitationParams,
        body: AcceptInvitationBody,
        response: { 201: AcceptInvitationResponse, 410: Message, ...errorResponses },
      },
    },
    async (req, reply) => {
      // The new account's language is the request's, as for register (docs/languages.md).
      const userId = await acceptInvitation(ctx, req.params.token, req.body, requestLocale(req))
      const device = req.body.device_name?.trim() || String(req.headers['user-agent'] ?? '').trim() || 'Unknown device'
      const token = await issueToken(ctx.db, userId, device)
      return reply.code(201).send({
        message: 'Invitation accepted.',
        token,
        data: await invitedUser(ctx, userId),
      })
    },
  )
}
