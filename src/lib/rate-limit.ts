import { createHash, randomBytes } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'
import type { Config } from '../config.ts'
import { type Counters, type Hit, memoryCounters, redisCounters } from './counters.ts'
import { AppError, TooManyTries } from './errors.ts'

// Limits of the contract: register 10/min, verification resend 6/min, login and OTP configurable,
// 60/min for everything else. Counted in Redis when REDIS_URL is set (shared by every instance),
// in memory otherwise.
//
// Who is counted: a signed-in request (a bearer token that resolves to a user) counts against its
// user, wherever it comes from; any other request against its address (req.ip, which believes
// X-Forwarded-For only from the proxies TRUST_PROXY names). On top of the per-client limits, login
// failures are counted per account identifier and OTP sends per recipient, so many addresses
// together cannot brute-force one account or flood one phone (docs/deployment.md, "Rate limits").

export type LimitName = 'register' | 'emailResend' | 'login' | 'otp'

// Sign-up, sign-in and OTP are guest routes: a token there would let one attacker's accounts each
// bring a fresh bucket, so they stay per address.
const PER_USER: Record<LimitName, boolean> = { register: false, emailResend: true, login: false, otp: false }

const WINDOW_MS = 60_000

/**
 * Routes that never spend the budget: everything outside the API. That is the health and readiness
 * probes, the metrics scrape, the API docs, and the web app's and console's own files (pages,
 * scripts, styles, icons, the manifest, the service worker): a player's browser fetches dozens of
 * them, and many players share one address at a venue's Wi-Fi. The not-found handler (unknown
 * paths, and page paths it answers with the web app's shell) is still counted.
 */
const isFreeRoute = (url: string) => url !== '/api' && !url.startsWith('/api/')

/**
 * The header that marks this process's calls to itself (the in-process payment sandbox reached
 * through inject): never counted, since they are the service's own work on behalf of a request that
 * was. Its value is random per process, so no client can send it.
 */
export const INTERNAL_CALL_HEADER = 'x-courtside-internal'
const INTERNAL_CALL = randomBytes(16).toString('hex')

/** Headers for a call of this process to itself (inject) that the rate limit must not count. */
export function internalCall(): Record<string, string> {
  return { [INTERNAL_CALL_HEADER]: INTERNAL_CALL }
}

/** The rate-limit key of the client behind a request: its user when signed in, else its address. */
async function clientKey(app: FastifyInstance, req: FastifyRequest): Promise<string> {
  // An unknown, revoked or malformed token falls back to the address, so made-up tokens cannot
  // open fresh buckets.
  const user = await app.auth.identify(req).catch(() => null)
  return user ? `user:${user.id}` : `ip:${req.ip}`
}

/** Route config for a named limit: `{ config: namedLimit(app, 'login') }`. */
export function namedLimit(app: FastifyInstance, name: LimitName) {
  return {
    rateLimit: {
      max: app.ctx.config.rateLimits[name],
      timeWindow: WINDOW_MS,
      keyGenerator: PER_USER[name]
        ? async (req: FastifyRequest) => `${name}:${await clientKey(app, req)}`
        : (req: FastifyRequest) => `${name}:ip:${req.ip}`,
    },
  }
}

export class TooManyAttempts extends AppError {
  constructor() {
    super(429, 'Too Many Attempts.')
  }
}

/** Limits keyed by what a request is about rather than who sends it. */
export interface AccountLimits {
  /**
   * Counts a sign-in attempt against the account identifier (email or phone as typed); 429 once the
   * account has used RATE_LIMIT_LOGIN_ACCOUNT attempts this minute. Attempts are counted before the
   * password is checked, so parallel guesses cannot overshoot; call the returned function when the
   * password was right: a successful sign-in clears the count, leaving only failures counted.
   */
  loginAttempt(reply: FastifyReply, login: string): Promise<() => Promise<void>>
  /** Counts an OTP send to a normalised recipient; 429 beyond RATE_LIMIT_OTP_IDENTIFIER a minute. */
  otpSend(reply: FastifyReply, identifier: string): Promise<void>
}

