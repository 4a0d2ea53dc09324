import { createHash, randomUUID } from 'node:crypto'
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onSendAsyncHookHandler,
  preHandlerAsyncHookHandler,
  preValidationAsyncHookHandler,
  RouteOptions,
} from 'fastify'
import { sql } from 'kysely'
import { type TSchema, Type } from 'typebox'
import type { AppContext } from './context.ts'
import type { Executor } from './db.ts'
import { Conflict, Invalid, Unprocessable } from './errors.ts'
import { Message, UnprocessableError } from './schemas.ts'

// Idempotency keys (docs/idempotency.md). A route opts in with one line in its options:
//
//   app.post('/bookings', { config: { idempotent: true }, onRequest: app.auth.required, … }, handler)
//
// and then answers an `Idempotency-Key` header: the first request with a key claims it (a
// 'processing' row with a lease), runs, and stores its answer; a retry with the same key, user and
// body replays that answer with `Idempotent-Replayed: true` and runs nothing. The same key with a
// different request is 422; a key still being processed is 409. A 5xx answer is not stored (the
// key is released, so the client may retry). Rows live in `idempotency_keys` (migration 009), so
// every instance sees them; they expire 24 hours after the claim and the `idempotency.prune` job
// deletes them.

/** How long a key answers its first response again (from the claim). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000
/** How long a 'processing' claim blocks the key; after that (a crashed process) a retry takes it over. */
export const IDEMPOTENCY_LEASE_MS = 5 * 60 * 1000
/** How often expired keys are deleted. */
export const IDEMPOTENCY_PRUNE_MS = 15 * 60 * 1000

export const IDEMPOTENCY_HEADER = 'Idempotency-Key'
const HEADER = 'idempotency-key'
const VISIBLE = /^[\x21-\x7E]{1,255}$/
const KEY_MESSAGE = 'The Idempotency-Key header must be 1 to 255 visible ASCII characters.'
export const KEY_REUSED_MESSAGE = 'This Idempotency-Key was already used with a different request.'
export const KEY_IN_PROGRESS_MESSAGE =
  'A request with this Idempotency-Key is still being processed. Retry after it has finished.'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Answer the Idempotency-Key header (src/lib/idempotency.ts). */
    idempotent?: boolean
  }
}

/** The header as the OpenAPI document shows it on every idempotent route. */
export const IdempotencyHeaders = Type.Object({
  [HEADER]: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      pattern: '^[\\x21-\\x7E]+$',
      description:
        'A unique key (1–255 visible ASCII characters, e.g. a UUID) that makes retries safe: the same key, user ' +
        'and body within 24 hours answer the first response again with `Idempotent-Replayed: true` and do ' +
        'nothing twice. The same key with a different body is 422; while the first request runs, 409.',
      examples: ['5f0c7c1e-3d0b-4c55-9a43-2f4b8c1d9e10'],
    }),
  ),
})

// --- The table (src/lib may build queries) -------------------------------------------------

export type ClaimResult =
  | { kind: 'claimed'; id: number; claim: string }
  | { kind: 'replay'; status: number; type: string | null; body: string }
  | { kind: 'mismatch' }
  | { kind: 'processing' }

/**
 * Claims (userId, key) for a request with hash `hash` at `now`: inserts a 'processing' row, or takes
 * over a row whose 24 hours are over, or one left 'processing' past its lease (a crashed process)
 * by the same request. Otherwise reports what the stored row says.
 */
export async function claimKey(
  db: Executor,
  input: { userId: number; key: string; hash: string; now: Date },
): Promise<ClaimResult> {
  const { userId, key, hash, now } = input
  for (let attempt = 0; attempt < 3; attempt++) {
    const claim = randomUUID()
    const lockedUntil = new Date(now.getTime() + IDEMPOTENCY_LEASE_MS)
    const expiresAt = new Date(now.getTime() + IDEMPOTENCY_TTL_MS)
    const taken = await db
      .insertInto('idempotency_keys')
      .values({
        user_id: userId,
        key,
        request_hash: hash,
        status: 'processing',
        claim,
        locked_until: lockedUntil,
        created_at: now,
        expires_at: expiresAt,
      })
      .onConflict((oc) =>
        oc
          .columns(['user_id', 'key'])
          .doUpdateSet({
            request_hash: hash,
            status: 'processing',
            claim,
            locked_until: lockedUntil,
            response_status: null,
            response_type: null,
            response_body: null,
            created_at: now,
            expires_at: expiresAt,
          })
          .where((eb) =>
            eb.or([
              eb('idempotency_keys.expires_at', '<=', now),
              eb.and([
                eb('idempotency_keys.status', '=', 'processing'),
                eb('idempotency_keys.locked_until', '<=', now),
                eb('idempotency_keys.request_hash', '=', hash),
              ]),
            ]),
          ),
      )
      .returning('id')
      .executeTakeFirst()
    if (taken) return { kind: 'claimed', id: taken.id, claim }

    const row = await db
      .selectFrom('idempotency_keys')
      .select(['request_hash', 'status', 'response_status', 'response_type', 'response_body'])
      .where('user_id', '=', userId)
      .where('key', '=', key)
      .executeTakeFirst()
    // Released (a 5xx) or pruned between the two statements: claim again.
    if (!row) continue
    if (row.request_hash !== hash) return { kind: 'mismatch' }
    if (row.status === 'completed' && row.response_status !== null && row.response_body !== null) {
      return { kind: 'replay', status: row.response_status, type: row.response_type, body: row.response_body }
    }
    return { kind: 'processing' }
  }
  return { kind: 'processing' }
}

