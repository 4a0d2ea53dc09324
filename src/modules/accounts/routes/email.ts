import { signedIn } from '../../../lib/auth.ts'
import { namedLimit } from '../../../lib/rate-limit.ts'
import type { Routes } from '../../../lib/route.ts'
import { errorResponses, Message } from '../../../lib/schemas.ts'
import { MessageWithUser, VerifyEmailParams, VerifyEmailQuery } from '../schemas.ts'
import { resendVerificationEmail, verifyEmail } from '../service/email-verification.ts'
import { userResourceOf } from '../service/users.ts'

const tags = ['Authentication']
const security = [{ bearer: [] }]

const emailRoutes: Routes = async (app) => {
  const { ctx } = app

  app.get(
    '/email/verify/:id/:hash',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'verifyEmail',
        summary: 'Verify your email address with the link from the verification mail (while signed in)',
        description:
          'The link is signed (expires, signature) and valid 60 minutes; hash is the sha1 of the email. ' +
          'A tampered or expired link: 403 "Invalid signature."; a link of another user: 403.',
        params: VerifyEmailParams,
        querystring: VerifyEmailQuery,
        response: { 200: MessageWithUser, ...errorResponses },
      },
    },
    async (req) => {
      const outcome = await verifyEmail(ctx, signedIn(req).id, req.params, req.query)
      return {
        message: outcome === 'verified' ? 'Email verified successfully.' : 'Email already verified.',
        data: await userResourceOf(ctx, signedIn(req).id),
      }
    },
  )

  app.post(
    '/email/verify/resend',
    {
      onRequest: app.auth.required,
      config: namedLimit(app, 'emailResend'),
      schema: {
        tags,
        security,
        operationId: 'resendEmailVerification',
        summary: 'Send the verification link again (6 requests a minute)',
        response: { 200: Message, 429: Message, ...errorResponses },
      },
    },
    async (req) => {
      const sent = await resendVerificationEmail(ctx, signedIn(req).id)
      return { message: sent ? 'Verification link sent.' : 'Email already verified.' }
    },
  )
}
export default emailRoutes