declare module 'fastify' {
  interface FastifyInstance {
    accountLimits: AccountLimits
  }
}

const unlimited: AccountLimits = {
  loginAttempt: async () => async () => undefined,
  otpSend: async () => undefined,
}

// Identifiers are hashed: keys stay short and Redis holds no email addresses or phone numbers.
const digest = (value: string) => createHash('sha256').update(value).digest('base64url').slice(0, 32)

function accountLimits(app: FastifyInstance, config: Config, counters: Counters): AccountLimits {
  /** Counts one hit; throws the contract's 429 with its headers when over `max`. */
  const hit = async (reply: FastifyReply, key: string, max: number) => {
    let count: number
    let ttlMs: number
    try {
      ;({ count, ttlMs } = await counters.hit(key, WINDOW_MS))
    } catch (err) {
      // Like the per-client limits (skipOnError): a Redis outage must not take sign-in down with it.
      app.log.warn({ err }, 'rate-limit store unavailable; request not counted')
      return
    }
    if (count <= max) return
    const seconds = Math.max(1, Math.ceil(ttlMs / 1000))
    reply.header('x-ratelimit-limit', max)
    reply.header('x-ratelimit-remaining', 0)
    reply.header('x-ratelimit-reset', seconds)
    reply.header('retry-after', seconds)
    throw new TooManyAttempts()
  }
  return {
    async loginAttempt(reply, login) {
      const key = `login:${digest(login.trim().toLowerCase())}`
      await hit(reply, key, config.accountLimits.login)
      return async () => {
        await counters.reset(key).catch((err) => app.log.warn({ err }, 'rate-limit store unavailable'))
      }
    },
    async otpSend(reply, identifier) {
      await hit(reply, `otp:${digest(identifier.trim().toLowerCase())}`, config.accountLimits.otpIdentifier)
    },
  }
}

/** A request counted before routing, and what the count gave (`err`: the store failed). */
export const COUNTED = Symbol('counted before routing')
export type Counted = IncomingMessage & { [COUNTED]?: { err: unknown; hit: Hit | null } }

/** What the front cache counted of this request before routing, if it did (its field is optional). */
function countedBefore(raw: Counted) {
  return raw[COUNTED]
}

/**
 * The default limit for a guest's request answered before routing (src/lib/front-cache.ts): `count`
 * counts it against its address as the limit's hook would; `headers` are the x-ratelimit headers to
 * send with it, or null when it must take the full path instead (over the limit, or the store
 * failed). Such a request is marked COUNTED with the result, and the hook answers from that (its
 * 429, or no count when the store failed) instead of counting it a second time.
 */
export interface GuestLimit {
  count(address: string, counted: (err: unknown, hit: Hit | null) => void): void
  headers(err: unknown, hit: Hit | null): string[] | null
}

