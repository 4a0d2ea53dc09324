import { createHmac, randomInt, timingSafeEqual } from 'node:crypto'
import type { AppContext } from '../../../lib/context.ts'
import { Forbidden, Invalid, Unprocessable } from '../../../lib/errors.ts'
import * as repo from '../repository.ts'
import { PHONE_PATTERN } from '../schemas.ts'
import { INVALID_CREDENTIALS } from './users.ts'

// One-time codes: 6 digits, valid 10 minutes, at most 5 wrong tries, stored only as an HMAC.
// A new send for the same identifier and channel replaces the previous code.

export const OTP_MINUTES = 10
export const OTP_MAX_ATTEMPTS = 5
export const INVALID_OTP = 'Invalid or expired OTP.'

export type OtpChannel = 'sms' | 'email'

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
const PHONE = new RegExp(PHONE_PATTERN)

/** The identifier in its stored form (emails lower-cased), or a 422 when it does not fit the channel. */
export function normalizeIdentifier(identifier: string, type: OtpChannel): string {
  const value = identifier.trim()
  if (type === 'email') {
    if (!EMAIL.test(value)) throw new Invalid('identifier', 'The identifier field must be a valid email address.')
    return value.toLowerCase()
  }
  if (!PHONE.test(value)) throw new Invalid('identifier', 'The identifier field must be a valid phone number.')
  return value
}

function codeHash(appKey: string, identifier: string, type: OtpChannel, code: string): string {
  return createHmac('sha256', appKey).update(`${type}|${identifier}|${code}`).digest('hex')
}

export async function sendOtp(ctx: AppContext, rawIdentifier: string, type: OtpChannel) {
  const identifier = normalizeIdentifier(rawIdentifier, type)
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0')
  const now = ctx.clock.now()
  await repo.saveOtp(ctx.db, {
    identifier,
    type,
    code_hash: codeHash(ctx.config.appKey, identifier, type, code),
    attempts: 0,
    expires_at: new Date(now.getTime() + OTP_MINUTES * 60_000),
    created_at: now,
  })
  const body = `Your Courtside verification code is ${code}. It expires in ${OTP_MINUTES} minutes. Never share it with anyone.`
  if (type === 'email') await ctx.messenger.mail({ to: identifier, subject: 'Your verification code', body })
  else await ctx.messenger.sms({ to: identifier, body })
}

/**
 * Checks a code. Each check counts as a try (atomically, so parallel guesses cannot exceed the limit);
 * the right code consumes the row. Returns the user the identifier belongs to, if any, now verified on
 * that channel.
 */
export async function verifyOtp(
  ctx: AppContext,
  rawIdentifier: string,
  type: OtpChannel,
  otp: string,
): Promise<number | null> {
  const identifier = normalizeIdentifier(rawIdentifier, type)
  const row = await repo.tryOtp(ctx.db, identifier, type, OTP_MAX_ATTEMPTS, ctx.clock.now())
  if (!row) throw new Unprocessable(INVALID_OTP)
  const expected = Buffer.from(row.code_hash, 'hex')
  const given = Buffer.from(codeHash(ctx.config.appKey, identifier, type, otp.trim()), 'hex')
  if (!/^\d{6}$/.test(otp.trim()) || !timingSafeEqual(expected, given)) throw new Unprocessable(INVALID_OTP)
  // Consumed: only the request that deletes the row wins when the right code is sent twice at once.
  if (!(await repo.deleteOtp(ctx.db, row.id))) throw new Unprocessable(INVALID_OTP)

  const user = await repo.findLogin(ctx.db, identifier, type === 'email' ? 'email' : 'phone')
  if (!user) return null
  if (!user.is_active) throw new Forbidden(INVALID_CREDENTIALS)
  await repo.markVerified(
    ctx.db,
    user.id,
    type === 'email' ? 'email_verified_at' : 'phone_verified_at',
    ctx.clock.now(),
  )
  return user.id
}
