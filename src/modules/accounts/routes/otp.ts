import { issueToken } from '../../../lib/auth.ts'
import { requestLocale } from '../../../lib/i18n/index.ts'
import { namedLimit } from '../../../lib/rate-limit.ts'
import type { Routes } from '../../../lib/route.ts'
import { errorResponses, Message } from '../../../lib/schemas.ts'
import { OtpSendBody, OtpVerifyBody, OtpVerifyResponse, Refused } from '../schemas.ts'
import { normalizeIdentifier, sendOtp, verifyOtp } from '../service/otp.ts'
import { deviceName, userResourceOf } from '../service/users.ts'

const tags = ['Authentication']

const otpRoutes: Routes = async (app) => {
  const { ctx } = app

  app.post(
    '/auth/otp/send',
    {
      config: namedLimit(app, 'otp'),
      schema: {
        tags,
        operationId: 'sendOtp',
        security: [],
        summary: 'Send a one-time code by SMS (phone number) or email (email address)',
        description:
          '6 digits, valid 10 minutes, at most 5 wrong tries; a new send replaces the previous code. ' +
          'The code is never in the response. Also works for identifiers with no account (pre-registration). ' +
          'Limited per address (RATE_LIMIT_OTP a minute) and per recipient (RATE_LIMIT_OTP_IDENTIFIER a minute), ' +
          'and to 10 sends per recipient a day, counted in the database across instances (429 with Retry-After).',
        body: OtpSendBody,
        response: { 200: Message, 429: Message, ...errorResponses },
      },
    },
    async (req, reply) => {
      const { identifier, type } = req.body
      await app.accountLimits.otpSend(reply, normalizeIdentifier(identifier, type))
      await sendOtp(ctx, identifier, type, requestLocale(req))
      return { message: 'OTP sent successfully.' }
    },
  )

  app.post(
    '/auth/otp/verify',
    {
      config: namedLimit(app, 'otp'),
      schema: {
        tags,
        operationId: 'verifyOtp',
        security: [],
        summary: 'Check a one-time code',
        description:
          'For an identifier that belongs to an account: marks that channel verified and signs in (message, token, ' +
          'data). For an unknown identifier: only a message. Wrong, expired or exhausted code: 422 "Invalid or expired OTP.". ' +
          'At most 10 wrong tries per identifier an hour, across codes and instances: after the tenth, every verify of ' +
          'that identifier (the right code too) is 429 "Too Many Attempts." with Retry-After until the oldest of them is ' +
          'an hour old.',
        body: OtpVerifyBody,
        response: { 200: OtpVerifyResponse, 429: Message, ...errorResponses, 422: Refused },
      },
    },
    async (req) => {
      const body = req.body
      const userId = await verifyOtp(ctx, body.identifier, body.type, body.otp)
      if (userId === null) return { message: 'OTP verified successfully.' }
      const token = await issueToken(
        ctx.db,
        userId,
        deviceName(req.headers['user-agent'], body.device_name),
        ctx.clock.now(),
      )
      return {
        message: 'OTP verified successfully.',
        token,
        data: await userResourceOf(ctx, userId),
      }
    },
  )
}
export default otpRoutes
