import { sql } from 'kysely'
import { type Executor, LOCK_CLASS } from '../../lib/db.ts'

// Writes and lookups of accounts: users, their roles, device tokens, one-time codes and social
// links. The User read model (with roles and permissions) is in queries.ts.

export type VerifiedColumn = 'email_verified_at' | 'phone_verified_at'

/** The user an email (with @) or a phone number names, with what sign-in needs. */
export function findLogin(db: Executor, key: string, by: 'email' | 'phone') {
  return db
    .selectFrom('users')
    .select(['id', 'password_hash', 'is_active'])
    .where((eb) => eb(by, '=', key))
    .executeTakeFirst()
}

export function findUser(db: Executor, id: number) {
  return db
    .selectFrom('users')
    .select(['id', 'email', 'phone', 'password_hash', 'avatar_path', 'email_verified_at', 'is_active'])
    .where('id', '=', id)
    .executeTakeFirst()
}

/** Whether a user other than `exceptId` already has this email or phone. */
export async function isTaken(db: Executor, column: 'email' | 'phone', value: string, exceptId?: number) {
  let q = db.selectFrom('users').select('id').where(column, '=', value)
  if (exceptId) q = q.where('id', '!=', exceptId)
  return !!(await q.executeTakeFirst())
}

export async function insertUser(
  db: Executor,
  values: {
    name: string
    email: string
    phone?: string | null
    password_hash: string | null
    email_verified_at?: Date | null
    locale?: 'en' | 'ne'
  },
): Promise<number> {
  const row = await db.insertInto('users').values(values).returning('id').executeTakeFirstOrThrow()
  return row.id
}

export async function updateUser(
  db: Executor,
  id: number,
  changes: {
    name?: string
    phone?: string | null
    phone_verified_at?: null
    notify_sms?: boolean
    notify_email?: boolean
    locale?: 'en' | 'ne'
    password_hash?: string
    avatar_path?: string
    is_active?: boolean
    updated_at: Date
  },
) {
  await db.updateTable('users').set(changes).where('id', '=', id).execute()
}

/** Marks a channel verified at `at`, keeping an earlier verification time. */
export async function markVerified(db: Executor, id: number, column: VerifiedColumn, at: Date) {
  await db
    .updateTable('users')
    .set({ [column]: sql<Date>`coalesce(${sql.ref(column)}, ${at})`, updated_at: at })
    .where('id', '=', id)
    .execute()
}

export async function assignRole(db: Executor, userId: number, role: string) {
  const r = await db.selectFrom('roles').select('id').where('name', '=', role).executeTakeFirstOrThrow()
  await db
    .insertInto('user_roles')
    .values({ user_id: userId, role_id: r.id })
    .onConflict((oc) => oc.doNothing())
    .execute()
}

/** Replaces the user's roles by the named ones. */
export async function replaceRoles(db: Executor, userId: number, names: string[]) {
  const roles = await db.selectFrom('roles').select('id').where('name', 'in', names).execute()
  await db.deleteFrom('user_roles').where('user_id', '=', userId).execute()
  await db
    .insertInto('user_roles')
    .values(roles.map((r) => ({ user_id: userId, role_id: r.id })))
    .execute()
}

/** Deletes a device token (of the user, unless null); false when there is no such token. */
export async function deleteToken(db: Executor, userId: number | null, tokenId: number): Promise<boolean> {
  let q = db.deleteFrom('api_tokens').where('id', '=', tokenId)
  if (userId !== null) q = q.where('user_id', '=', userId)
  const res = await q.executeTakeFirst()
  return Number(res.numDeletedRows) > 0
}

// One-time codes: one row per (identifier, type); a new code replaces the previous one.

export async function saveOtp(
  db: Executor,
  values: { identifier: string; type: string; code_hash: string; attempts: number; expires_at: Date; created_at: Date },
) {
  await db
    .insertInto('otps')
    .values(values)
    .onConflict((oc) =>
      oc.columns(['identifier', 'type']).doUpdateSet({
        code_hash: values.code_hash,
        attempts: 0,
        expires_at: values.expires_at,
        created_at: values.created_at,
      }),
    )
    .execute()
}

