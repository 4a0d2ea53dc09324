import type { Static } from 'typebox'
import type { AppContext } from '../../../lib/context.ts'
import type { Executor } from '../../../lib/db.ts'
import { Forbidden, Invalid } from '../../../lib/errors.ts'
import { hashPassword, verifyPassword } from '../../../lib/password.ts'
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
  if (fields.email !== undefined) {
    let q = db.selectFrom('users').select('id').where('email', '=', fields.email)
    if (exceptId) q = q.where('id', '!=', exceptId)
    if (await q.executeTakeFirst()) errors.email = ['The email has already been taken.']
  }
  if (fields.phone) {
    let q = db.selectFrom('users').select('id').where('phone', '=', fields.phone)
    if (exceptId) q = q.where('id', '!=', exceptId)
    if (await q.executeTakeFirst()) errors.phone = ['The phone has already been taken.']
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

export async function assignRole(db: Executor, userId: number, role: string) {
  const r = await db.selectFrom('roles').select('id').where('name', '=', role).executeTakeFirstOrThrow()
  await db
    .insertInto('user_roles')
    .values({ user_id: userId, role_id: r.id })
    .onConflict((oc) => oc.doNothing())
    .execute()
}

/** Creates a customer (wallet 0.00, active, unverified) and mails the verification link. */
export async function registerUser(ctx: AppContext, input: Static<typeof RegisterBody>): Promise<number> {
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
      const user = await trx
        .insertInto('users')
        .values({ name, email, phone, password_hash: passwordHash })
        .returning('id')
        .executeTakeFirstOrThrow()
      await assignRole(trx, user.id, 'customer')
      return user.id
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
  const user = await db
    .selectFrom('users')
    .select(['id', 'password_hash', 'is_active'])
    .where((eb) => (key.includes('@') ? eb('email', '=', key) : eb('phone', '=', key)))
    .executeTakeFirst()
  if (!user?.password_hash) {
    dummyHash ??= hashPassword(`dummy-${Math.random()}`)
    await verifyPassword(await dummyHash, password)
    throw new Forbidden(INVALID_CREDENTIALS)
  }
  const ok = await verifyPassword(user.password_hash, password)
  if (!ok || !user.is_active) throw new Forbidden(INVALID_CREDENTIALS)
  return user.id
}
