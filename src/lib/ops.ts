import { createHash, timingSafeEqual } from 'node:crypto'
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { pino } from 'pino'
import { Type } from 'typebox'
import type { Metrics } from './metrics.ts'
import { migrationStatus } from './migrate.ts'

// Operating the service: liveness (/health), readiness (/ready), Prometheus metrics (/metrics) and
// the one log line per request. See README "Operating" and docs/deployment.md.

/** Probe and scrape routes: logged at debug only (a load balancer calls them every few seconds). */
const PROBES = new Set(['/health', '/ready', '/metrics'])
/** pino's level numbers: a line is built only when the logger's level lets it through ('silent': none). */
const LEVELS: Record<string, number | undefined> = pino.levels.values
const HEALTHY = { status: 'ok' as const }
/** How long /ready waits for the database before calling it failing. */
const READY_TIMEOUT_MS = 2000

export interface OpsState {
  /** Set when shutdown begins: /ready answers 503 so the load balancer stops sending traffic. */
  draining: boolean
}

const Checks = Type.Record(Type.String(), Type.String(), {
  description: '"ok", "off" (not used by this instance) or "failing: <why>", per part',
})
const ReadyBody = Type.Object({ status: Type.Literal('ok'), checks: Checks })
const NotReadyBody = Type.Object({ message: Type.String(), status: Type.Literal('unavailable'), checks: Checks })

/** The probe routes and the request line; returns how a request is recorded, for the front cache too. */
export function registerOps(
  app: FastifyInstance,
  metrics: Metrics,
  state: OpsState,
  /** Called once each request is answered, before it is recorded (the front cache keeps answers then). */
  answered: (req: FastifyRequest, reply: FastifyReply) => void = () => {},
): RequestRecorder {
  const { ctx } = app
  // Production stand-ins the operator opted into (PAYMENT_SANDBOX_IN_PRODUCTION, OUTBOX_LOG_IN_PRODUCTION):
  // said at every start, so nobody mistakes a demo for the real thing.
  for (const warning of ctx.config.startWarnings) app.log.warn(warning)

  const finished = requestRecorder(app.log, metrics)
  // Callback style (it runs on every request): no promise per request.
  app.addHook('onResponse', (req, reply, done) => {
    answered(req, reply)
    const route = req.is404 ? 'unmatched' : (req.routeOptions.url ?? 'unmatched')
    finished(req.id, req.method, route, reply.statusCode, reply.elapsedTime)
    done()
  })

  app.get(
    '/health',
    {
      schema: {
        tags: ['Operations'],
        operationId: 'getHealth',
        security: [],
        summary: 'Liveness: the process is up',
        description: 'Answers 200 while the process runs; checks nothing else (see /ready). Not rate-limited.',
        response: { 200: Type.Object({ status: Type.Literal('ok') }) },
      },
    },
    // Not async: answered within the handler's call, no promise per probe.
    () => HEALTHY,
  )

  app.get(
    '/ready',
    {
      schema: {
        tags: ['Operations'],
        operationId: 'getReadiness',
        security: [],
        summary: 'Readiness: this instance can serve traffic',
        description:
          'Checks that the database answers, every migration of this build is applied (and none unknown), the ' +
          'read-cache invalidation listener is connected and the job loop is running. 503 names the failing parts; ' +
          'also 503 once shutdown has begun. Not rate-limited.',
        response: { 200: ReadyBody, 503: NotReadyBody },
      },
    },
    async (_req, reply) => {
      const checks: Record<string, string> = {}
      try {
        const status = await withTimeout(migrationStatus(ctx.db), READY_TIMEOUT_MS)
        checks.database = 'ok'
        checks.migrations =
          status.unknown.length > 0
            ? `failing: unknown to this build: ${status.unknown.join(', ')}`
            : status.pending.length > 0
              ? `failing: pending: ${status.pending.join(', ')}`
              : 'ok'
      } catch (err) {
        checks.database = `failing: ${(err as Error).message || 'no answer'}`
        checks.migrations = 'failing: database unavailable'
      }
      checks.cache =
        ctx.config.cacheTtlMs === 0 ? 'off' : ctx.cache.live ? 'ok' : 'failing: invalidation listener not connected'
      checks.jobs = !ctx.config.jobsEnabled ? 'off' : ctx.jobs.isRunning() ? 'ok' : 'failing: job loop not running'
      if (state.draining) checks.shutdown = 'failing: shutting down'
      const failing = Object.keys(checks).filter((k) => checks[k].startsWith('failing'))
      if (failing.length === 0) return { status: 'ok' as const, checks }
      return reply
        .code(503)
        .send({ message: `Not ready: ${failing.join(', ')}.`, status: 'unavailable' as const, checks })
    },
  )

  // With METRICS_TOKEN a scrape needs it as a bearer token. Without one /metrics is open: production
  // refuses to start that way (src/config.ts) unless METRICS_PUBLIC=true says the network is private,
  // as an open /metrics tells anyone the traffic, routes and payments.
  const token = ctx.config.metricsToken
  app.get('/metrics', { schema: { hide: true } }, async (req, reply) => {
    if (token !== undefined && !bearerMatches(req.headers.authorization, token)) {
      return reply.code(401).send({ message: 'Unauthenticated.' })
    }
    const text = await metrics.text()
    return reply.type(metrics.contentType).send(text)
  })
  return finished
}