/**
 * Counts one try of the code that is still valid at `now` and has tries left (atomically, so
 * parallel guesses cannot exceed the limit); undefined when there is none.
 */
export function tryOtp(db: Executor, identifier: string, type: string, maxAttempts: number, now: Date) {
  return db
    .updateTable('otps')
    .set({ attempts: sql`attempts + 1` })
    .where('identifier', '=', identifier)
    .where('type', '=', type)
    .where('attempts', '<', maxAttempts)
    .where('expires_at', '>', now)
    .returning(['id', 'code_hash'])
    .executeTakeFirst()
}

// The per-identifier history of one-time codes (migration 017): sends and wrong tries.

export type OtpEventKind = 'send' | 'failure'

/**
 * The identifier's transaction-scoped advisory lock: sends and tries of one identifier run one
 * after another (on every instance), so counting and adding cannot overshoot a limit.
 */
export async function lockOtpIdentifier(trx: Executor, identifier: string, type: string) {
  await sql`SELECT pg_advisory_xact_lock(${sql.lit(LOCK_CLASS.otp)}, hashtext(${`${type}|${identifier}`}))`.execute(trx)
}

/** The times of the identifier's `kind` events after `since`, newest first. */
export async function otpEventTimes(db: Executor, identifier: string, type: string, kind: OtpEventKind, since: Date) {
  const rows = await db
    .selectFrom('otp_events')
    .select('created_at')
    .where('identifier', '=', identifier)
    .where('type', '=', type)
    .where('kind', '=', kind)
    .where('created_at', '>', since)
    .orderBy('created_at', 'desc')
    .execute()
  return rows.map((r) => new Date(r.created_at))
}

export async function addOtpEvent(db: Executor, identifier: string, type: string, kind: OtpEventKind, at: Date) {
  await db.insertInto('otp_events').values({ identifier, type, kind, created_at: at }).execute()
}

/** Removes up to `limit` events older than `before` (any identifier's). */
export async function pruneOtpEvents(db: Executor, before: Date, limit = 100) {
  await sql`DELETE FROM otp_events WHERE id IN (
      SELECT id FROM otp_events WHERE created_at < ${before} ORDER BY created_at LIMIT ${limit})`.execute(db)
}

/** Consumes a code; false when another request consumed it first. */
export async function deleteOtp(db: Executor, id: number): Promise<boolean> {
  const res = await db.deleteFrom('otps').where('id', '=', id).executeTakeFirst()
  return Number(res.numDeletedRows) > 0
}

export async function linkedUserId(db: Executor, provider: string, providerUserId: string) {
  const row = await db
    .selectFrom('social_accounts')
    .select('user_id')
    .where('provider', '=', provider)
    .where('provider_user_id', '=', providerUserId)
    .executeTakeFirst()
  return row?.user_id
}

export async function linkSocialAccount(db: Executor, userId: number, provider: string, providerUserId: string) {
  await db
    .insertInto('social_accounts')
    .values({ user_id: userId, provider, provider_user_id: providerUserId })
    .execute()
}

export async function userIdByEmail(db: Executor, email: string) {
  const row = await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()
  return row?.id
}

/**
 * Uses up a token's one-time-code sign-in for a password reset: true when the token `tokenId` of
 * `userId` signed in with a one-time code after `since` (and clears that, so it works once).
 */
export async function takeOtpSignIn(db: Executor, userId: number, tokenId: number, since: Date): Promise<boolean> {
  const row = await db
    .updateTable('api_tokens')
    .set({ otp_signed_in_at: null })
    .where('id', '=', tokenId)
    .where('user_id', '=', userId)
    .where('otp_signed_in_at', '>', since)
    .returning('id')
    .executeTakeFirst()
  return row !== undefined
}