/** Stores the answer of a claimed key (only while this claim still holds it). */
export async function completeKey(
  db: Executor,
  id: number,
  claim: string,
  response: { status: number; type: string | null; body: string },
): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({
      status: 'completed',
      response_status: response.status,
      response_type: response.type,
      response_body: response.body,
    })
    .where('id', '=', id)
    .where('claim', '=', claim)
    .where('status', '=', 'processing')
    .execute()
}

/** Gives a claimed key up (a 5xx answer), so a retry runs the request again. */
export async function releaseKey(db: Executor, id: number, claim: string): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('id', '=', id)
    .where('claim', '=', claim)
    .where('status', '=', 'processing')
    .execute()
}

/** Deletes keys whose 24 hours are over, in batches; returns how many. */
export async function pruneIdempotencyKeys(db: Executor, now: Date, batch = 1000): Promise<number> {
  let total = 0
  for (;;) {
    const res = await sql<{ id: number }>`
      DELETE FROM idempotency_keys WHERE id IN (
        SELECT id FROM idempotency_keys WHERE expires_at <= ${now} ORDER BY expires_at LIMIT ${batch}
      ) RETURNING id`.execute(db)
    total += res.rows.length
    if (res.rows.length < batch) return total
  }
}

// --- The hooks ------------------------------------------------------------------------------

/** JSON with object keys sorted at every depth: equal bodies hash equally whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value as Record<string, unknown>)
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`)
    return `{${entries.join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}

export function requestHash(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method} ${path}\n${canonicalJson(body ?? {})}`)
    .digest('hex')
}

interface KeyState {
  key: string
  hash: string
  id?: number
  claim?: string
}

const states = new WeakMap<FastifyRequest, KeyState>()

type Hooks = RouteOptions['preValidation']
const list = <T>(hooks: T | T[] | undefined): T[] => (hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks])

function withHeader(schema: RouteOptions['schema']): RouteOptions['schema'] {
  const s = { ...(schema ?? {}) } as Record<string, unknown>
  const headers = s.headers as { properties?: Record<string, TSchema> } | undefined
  s.headers = headers?.properties
    ? Type.Object({ ...headers.properties, ...IdempotencyHeaders.properties })
    : IdempotencyHeaders
  const response = { ...((s.response as Record<string, unknown>) ?? {}) }
  response[409] ??= Message
  response[422] ??= UnprocessableError
  s.response = response
  return s as RouteOptions['schema']
}

/**
 * Makes every route declared with `config: { idempotent: true }` answer Idempotency-Key, and
 * schedules the pruning of expired keys. Call before the routes are registered.
 */
export function registerIdempotency(app: FastifyInstance, ctx: AppContext) {
  idempotentRoutes(app, ctx)
  ctx.jobs.every('idempotency.prune', IDEMPOTENCY_PRUNE_MS, async () => {
    await pruneIdempotencyKeys(ctx.db, ctx.clock.now())
  })
}

/** The onRoute hook alone (registerIdempotency adds the prune job). */
export function idempotentRoutes(app: FastifyInstance, ctx: Pick<AppContext, 'db' | 'clock'>) {
  // Runs after the route's own checks (auth in onRequest, access in preValidation): an outsider
  // is refused as without the header. The body is hashed here, before validation may add defaults.
  const readKey: preValidationAsyncHookHandler = async (req) => {
    const raw = req.headers[HEADER]
    if (raw === undefined) return
    if (typeof raw !== 'string' || !VISIBLE.test(raw)) throw new Invalid(IDEMPOTENCY_HEADER, KEY_MESSAGE)
    if (!req.user) return
    const path = req.url.split('?')[0]
    states.set(req, { key: raw, hash: requestHash(req.method, path, req.body) })
  }

  const claim: preHandlerAsyncHookHandler = async (req: FastifyRequest, reply: FastifyReply) => {
    const state = states.get(req)
    if (!state || !req.user) return
    const res = await claimKey(ctx.db, { userId: req.user.id, key: state.key, hash: state.hash, now: ctx.clock.now() })
    if (res.kind === 'mismatch') {
      throw new Unprocessable(KEY_REUSED_MESSAGE, { [IDEMPOTENCY_HEADER]: [KEY_REUSED_MESSAGE] })
    }
    if (res.kind === 'processing') throw new Conflict(KEY_IN_PROGRESS_MESSAGE)
    if (res.kind === 'replay') {
      reply.code(res.status).header('idempotent-replayed', 'true')
      reply.header('content-type', res.type ?? 'application/json; charset=utf-8')
      return reply.send(res.body)
    }
    state.id = res.id
    state.claim = res.claim
  }

  const store: onSendAsyncHookHandler = async (req, reply, payload) => {
    const state = states.get(req)
    if (state?.id === undefined || state.claim === undefined) return payload
    const { id, claim } = state
    state.id = undefined
    const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : null
    try {
      if (reply.statusCode >= 500 || body === null) {
        await releaseKey(ctx.db, id, claim)
      } else {
        const type = reply.getHeader('content-type')
        await completeKey(ctx.db, id, claim, {
          status: reply.statusCode,
          type: typeof type === 'string' ? type : null,
          body,
        })
      }
    } catch (err) {
      // The answer still goes out; the key stays 'processing' until its lease ends.
      req.log.error({ err }, 'idempotency key not stored')
    }
    return payload
  }

  app.addHook('onRoute', (route) => {
    if (!route.config?.idempotent) return
    route.schema = withHeader(route.schema)
    route.preValidation = [...list(route.preValidation), readKey] as Hooks
    route.preHandler = [...list(route.preHandler), claim] as RouteOptions['preHandler']
    route.onSend = [...list(route.onSend), store] as RouteOptions['onSend']
  })
}
