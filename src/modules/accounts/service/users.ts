import type { Static } from 'typebox'
import { cacheTags } from '../../../lib/cache-tags.ts'
import type { AppContext } from '../../../lib/context.ts'
import type { Executor } from '../../../lib/db.ts'
import { Forbidden, Invalid, NotFound } from '../../../lib/errors.ts'
import { DEFAULT_LOCALE, type Locale } from '../../../lib/i18n/index.ts'
import { hashPassword, verifyPassword } from '../../../lib/password.ts'
import { devicesOf, findUserRow } from '../queries.ts'
import * as repo from '../repository.ts'
import { deviceResource, type UserResource, userResource } from '../resource.ts'
import type { RegisterBody } from '../schemas.ts'
import { sendVerificationEmail } from './email-verification.ts'

// Registration, credential checks and the uniqueness rules of email and phone.

export const INVALID_CREDENTIALS = 'Invalid credentials.'

/** The name a new device token gets: device_name from the body, else the User-Agent. */
export function deviceName(userAgent: string | undefined, given?: string): string {
  const name = given?.trim() || String(userAgent ?? '').trim()
  return (name || 'Unknown device').slice(0, 255)
}

function isUniqueViolation(err: unknown): boolean {
  return (err as { code?: string } | null)?.code === '23505'
}

/** Collects "already taken" errors for an email and/or phone (ignoring the user `exceptId`). */
export async function uniquenessErrors(
  db: Executor,
  fields: { email?: string; phone?: string | null },
  exceptId?: number,
): Promise<Record<string, string[]>> {
  const errors: Record<string, string[]> = {}
  if (fields.email !== undefined && (await repo.isTaken(db, 'email', fields.email, exceptId))) {
    errors.email = ['The email has already been taken.']
  }
  if (fields.phone && (await repo.isTaken(db, 'phone', fields.phone, exceptId))) {
    errors.phone = ['The phone has already been taken.']
  }
  return errors
}

/** Turns a unique violation raced past the pre-check into the same 422. */
export function rethrowUnique(err: unknown): never {
  if (isUniqueViolation(err)) {
    const detail = String((err as { detail?: string; constraint?: string }).constraint ?? '')
    if (detail.includes('phone')) throw new Invalid('phone', 'The phone has already been taken.')
    throw new Invalid('email', 'The email has already been taken.')
  }
  throw err
}

/** Creates a customer (wallet 0.00, active, unverified) and mails the verification link. */
/** A new customer account; `locale`, the language they registered in (the request's), is theirs from then on. */
export async function registerUser(
  ctx: AppContext,
  input: Static<typeof RegisterBody>,
  locale: Locale = DEFAULT_LOCALE,
): Promise<number> {
  const email = input.email.trim()
  const phone = input.phone?.trim() || null
  const name = input.name.trim()
  const errors = await uniquenessErrors(ctx.db, { email, phone })
  if (!name) errors.name = ['The name field is required.']
  if (input.password_confirmation !== input.password) {
    errors.password = ['The password field confirmation does not match.']
  }
  if (Object.keys(errors).length) throw new Invalid(errors)
  const passwordHash = await hashPassword(input.password)
  const userId = await ctx.db
    .transaction()
    .execute(async (trx) => {
      const id = await repo.insertUser(trx, { name, email, phone, password_hash: passwordHash, locale })
      await repo.assignRole(trx, id, 'customer')
      return id
    })
    .catch(rethrowUnique)
  await sendVerificationEmail(ctx, { id: userId, email }).catch((err) =>
    ctx.log.error({ err, userId }, 'verification email failed'),
  )
  return userId
}

// A real argon2 hash of a random string: unknown users cost the same time as a wrong password.
let dummyHash: Promise<string> | undefined

/** The user an email-or-phone and password sign in; 403 "Invalid credentials." otherwise (also when suspended). */
export async function checkCredentials(db: Executor, login: string, password: string): Promise<number> {
  const key = login.trim()
  const user = await repo.findLogin(db, key, key.includes('@') ? 'email' : 'phone')
  if (!user?.password_hash) {
    dummyHash ??= hashPassword(`dummy-${Math.random()}`)
    await verifyPassword(await dummyHash, password)
    throw new Forbidden(INVALID_CREDENTIALS)
  }
  const ok = await verifyPassword(user.password_hash, password)
  if (!ok || !user.is_active) throw new Forbidden(INVALID_CREDENTIALS)
  return user.id
}

/** One user as the contract's User; 404 when unknown. */
export async function userResourceOf(ctx: AppContext, userId: number): Promise<UserResource> {
  const row = await findUserRow(ctx.db, userId)
  if (!row) throw new NotFound()
  return userResource(ctx, row)
}

/** The user's device tokens as Devices, most recently used first. */
export async function devices(ctx: AppContext, userId: number) {
  return (await devicesOf(ctx.db, userId)).map((t) => deviceResource(t, ctx.zone))
}

/** Revokes the token of the current request (already gone is fine); every instance has forgotten it when this returns. */
export async function logout(ctx: AppContext, tokenId: number) {
  await repo.deleteToken(ctx.db, null, tokenId)
  ctx.cache.invalidate(cacheTags.token(tokenId))
  await ctx.revocation.sync()
}

/** Revokes one of the user's device tokens (404 when it is not theirs); every instance has forgotten it when this returns. */
export async function revokeToken(ctx: AppContext, userId: number, tokenId: number) {
  if (!(await repo.deleteToken(ctx.db, userId, tokenId))) throw new NotFound()
  ctx.cache.invalidate(cacheTags.token(tokenId))
  await ctx.revocation.sync()
}
