import { join } from 'node:path'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type HookHandlerDoneFunction,
  LogController,
} from 'fastify'
import { Type } from 'typebox'
import type { Config } from './config.ts'
import { registerAnswerLanguage } from './lib/answer-language.ts'
import { authHooks } from './lib/auth.ts'
import { CACHE_CHANNEL, ReadCache } from './lib/cache.ts'
import { ChangeFeed } from './lib/changes.ts'
import { type Clock, systemClock } from './lib/clock.ts'
import { registerConsole } from './lib/console.ts'
import { type AppContext, unwiredSteps } from './lib/context.ts'
import type { DatabaseHandle } from './lib/db.ts'
import { frameworkErrors, NotFound, registerErrorHandler } from './lib/errors.ts'
import { FrontCache, putInFront } from './lib/front-cache.ts'
import { registerIdempotency } from './lib/idempotency.ts'
import { JobQueue } from './lib/jobs.ts'
import { logDestination } from './lib/log-destination.ts'
import { createMessenger, type Messenger } from './lib/messenger.ts'
import { Metrics } from './lib/metrics.ts'
import { openapiOptions } from './lib/openapi.ts'
import { type OpsState, registerOps } from './lib/ops.ts'
import { registerRateLimit } from './lib/rate-limit.ts'
import { requestId } from './lib/request-id.ts'
import { lazyRequestLogger } from './lib/request-logger.ts'
import { RevocationBarrier } from './lib/revocation.ts'
import { edgeServerOptions } from './lib/server-options.ts'
import { localStorage } from './lib/storage.ts'
import { registerUploads } from './lib/uploads.ts'
import { buildSerializer, buildValidator } from './lib/validation.ts'
import { frameOptions, loadWebApp, registerWeb } from './lib/web.ts'
import { Zone } from './lib/zone.ts'
import { registerModules, wireSteps } from './modules/index.ts'

export type App = FastifyInstance

export interface BuildOptions {
  config: Config
  database: DatabaseHandle
  messenger?: Messenger
  logger?: boolean
  /** Where log lines go (default stdout); tests read them. */
  logStream?: { write(line: string): void }
  /** Node process metrics (CPU, memory, event loop) in /metrics: the server, not tests. */
  processMetrics?: boolean
  /** Shared with the shutdown sequence (server.ts): draining makes /ready answer 503. */
  opsState?: OpsState
  /** "Now" for the app's rules (default the system clock); tests pass a ManualClock. */
  clock?: Clock
}

/** The request declares a body (a length above 0, or chunked). */
function hasBody(req: FastifyRequest) {
  const { headers } = req
  return headers['transfer-encoding'] !== undefined || (headers['content-length'] ?? '0') !== '0'
}