/** The limits; the default one for guests' requests answered before routing, or null when limits are off. */
export async function registerRateLimit(app: FastifyInstance, config: Config): Promise<GuestLimit | null> {
  if (!config.rateLimitEnabled) {
    app.decorate('accountLimits', unlimited)
    return null
  }
  const { default: rateLimit } = await import('@fastify/rate-limit')
  let redis: import('ioredis').Redis | undefined
  if (config.redisUrl) {
    const { Redis } = await import('ioredis')
    // Commands issued in the same tick go out in one write (one per request under load otherwise).
    redis = new Redis(config.redisUrl, {
      connectTimeout: 2000,
      maxRetriesPerRequest: 1,
      lazyConnect: false,
      enableAutoPipelining: true,
    })
    app.addHook('onClose', async () => {
      await redis?.quit().catch(() => undefined)
    })
  }
  const counters = redis ? redisCounters(redis, `${config.rateLimitPrefix}account:`) : memoryCounters()
  app.decorate('accountLimits', accountLimits(app, config, counters))

  // Must run before the plugin's own onRoute hook, which attaches a limiter unless told not to.
  app.addHook('onRoute', (route) => {
    if (isFreeRoute(route.url)) route.config = { ...route.config, rateLimit: false }
  })
  await app.register(rateLimit, {
    // The named limits only (routes with `config.rateLimit`, namedLimit above). The default limit is
    // the hook below: the plugin's own hook is async (three promises per request, its key generator,
    // its store callback) and cost about 5 µs on every request (docs/performance.md, "The floor").
    global: false,
    max: config.rateLimits.default,
    timeWindow: WINDOW_MS,
    redis,
    nameSpace: config.rateLimitPrefix,
    skipOnError: true,
    keyGenerator: (req) => clientKey(app, req),
    errorResponseBuilder: (_req, ctx) => ({ statusCode: 429, message: 'Too Many Attempts.', ttl: ctx.ttl }),
  })
  return defaultLimit(
    app,
    config.rateLimits.default,
    redis ? redisCounters(redis, config.rateLimitPrefix) : memoryCounters(),
  )
}

/**
 * The default limit (RATE_LIMIT_DEFAULT a minute per client) on every route without a named limit or
 * `rateLimit: false`, as a global onRequest hook: it runs before a route's own auth hook, so requests
 * refused with 401 (a flood of made-up tokens) are counted too. Callback style: a guest's request is
 * counted without a promise, within the call when the counters are in memory. The same headers and
 * 429 as the plugin's named limits.
 */
function defaultLimit(app: FastifyInstance, max: number, counters: Counters): GuestLimit {
  let warnedAt = Number.NEGATIVE_INFINITY
  const outcome = (err: unknown, hit: Hit | null | undefined, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    if (err || !hit) {
      // Like the named limits (skipOnError): a Redis outage must not take the service down with it.
      // Said at most every 10 s, not once per request of the outage.
      const now = Date.now()
      if (now - warnedAt >= 10_000) {
        warnedAt = now
        app.log.warn({ err }, 'rate-limit store unavailable; requests not counted')
      }
      return done()
    }
    const seconds = Math.ceil(hit.ttlMs / 1000)
    if (hit.count > max) return done(new TooManyTries(max, seconds))
    reply.header('x-ratelimit-limit', max)
    reply.header('x-ratelimit-remaining', max - hit.count)
    reply.header('x-ratelimit-reset', seconds)
    done()
  }
  const count = (key: string, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    counters.count(key, WINDOW_MS, (err, hit) => outcome(err, hit, reply, done))
  }
  app.addHook('onRequest', (req, reply, done) => {
    // A named limit (an object) replaces the default; `false` (isFreeRoute) is exempt, and so are
    // this process's calls to itself.
    if (req.routeOptions.config?.rateLimit !== undefined) return done()
    if (req.headers[INTERNAL_CALL_HEADER] === INTERNAL_CALL) return done()
    // Counted already before routing (the front cache): its outcome, not a second count.
    const counted = countedBefore(req.raw)
    if (counted !== undefined) return outcome(counted.err, counted.hit, reply, done)
    if (req.headers.authorization === undefined) return count(`ip:${req.ip}`, reply, done)
    clientKey(app, req).then((key) => count(key, reply, done), done)
  })
  return {
    count(address, counted) {
      counters.count(`ip:${address}`, WINDOW_MS, (err, hit) => counted(err, hit ?? null))
    },
    headers(err, hit) {
      if (err || hit === null || hit.count > max) return null
      const seconds = String(Math.ceil(hit.ttlMs / 1000))
      return [
        'x-ratelimit-limit',
        String(max),
        'x-ratelimit-remaining',
        String(max - hit.count),
        'x-ratelimit-reset',
        seconds,
      ]
    },
  }
}
