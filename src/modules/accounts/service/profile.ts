import type { Static } from 'typebox'
import { cacheTags } from '../../../lib/cache-tags.ts'
import type { AppContext } from '../../../lib/context.ts'
import { Forbidden, Invalid } from '../../../lib/errors.ts'
import { hashPassword, verifyPassword } from '../../../lib/password.ts'
import { detectImage } from '../../../lib/storage.ts'
import { Upload } from '../../../lib/uploads.ts'
import * as repo from '../repository.ts'
import type { NewPasswordBody, PasswordBody, ProfileUpdateBody } from '../schemas.ts'
import { rethrowUnique, uniquenessErrors } from './users.ts'

// The signed-in user's own profile: name and phone, the channels booking messages come by
// (notify_sms, notify_email; docs/bookings.md, "Messages by SMS and email"), the language the
// service writes to them in (locale; docs/languages.md), password, avatar.

export const MAX_AVATAR_BYTES = 2 * 1024 * 1024

export async function updateProfile(ctx: AppContext, userId: number, input: Static<typeof ProfileUpdateBody>) {
  const changes: {
    name?: string
    phone?: string | null
    phone_verified_at?: null
    notify_sms?: boolean
    notify_email?: boolean
    locale?: 'en' | 'ne'
    updated_at: Date
  } = {
    updated_at: ctx.clock.now(),
  }
  if (input.notify_sms !== undefined) changes.notify_sms = input.notify_sms
  if (input.notify_email !== undefined) changes.notify_email = input.notify_email
  if (input.locale !== undefined) changes.locale = input.locale
  if (input.name !== undefined) {
    const name = input.name.trim()
    if (!name) throw new Invalid('name', 'The name field is required.')
    changes.name = name
  }
  let unverified = false
  if (input.phone !== undefined) {
    const phone = input.phone?.trim() || null
    const current = await repo.findUser(ctx.db, userId)
    if (phone !== current?.phone) {
      const errors = await uniquenessErrors(ctx.db, { phone }, userId)
      if (Object.keys(errors).length) throw new Invalid(errors)
      changes.phone = phone
      // A new number has not been verified yet: the holds a verified phone gave are cut back too.
      changes.phone_verified_at = null
      unverified = true
    }
  }
  await ctx.db.transaction().execute(async (trx) => {
    await repo.updateUser(trx, userId, changes).catch(rethrowUnique)
    if (unverified) await ctx.steps.phoneUnverified(trx, userId)
  })
  // The token's owner (its language among it) is cached: the next request here reads the new one.
  if (input.locale !== undefined) ctx.cache.invalidate(cacheTags.user(userId))
}

export async function changePassword(ctx: AppContext, userId: number, input: Static<typeof PasswordBody>) {
  const user = await repo.findUser(ctx.db, userId)
  const errors: Record<string, string[]> = {}
  if (!(await verifyPassword(user?.password_hash ?? null, input.current_password))) {
    errors.current_password = ['The password is incorrect.']
  }
  if (input.password !== input.password_confirmation) {
    errors.password = ['The password field confirmation does not match.']
  }
  if (Object.keys(errors).length) throw new Invalid(errors)
  await repo.updateUser(ctx.db, userId, {
    password_hash: await hashPassword(input.password),
    updated_at: ctx.clock.now(),
  })
}

/** How long after a sign-in with a one-time code its session may set a new password without the current one. */
export const OTP_RESET_MINUTES = 15
export const OTP_RESET_REFUSED =
  'Sign in with a one-time code first: a new password without the current one can be set only in the 15 minutes after that.'

/**
 * "Forgot password" (issue 51): a session signed in with a one-time code in the last
 * OTP_RESET_MINUTES sets a new password, once (the contract's POST /profile/password needs the
 * current one). Any other session is 403.
 */
export async function resetPassword(
  ctx: AppContext,
  user: { id: number; tokenId: number },
  input: Static<typeof NewPasswordBody>,
) {
  if (input.password !== input.password_confirmation) {
    throw new Invalid('password', 'The password field confirmation does not match.')
  }
  const since = new Date(ctx.clock.now().getTime() - OTP_RESET_MINUTES * 60_000)
  const passwordHash = await hashPassword(input.password)
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await repo.takeOtpSignIn(trx, user.id, user.tokenId, since))) throw new Forbidden(OTP_RESET_REFUSED)
    await repo.updateUser(trx, user.id, { password_hash: passwordHash, updated_at: ctx.clock.now() })
  })
}

/** Stores a new avatar (jpg/png/webp by content, ≤ 2 MB) and removes the previous file. */
export async function replaceAvatar(ctx: AppContext, userId: number, file: unknown) {
  if (file === undefined || file === null || file === '') throw new Invalid('avatar', 'The avatar field is required.')
  if (!(file instanceof Upload)) throw new Invalid('avatar', 'The avatar field must be an image.')
  if (file.size > MAX_AVATAR_BYTES) {
    throw new Invalid('avatar', `The avatar field must not be greater than ${MAX_AVATAR_BYTES / 1024} kilobytes.`)
  }
  const type = await detectImage(file)
  if (!type) throw new Invalid('avatar', 'The avatar field must be a file of type: jpg, jpeg, png, webp.')
  const path = await ctx.storage.put('avatars', file, type.ext)
  const previous = await repo.findUser(ctx.db, userId)
  await repo.updateUser(ctx.db, userId, { avatar_path: path, updated_at: ctx.clock.now() })
  if (previous?.avatar_path) await ctx.storage.delete(previous.avatar_path)
}
