import { createHash, randomBytes } from 'node:crypto'
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'
import { sql } from 'kysely'
import type { ReadCache } from './cache.ts'
import { cacheTags } from './cache-tags.ts'
import type { Clock } from './clock.ts'
import type { Executor } from './db.ts'
import { Forbidden, Unauthenticated } from './errors.ts'
import { asLocale, DEFAULT_LOCALE, type Locale } from './i18n/locale.ts'

// Bearer tokens are opaque "<id>|<40 random chars>", stored only as SHA-256 hashes, one per device.

export type Role = 'customer' | 'venue_owner' | 'manager' | 'staff' | 'super_admin'

export interface AuthUser {
  id: number
  name: string
  email: string
  phone: string | null
  is_active: boolean
  roles: Role[]
  tokenId: number
  /** The language the user reads (users.locale): the language of the answers to their requests. */
  locale: Locale
}

declare module 'fastify' {
  interface FastifyRequest {
    user: AuthUser | null
  }
}

export function hashToken(plain: string): string {
  return createHash('sha256').update(plain).digest('hex')
}

/** Creates a device token for a user and returns the plain text, shown to the client once. */
export async function issueToken(
  db: Executor,
  userId: number,
  deviceName: string,
  /** When the token comes from a one-time code: that moment (it may then set a new password, once). */
  otpAt: Date | null = null,
): Promise<string> {
  const secret = randomBytes(30).toString('base64url').slice(0, 40)
  const row = await db
    .insertInto('api_tokens')
    .values({
      user_id: userId,
      name: deviceName.slice(0, 255) || 'device',
      token_hash: hashToken(secret),
      otp_signed_in_at: otpAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  // The hash covers the secret part; the id prefix only speeds lookups for humans reading logs.
  return `${row.id}|${secret}`
}

/** The role names of `users as u`, in role order: select it with `.as('roles')`. */
export const ROLE_NAMES = sql<Role[]>`array(select r.name from user_roles ur join roles r on r.id = ur.role_id
    where ur.user_id = u.id order by r.id)`

function bearer(req: FastifyRequest): string | null {
  const h = req.headers.authorization
  if (!h) return null
  const m = /^Bearer\s+(\S+)$/i.exec(h)
  return m ? m[1] : null
}

const TOUCH_INTERVAL_MS = 60_000

export interface TokenOwner {
  user: AuthUser
  lastUsedAt: number | null
}

/**
 * The user behind a token, through the read cache (key: token id and hash, so a wrong secret never
 * hits). A deleted token ('token:<id>') and any change to the user or its roles ('user:<id>') are
 * announced by the database (migrations/005) and drop the entry on every instance. The notification
 * arrives a few milliseconds after the commit, so the code that revokes access (logout, device
 * revocation, suspension, role changes) also invalidates the tag on its own instance right after
 * the commit: the very next request there is refused (docs/architecture.md, "Revoking access").
 */
async function resolveUser(db: Executor, cache: ReadCache, clock: Clock, token: string): Promise<AuthUser | null> {
  const bar = token.indexOf('|')
  if (bar < 1) return null
  const id = Number(token.slice(0, bar))
  if (!Number.isSafeInteger(id) || id < 1) return null
  const hash = hashToken(token.slice(bar + 1))
  const owner = await cache.through(
    `auth:${id}:${hash}`,
    () => loadTokenOwner(db, id, hash),
    (o) => (o ? { tags: [cacheTags.token(id), cacheTags.user(o.user.id)] } : null),
  )
  if (!owner) return null
  const now = clock.now().getTime()
  if (owner.lastUsedAt === null || now - owner.lastUsedAt > TOUCH_INTERVAL_MS) {
    // Best effort and throttled: last_used_at is informational, not worth a write per request.
    owner.lastUsedAt = now
    db.updateTable('api_tokens')
      .set({ last_used_at: new Date(now) })
      .where('id', '=', id)
      .execute()
      .catch(() => undefined)
  }
  return owner.user
}

/** A token's owner by token id and secret hash (the hot lookup behind every signed-in request). */
export async function loadTokenOwner(db: Executor, id: number, hash: string): Promise<TokenOwner | null> {
  const row = await db
    .selectFrom('api_tokens as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .select([
      't.id as token_id',
      't.last_used_at',
      'u.id',
      'u.name',
      'u.email',
      'u.phone',
      'u.is_active',
      'u.locale',
      ROLE_NAMES.as('roles'),
    ])
    .where('t.id', '=', id)
    .where('t.token_hash', '=', hash)
    .executeTakeFirst()
  if (!row) return null
  return {
    lastUsedAt: row.last_used_at ? new Date(row.last_used_at).getTime() : null,
    user: {
      id: row.id,
      name: row.name,
      email: row.email,
      phone: row.phone,
      is_active: row.is_active,
      roles: row.roles,
      tokenId: row.token_id,
      locale: asLocale(row.locale) ?? DEFAULT_LOCALE,
    },
  }
}

// The token's owner, looked up once per request: the rate limiter (which keys signed-in requests by
// user) and the route's auth hook both ask, and must not cost two lookups.
const identified = new WeakMap<FastifyRequest, Promise<AuthUser | null>>()

/** Fastify onRequest hooks (auth runs before validation, so guests get 401, not 422). `auth.required` refuses guests; `auth.optional` only identifies. */
export function authHooks(getDb: () => Executor, cache: ReadCache, clock: Clock) {
  /** The user behind the request's bearer token (active or not), or null for none, unknown or revoked. */
  const identify = (req: FastifyRequest): Promise<AuthUser | null> => {
    let found = identified.get(req)
    if (!found) {
      const token = bearer(req)
      found = token ? resolveUser(getDb(), cache, clock, token) : Promise.resolve(null)
      identified.set(req, found)
    }
    return found
  }
  const required = async (req: FastifyRequest, _reply: FastifyReply) => {
    const user = await identify(req)
    if (!user) throw new Unauthenticated()
    if (!user.is_active) throw new Forbidden('Your account is suspended.')
    req.user = user
  }
  // Callback style: a guest's request (no token) is let through without a promise or a lookup.
  const optional = (req: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
    if (!identified.has(req) && bearer(req) === null) return done()
    identify(req).then((user) => {
      if (user?.is_active) req.user = user
      done()
    }, done)
  }
  const roles =
    (...allowed: Role[]) =>
    async (req: FastifyRequest, reply: FastifyReply) => {
      await required(req, reply)
      if (!signedIn(req).roles.some((r) => allowed.includes(r))) throw new Forbidden()
    }
  return { identify, required, optional, roles }
}

/**
 * The signed-in user of a request that passed `auth.required` or `auth.roles(…)`: the typed way
 * for a handler to read it (never `req.user!`). On a request without a user it answers 401, so a
 * route that forgot its auth hook fails closed.
 */
export function signedIn(req: FastifyRequest): AuthUser {
  if (!req.user) throw new Unauthenticated()
  return req.user
}

export function hasRole(user: AuthUser | null | undefined, ...roles: Role[]): boolean {
  return !!user && user.roles.some((r) => roles.includes(r))
}