/** Compared as SHA-256 digests in constant time: neither the token's characters nor its length leak. */
function bearerMatches(header: string | undefined, token: string) {
  const given = /^Bearer /i.test(header ?? '') ? (header as string).slice(7) : undefined
  if (given === undefined) return false
  const digest = (text: string) => createHash('sha256').update(text).digest()
  return timingSafeEqual(digest(given), digest(token))
}

/**
 * The request line, written straight to the app logger's destination in pino's own format:
 * `{"level":30,"time":…,"pid":…,"hostname":…,"reqId":…,"method":…,"route":…,"status":…,"ms":…,"msg":"request"}`.
 * pino's general path (its level method, the object's keys walked and each value stringified, the
 * redaction wrapper) cost about 5 µs of the line's 10–13 µs per request in a profile of the framework
 * floor (docs/performance.md, "The floor piece by piece"); this is one template string. The route's
 * JSON is made once per route. Null, and pino writes the line, when the logger has anything this
 * does not reproduce (a mixin, a message prefix, hooks, a nested key, a custom time or message key):
 * the app's own logger (app.ts) has none of them.
 */
export function requestLineWriter(log: FastifyBaseLogger) {
  const logger = log as unknown as Record<symbol, unknown>
  // pino's symbols (msgPrefixSym is missing from its types).
  const symbols = pino.symbols as typeof pino.symbols & { msgPrefixSym: symbol }
  const stream = logger[symbols.streamSym] as { write(line: string): unknown } | undefined
  const chindings = logger[symbols.chindingsSym]
  const plain =
    typeof stream?.write === 'function' &&
    typeof chindings === 'string' &&
    logger[symbols.mixinSym] == null &&
    !logger[symbols.msgPrefixSym] &&
    logger[symbols.nestedKeySym] == null &&
    logger[symbols.messageKeySym] === 'msg' &&
    logger[symbols.timeSym] === pino.stdTimeFunctions.epochTime &&
    (logger[symbols.hooksSym] as { logMethod?: unknown } | undefined)?.logMethod === undefined
  if (!plain || !stream) return null
  const routes = new Map<string, string>()
  return (level: number, reqId: string, method: string, route: string, status: number, ms: number) => {
    let json = routes.get(route)
    if (json === undefined) {
      json = JSON.stringify(route)
      routes.set(route, json)
    }
    stream.write(
      `{"level":${level},"time":${Date.now()}${chindings},"reqId":${JSON.stringify(reqId)},"method":${JSON.stringify(method)},` +
        `"route":${json},"status":${status},"ms":${ms},"msg":"request"}\n`,
    )
  }
}

/** Records a request once answered (`ms` since it arrived), by the route's pattern: metrics and its log line. */
export type RequestRecorder = (reqId: string, method: string, route: string, status: number, ms: number) => void

/**
 * What every answered request leaves behind: its observation in the request histogram and one log
 * line (at info; debug for the probes). Shared by the app's onResponse hook and the front cache
 * (src/lib/front-cache.ts), which answers before routing.
 */
export function requestRecorder(log: FastifyBaseLogger, metrics: Metrics): RequestRecorder {
  const writeLine = requestLineWriter(log)
  return (reqId, method, route, status, elapsed) => {
    metrics.observeRequest(method, route, status, elapsed / 1000)
    // Written by the app logger with the request id (what req.log binds): most requests never need
    // their own child logger (src/lib/request-logger.ts). Built only when its level is logged.
    const level = PROBES.has(route) ? 'debug' : 'info'
    const current = LEVELS[log.level]
    const wanted = LEVELS[level] ?? 0
    if (current !== undefined && current <= wanted) {
      const ms = Math.round(elapsed * 10) / 10
      if (writeLine) writeLine(wanted, reqId, method, route, status, ms)
      else log[level]({ reqId, method, route, status, ms }, 'request')
    }
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}
