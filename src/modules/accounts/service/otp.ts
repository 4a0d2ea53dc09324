import { createHmac, randomInt, timingSafeEqual } from 'node:crypto'
import type { AppContext } from '../../../lib/context.ts'
import { Forbidden, Invalid, TooManyTries, Unprocessable } from '../../../lib/errors.ts'
import { type Locale, recipientLocale, t } from '../../../lib/i18n/index.ts'
import * as repo from '../repository.ts'
import { PHONE_PATTERN } from '../schemas.ts'
import { INVALID_CREDENTIALS } from './users.ts'

// One-time codes: 6 digits, valid 10 minutes, at most 5 wrong tries, stored only as an HMAC.
// A new send for the same identifier and channel replaces the previous code. Per identifier, in the
// database (so every instance counts together, and a new code does not start the count again): at
// most 10 wrong tries an hour, after which verify answers 429 until the oldest of them is an hour
// old, even for the right code; at most 10 sends a day (docs/deployment.md, "One-time codes").

export const OTP_MINUTES = 10
export const OTP_MAX_ATTEMPTS = 5
/** Wrong tries per identifier within OTP_FAILURE_WINDOW_MS, across codes. */
export const OTP_MAX_FAILURES = 10
export const OTP_FAILURE_WINDOW_MS = 60 * 60_000
/** Sends per identifier within OTP_SEND_WINDOW_MS. */
export const OTP_MAX_SENDS = 10
export const OTP_SEND_WINDOW_MS = 24 * 60 * 60_000
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

/** Seconds until the oldest of the last `max` events (newest first) leaves the window. */
function secondsLeft(times: Date[], max: number, windowMs: number, now: Date): number {
  return (times[max - 1].getTime() + windowMs - now.getTime()) / 1000
}

/**
 * Sends a one-time code, in the language of the account the identifier belongs to, else in
 * `requestLocale` (the sender's Accept-Language: an identifier with no account yet).
 */
export async function sendOtp(ctx: AppContext, rawIdentifier: string, type: OtpChannel, requestLocale: Locale = 'en') {
  const identifier = normalizeIdentifier(rawIdentifier, type)
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0')
  const now = ctx.clock.now()
  const refused = await ctx.db.transaction().execute(async (trx) => {
    await repo.lockOtpIdentifier(trx, identifier, type)
    const since = new Date(now.getTime() - OTP_SEND_WINDOW_MS)
    const sends = await repo.otpEventTimes(trx, identifier, type, 'send', since)
    if (sends.length >= OTP_MAX_SENDS) return secondsLeft(sends, OTP_MAX_SENDS, OTP_SEND_WINDOW_MS, now)
    await repo.addOtpEvent(trx, identifier, type, 'send', now)
    await repo.saveOtp(trx, {
      identifier,
      type,
      code_hash: codeHash(ctx.config.appKey, identifier, type, code),
      attempts: 0,
      expires_at: new Date(now.getTime() + OTP_MINUTES * 60_000),
      created_at: now,
    })
    await repo.pruneOtpEvents(trx, since)
    return null
  })
  if (refused !== null) throw new TooManyTries(OTP_MAX_SENDS, refused)
  const owner = await repo.findLogin(ctx.db, identifier, type === 'email' ? 'email' : 'phone')
  const locale = owner ? await recipientLocale(ctx.db, owner.id) : requestLocale
  const body = t(locale, 'otp.body', { code, minutes: OTP_MINUTES })
  if (type === 'email') await ctx.messenger.mail({ to: identifier, subject: t(locale, 'otp.subject'), body })
  else await ctx.messenger.sms({ to: identifier, body })
}

/**
 * Checks a code. Each check counts as a try of the code and a refused one as a wrong try of the
 * identifier (under the identifier's lock, so parallel guesses cannot exceed either limit); the right
 * code consumes the row. 429 (TooManyTries) while the identifier has OTP_MAX_FAILURES wrong tries
 * within the last hour. Returns the user the identifier belongs to, if any, now verified on
 * that channel (a phone: with their short holds extended, ctx.steps.phoneVerified).
 */
export async function verifyOtp(
  ctx: AppContext,
  rawIdentifier: string,
  type: OtpChannel,
  otp: string,
): Promise<number | null> {
  const identifier = normalizeIdentifier(rawIdentifier, type)
  const now = ctx.clock.now()
  const given = otp.trim()
  type Outcome = { locked: number } | { ok: boolean }
  const outcome = await ctx.db.transaction().execute(async (trx): Promise<Outcome> => {
    await repo.lockOtpIdentifier(trx, identifier, type)
    const since = new Date(now.getTime() - OTP_FAILURE_WINDOW_MS)
    const failures = await repo.otpEventTimes(trx, identifier, type, 'failure', since)
    if (failures.length >= OTP_MAX_FAILURES) {
      return { locked: secondsLeft(failures, OTP_MAX_FAILURES, OTP_FAILURE_WINDOW_MS, now) }
    }
    const row = await repo.tryOtp(trx, identifier, type, OTP_MAX_ATTEMPTS, now)
    const right =
      row !== undefined &&
      /^\d{6}$/.test(given) &&
      timingSafeEqual(
        Buffer.from(row.code_hash, 'hex'),
        Buffer.from(codeHash(ctx.config.appKey, identifier, type, given), 'hex'),
      )
    // Every refused try counts against the identifier (a wrong code, or none left to try).
    if (!right || !row) {
      await repo.addOtpEvent(trx, identifier, type, 'failure', now)
      return { ok: false }
    }
    // Consumed: the identifier's lock orders the tries, so the right code works once.
    return { ok: await repo.deleteOtp(trx, row.id) }
  })
  if ('locked' in outcome) throw new TooManyTries(OTP_MAX_FAILURES, outcome.locked)
  if (!outcome.ok) throw new Unprocessable(INVALID_OTP)

  const user = await repo.findLogin(ctx.db, identifier, type === 'email' ? 'email' : 'phone')
  if (!user) return null
  if (!user.is_active) throw new Forbidden(INVALID_CREDENTIALS)
  await ctx.db.transaction().execute(async (trx) => {
    await repo.markVerified(trx, user.id, type === 'email' ? 'email_verified_at' : 'phone_verified_at', ctx.clock.now())
    // A verified phone: the customer's bookings held only the payment window while they had none
    // (cash, a series' later weeks) are held as a verified customer's, in the same transaction
    // (docs/bookings.md, "Creating").
    if (type === 'sms') await ctx.steps.phoneVerified(trx, user.id)
  })
  return user.id
}
