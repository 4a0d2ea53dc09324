// The framework floor, piece by piece (bench/floor.ts): a Fastify app with one route answering the
// 15 bytes of /health, with the app's global pieces added in turn, as named by argv[2] (a
// comma-separated list, each piece on top of the ones before it in PIECES). It imports the pieces
// the app uses from dist/ (`npm run build`), so it measures the code that runs, not a copy of it.
// Listens on argv[3] and prints "ready".
import { randomUUID } from 'node:crypto'
import Fastify, { LogController } from 'fastify'
import { loadConfig } from '../dist/config.js'
import { authHooks } from '../dist/lib/auth.js'
import { ReadCache } from '../dist/lib/cache.js'
import { systemClock } from '../dist/lib/clock.js'
import { frameworkErrors, registerErrorHandler } from '../dist/lib/errors.js'
import { logDestination } from '../dist/lib/log-destination.js'
import { requestLineWriter } from '../dist/lib/ops.js'
import { registerRateLimit } from '../dist/lib/rate-limit.js'
import { RequestHistogram } from '../dist/lib/request-histogram.js'
import { lazyRequestLogger } from '../dist/lib/request-logger.js'
import { edgeServerOptions } from '../dist/lib/server-options.js'
import { frameOptions } from '../dist/lib/web.js'

const pieces = new Set((process.argv[2] ?? '').split(',').filter(Boolean))
const port = Number(process.argv[3])
const has = (p) => pieces.has(p)

// The production settings come from bench/floor.ts (SERVER_ENV of bench/wrk.ts).
const config = loadConfig({
  ...process.env,
  LOG_LEVEL: 'info',
  // A limit the load does not reach: the limiter's work is measured, not its 429s.
  RATE_LIMIT_DEFAULT: '1000000000',
})

/** The app's log destination (src/lib/log-destination.ts) when the pieces name it, else pino's default. */
function logStream() {
  return has('log-buffer') ? logDestination({ ...config, logBufferBytes: 4096 }) : undefined
}

const app = Fastify({
  logger: has('logger') ? { level: 'info', redact: ['req.headers.authorization'], stream: logStream() } : false,
  ...(has('logger')
    ? { logController: new LogController({ disableRequestLogging: true }), childLoggerFactory: lazyRequestLogger }
    : {}),
  ...(has('request-id')
    ? {
        genReqId: (req) => {
          const given = req.headers['x-request-id']
          return typeof given === 'string' && /^[\w.-]{1,64}$/.test(given) ? given : randomUUID()
        },
      }
    : {}),
  ...(has('edge') ? { ...edgeServerOptions(config), frameworkErrors } : {}),
})

if (has('request-id') || has('frame-options')) {
  app.addHook('onSend', (req, reply, payload, done) => {
    if (has('request-id')) reply.header('x-request-id', req.id)
    if (has('frame-options')) frameOptions(reply)
    done(null, payload)
  })
}
if (has('metrics') || has('log-line')) {
  const histogram = new RequestHistogram()
  const writeLine = has('log-line-pino') ? null : requestLineWriter(app.log)
  app.addHook('onResponse', (req, reply, done) => {
    const route = req.is404 ? 'unmatched' : (req.routeOptions.url ?? 'unmatched')
    if (has('metrics')) histogram.observe(req.method, route, reply.statusCode, reply.elapsedTime / 1000)
    if (has('log-line')) {
      const ms = Math.round(reply.elapsedTime * 10) / 10
      // As src/lib/ops.ts writes it (straight to the destination), or through pino's info().
      if (writeLine) writeLine(30, req.id, req.method, route, reply.statusCode, ms)
      else app.log.info({ reqId: req.id, method: req.method, route, status: reply.statusCode, ms }, 'request')
    }
    done()
  })
}
if (has('errors')) registerErrorHandler(app)
if (has('rate-limit') || has('rate-limit-redis')) {
  app.decorate(
    'auth',
    authHooks(() => null, new ReadCache(30_000), systemClock),
  )
  await registerRateLimit(app, {
    ...config,
    redisUrl: has('rate-limit-redis') ? (process.env.REDIS_URL ?? 'redis://127.0.0.1:6379') : undefined,
  })
}

const HEALTHY = { status: 'ok' }
app.get(
  '/api/floor',
  { schema: { response: { 200: { type: 'object', properties: { status: { type: 'string' } } } } } },
  () => HEALTHY,
)
await app.listen({ port, host: '127.0.0.1' })
console.log('ready')
// A normal exit on a signal, so `node --cpu-prof` writes its profile.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(0))