export async function buildApp({
  config,
  database,
  messenger,
  logger = true,
  logStream,
  processMetrics = false,
  opsState = { draining: false },
  clock = systemClock,
}: BuildOptions): Promise<App> {
  const cache = new ReadCache(config.cacheTtlMs, undefined, clock, config.cacheMaxMb * 1024 * 1024)
  const edge = edgeServerOptions(config)
  const front = new FrontCache({ cache, clock, draining: () => opsState.draining, trustProxy: edge.trustProxy })
  const app = Fastify({
    logger: logger
      ? { level: config.logLevel, redact: ['req.headers.authorization'], stream: logStream ?? logDestination(config) }
      : false,
    // One line per request, written by registerOps when the response is sent (route, status, time).
    logController: new LogController({ disableRequestLogging: true }),
    // req.log is made only when a request logs through it (src/lib/request-logger.ts).
    childLoggerFactory: lazyRequestLogger,
    // While shutting down, a request on an open keep-alive connection is still served (with
    // Connection: close) instead of answered 503: the client sent it before it could know.
    return503OnClosing: false,
    genReqId: (req) => requestId(req.headers),
    ...edge,
    frameworkErrors,
    bodyLimit: 1024 * 1024,
    schemaController: { compilersFactory: { buildValidator, buildSerializer } },
  }).withTypeProvider<TypeBoxTypeProvider>()
  // The front cache answers a guest's GET of a kept public read before Fastify sees it (src/lib/front-cache.ts).
  putInFront(app.server, front)

  const jobs = new JobQueue(database.db, app.log, config.jobsPollMs)
  const changes = new ChangeFeed(database.listen, CACHE_CHANNEL)
  const revocation = new RevocationBarrier(database.db, changes, app.log)
  const ctx: AppContext = {
    config,
    db: database.db,
    dbKind: database.kind,
    jobs,
    messenger: messenger ?? createMessenger(config),
    storage: localStorage(config.uploadsDir, config.appUrl),
    log: app.log,
    cache,
    front,
    changes,
    revocation,
    metrics: new Metrics({ database, db: database.db, jobs, cache, front }, { processMetrics }),
    clock,
    zone: new Zone(config.timezone),
    steps: unwiredSteps(),
  }
  wireSteps(ctx)
  app.decorate('ctx', ctx)
  app.decorate(
    'auth',
    authHooks(() => ctx.db, ctx.cache, clock),
  )
  app.decorateRequest('user', null)

  // Hooks on every request are callback style: an async hook costs a promise and a microtask turn.
  // One onSend hook for every answer: the request id, and a refusal sent before the body was read
  // (a 415 multipart upload, a 401 before a large JSON body) closes the connection, so the client
  // stops sending (otherwise Node reads and discards the rest of, say, 200 MB on a kept-alive socket).
  // Only a request that has a body: while a bodyless GET is answered within its own 'request' event
  // (a cached read, a 404 thrown by a handler that is not async) Node has not yet marked it complete.
  app.addHook('onSend', (req, reply, payload, done) => {
    reply.header('x-request-id', req.id)
    frameOptions(reply)
    if (reply.statusCode >= 400 && !req.raw.complete && hasBody(req)) reply.header('connection', 'close')
    done(null, payload)
  })

  // An empty JSON body is an empty object (clients often send Content-Type with no body).
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = String(body)
    if (text.trim() === '') return done(null, {})
    try {
      done(null, JSON.parse(text))
    } catch {
      const err = new SyntaxError('Malformed JSON') as SyntaxError & { statusCode: number; code: string }
      err.statusCode = 400
      err.code = 'FST_ERR_CTP_INVALID_JSON_BODY'
      done(err, undefined)
    }
  })
  // Added to the routes that take a body only (a hook on every GET would be called for nothing).
  const emptyBody = (req: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
    if (req.body === undefined) req.body = {}
    done()
  }
  app.addHook('onRoute', (route) => {
    if (![route.method].flat().some((m) => m === 'POST' || m === 'PUT' || m === 'PATCH')) return
    // First among the route's own preValidation hooks (a scope's addHook ones, none today, run before).
    const own = route.preValidation
    route.preValidation = own == null ? [emptyBody] : [emptyBody, ...[own].flat()]
  })

  const web = loadWebApp(config.webDir)
  registerErrorHandler(app, web.fallback)
  // Before the routes: a success answer's `message` in the request's language (docs/languages.md).
  registerAnswerLanguage(app)
  const guestLimit = await registerRateLimit(app, config)
  registerUploads(app, join(config.dataDir, 'incoming'), config.maxImagePixels)

  await app.register(swagger, openapiOptions(ctx))
  await app.register(swaggerUi, { routePrefix: '/docs' })

  front.wire(
    registerOps(app, ctx.metrics, opsState, (req, reply) => front.sent(req, reply)),
    guestLimit,
  )
  await registerConsole(app, config.consoleDir, config.mapTileUrl)
  await registerWeb(app, web)
  app.get('/storage/*', { schema: { hide: true, params: Type.Object({ '*': Type.String() }) } }, async (req, reply) => {
    const path = req.params['*']
    const data = await ctx.storage.get(path).catch(() => null)
    if (!data) throw new NotFound()
    const ext = path.split('.').pop() ?? ''
    const types: Record<string, string> = { jpg: 'image/jpeg', png: 'image/png', webp: 'image/webp' }
    // Never sniffed into something else (an HTML or script file served as an image).
    reply.header('x-content-type-options', 'nosniff')
    return reply.type(types[ext] ?? 'application/octet-stream').send(data)
  })

  // Before the routes: it wires every route declared with `config: { idempotent: true }`.
  registerIdempotency(app, ctx)
  await registerModules(app)

  // The read cache only stores while it hears the database's change notifications. The listener
  // starts now when the cache is on; otherwise the first desk event stream starts it.
  ctx.changes.subscribe((tag) => {
    if (!RevocationBarrier.isOwnMessage(tag)) ctx.cache.invalidate(tag)
  })
  ctx.changes.onState((live) => {
    ctx.cache.live = live
    if (!live) ctx.cache.clear()
  })
  if (config.cacheTtlMs > 0) {
    await ctx.changes.start()
    // This instance caches token owners: revocations elsewhere wait for it to forget them.
    await revocation.join()
  }

  app.addHook('onClose', async () => {
    await ctx.jobs.stop()
    await revocation.leave()
    await ctx.changes.stop()
  })
  return app
}
