import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import type { Static } from 'typebox'
import type { AppContext } from '../../../lib/context.ts'
import { Forbidden } from '../../../lib/errors.ts'
import { recipientLocale, t } from '../../../lib/i18n/index.ts'
import * as repo from '../repository.ts'
import type { VerifyEmailParams, VerifyEmailQuery } from '../schemas.ts'

// Signed email verification links: /api/email/verify/{id}/{sha1(email)}?expires=<unix>&signature=<hmac>.
// The signature is an HMAC-SHA256, keyed with APP_KEY, of the absolute URL without the signature.

export const LINK_MINUTES = 60

export function emailHash(email: string): string {
  return createHash('sha1').update(email).digest('hex')
}

function sign(appKey: string, unsignedUrl: string): string {
  return createHmac('sha256', appKey).update(unsignedUrl).digest('hex')
}

function unsigned(appUrl: string, id: number | string, hash: string, expires: number | string): string {
  return `${appUrl}/api/email/verify/${id}/${hash}?expires=${expires}`
}

export function verificationUrl(ctx: AppContext, user: { id: number; email: string }, now = ctx.clock.now()): string {
  const expires = Math.floor(now.getTime() / 1000) + LINK_MINUTES * 60
  const base = unsigned(ctx.config.appUrl, user.id, emailHash(user.email), expires)
  return `${base}&signature=${sign(ctx.config.appKey, base)}`
}

/** Refuses (403 "Invalid signature.") a link whose signature does not match or that has expired. */
export function assertValidSignature(
  ctx: AppContext,
  id: string,
  hash: string,
  query: Static<typeof VerifyEmailQuery>,
) {
  const { expires, signature } = query
  if (!expires || !signature || !/^\d{1,12}$/.test(expires) || !/^[0-9a-f]{64}$/.test(signature)) {
    throw new Forbidden('Invalid signature.')
  }
  const expected = Buffer.from(sign(ctx.config.appKey, unsigned(ctx.config.appUrl, id, hash, expires)), 'hex')
  if (!timingSafeEqual(expected, Buffer.from(signature, 'hex'))) throw new Forbidden('Invalid signature.')
  if (Number(expires) * 1000 < ctx.clock.now().getTime()) throw new Forbidden('Invalid signature.')
}

export async function sendVerificationEmail(ctx: AppContext, user: { id: number; email: string }) {
  const url = verificationUrl(ctx, user)
  // In the language of the account (the one it registered in, or chose since).
  const locale = await recipientLocale(ctx.db, user.id)
  await ctx.messenger.mail({
    to: user.email,
    subject: t(locale, 'verify.subject'),
    body: t(locale, 'verify.body', { minutes: LINK_MINUTES, url }),
  })
}

/** Marks the signed-in user's email verified when the link is theirs and intact. */
export async function verifyEmail(
  ctx: AppContext,
  userId: number,
  params: Static<typeof VerifyEmailParams>,
  query: Static<typeof VerifyEmailQuery>,
): Promise<'verified' | 'already'> {
  assertValidSignature(ctx, params.id, params.hash, query)
  if (params.id !== String(userId)) throw new Forbidden()
  const user = await repo.findUser(ctx.db, userId)
  if (!user) throw new Forbidden()
  const expected = Buffer.from(emailHash(user.email))
  const given = Buffer.from(params.hash)
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw new Forbidden()
  if (user.email_verified_at) return 'already'
  await repo.markVerified(ctx.db, userId, 'email_verified_at', ctx.clock.now())
  return 'verified'
}

/** Mails the signed-in user a fresh link; false when the email is already verified. */
export async function resendVerificationEmail(ctx: AppContext, userId: number): Promise<boolean> {
  const user = await repo.findUser(ctx.db, userId)
  if (!user) throw new Forbidden()
  if (user.email_verified_at) return false
  await sendVerificationEmail(ctx, user)
  return true
}
