import { randomUUID } from 'node:crypto'
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerOptions,
  type ServerResponse,
} from 'node:http'
import { performance } from 'node:perf_hooks'
import proxyAddr from '@fastify/proxy-addr'
import type { FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify'
import type { ReadCache, Trail } from './cache.ts'
import type { Clock } from './clock.ts'
import type { RequestRecorder } from './ops.ts'
import type { GuestLimit } from './rate-limit.ts'

// The front cache: a guest's GET of a cached public read (availability, the venue list, nearby
// venues, a venue) answered before routing, from the whole HTTP answer the same URL got last time.
//
// Why: with the answer's bytes already kept on the cached object (src/lib/rendered.ts), what such a
// request still cost was Fastify's request and reply, routing, the hooks, query validation, the
// service's lookups and the reply's headers: about as much again as the socket write itself
// (docs/performance.md, "Issue 36, third session").
//
// What makes it exact: an answer is kept only when its route's handler ran within one synchronous
// call from read-cache hits alone (`ReadCache.follow`), and it is kept in the read cache itself,
// under the tags and the earliest expiry of those entries (an availability day also narrows it to
// its next slot start). So it is dropped by the very NOTIFY that drops what it was made from, and a
// store after such an invalidation is refused. It is kept with every header the 200 was sent with,
// except the request's own (its id, the rate limit's counts), which are made again for each request.
//
// What takes the full path: any method but GET, a request with Authorization (its answer is
// private and its token must be resolved) or with If-None-Match (Fastify answers the 304), anything
// not yet kept, and every request once shutdown has begun (Fastify adds Connection: close). With
// rate limiting on, a request answered here is counted against its address like any guest's, and
// one over the limit takes the full path to its 429. The request histogram and the request's log
// line are written as for any request (`requestRecorder`).

const PREFIX = 'front:'
const KEPT = Symbol('front cache trail')

/** Headers made per request, or by Node: never replayed from a kept answer. */
const OWN = new Set([
  'x-request-id',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'connection',
  'keep-alive',
  'date',
  'transfer-encoding',
])

interface Kept {
  /** The route's pattern: the request histogram's label and the log line's route. */
  route: string
  /** The 200's headers as [name, value, name, value, …], without the request's own. */
  headers: string[]
  bytes: Buffer
}

type Followed = FastifyRequest & { [KEPT]?: { trail: Trail; bytes: Buffer } }

/** A request's id: the caller's X-Request-Id when it is a plain token, else a new UUID (app.ts's genReqId). */
export function requestId(headers: IncomingHttpHeaders): string {
  const given = headers['x-request-id']
  return typeof given === 'string' && /^[\w.-]{1,64}$/.test(given) ? given : randomUUID()
}

/** Fastify's reading of `trustProxy` (its getTrustProxyFn), for the client address of a guest's limit. */
function trustOf(trust: unknown): ((address: string, hop: number) => boolean) | null {
  if (trust === undefined || trust === false || trust === null) return null
  if (typeof trust === 'function') return trust as (address: string, hop: number) => boolean
  if (trust === true) return () => true
  if (typeof trust === 'number') return () => false
  if (typeof trust === 'string') return proxyAddr.compile(trust.split(',').map((t) => t.trim()))
  return proxyAddr.compile(trust as string[])
}

export interface FrontOptions {
  cache: ReadCache
  clock: Clock
  /** True once shutdown has begun. */
  draining: () => boolean
  /** The app's `trustProxy` option, as given to Fastify. */
  trustProxy: unknown
}

export class FrontCache {
  /** Requests answered here (for /metrics). */
  hits = 0
  private limit: GuestLimit | null = null
  private recorder: RequestRecorder | null = null
  private readonly trust: ((address: string, hop: number) => boolean) | null

  constructor(private readonly options: FrontOptions) {
    this.trust = trustOf(options.trustProxy)
  }

  /**
   * Wires the front cache to the app: `recorder` writes each request's metrics and log line, `limit`
   * counts a guest's request (null when limits are off). Until then nothing is answered here.
   */
  wire(recorder: RequestRecorder, limit: GuestLimit | null) {
    this.recorder = recorder
    this.limit = limit
  }

  /** Once a request is answered (the app's onResponse hook): keeps a followed 200 (`handler`). */
  sent(req: Followed, reply: FastifyReply) {
    const followed = req[KEPT]
    if (followed !== undefined && reply.statusCode === 200) this.keep(req, reply, followed.trail, followed.bytes)
  }

  /**
   * A route handler whose guest GET answers may be kept here: it runs within `ReadCache.follow`, and
   * an answer made from cache hits alone (bytes, not a promise) is kept once it is sent with 200.
   */
  handler<Req extends FastifyRequest, Rep extends FastifyReply, T>(
    handle: (req: Req, reply: Rep) => T,
  ): (req: Req, reply: Rep) => T {
    const { cache } = this.options
    return (req, reply) => {
      if (req.method !== 'GET' || req.headers.authorization !== undefined || !cache.enabled) return handle(req, reply)
      const { value, trail } = cache.follow(() => handle(req, reply))
      if (Buffer.isBuffer(value)) (req as Followed)[KEPT] = { trail, bytes: value }
      return value
    }
  }

  private keep(req: FastifyRequest, reply: FastifyReply, trail: Trail, bytes: Buffer) {
    const headers: string[] = []
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value === undefined || OWN.has(name)) continue
      // An answer that sets a cookie is someone's own.
      if (name === 'set-cookie') return
      if (Array.isArray(value)) for (const v of value) headers.push(name, v)
      else headers.push(name, String(value))
    }
    const route = req.routeOptions.url ?? 'unmatched'
    const kept: Kept = { route, headers, bytes }
    // The bytes are the cached object's own (counted with it); the headers and the key about 1 KB.
    this.options.cache.keep(PREFIX + req.url, kept, trail, 1024)
  }

  /**
   * Answers `req` when a kept answer fits it (true), else leaves it to Fastify (false). With rate
   * limiting in Redis the answer may be sent, or handed to `fallback`, after the count comes back.
   */
  answer(req: IncomingMessage, res: ServerResponse, fallback: Handler) {
    const { headers, url } = req
    if (req.method !== 'GET' || url === undefined || this.recorder === null) return false
    if (headers.authorization !== undefined || headers['if-none-match'] !== undefined) return false
    const { cache, clock } = this.options
    if (!cache.enabled || this.options.draining()) return false
    const kept = cache.get<Kept>(PREFIX + url, clock.now().getTime())
    if (kept === undefined) return false
    const start = performance.now()
    if (this.limit === null) {
      this.send(res, kept, requestId(headers), null, start)
      return true
    }
    const address = this.trust === null ? req.socket.remoteAddress : proxyAddr(req, this.trust)
    if (address === undefined) return false
    this.limit(address, (counts) => {
      if (counts === null) fallback(req, res)
      else this.send(res, kept, requestId(headers), counts, start)
    })
    return true
  }

  private send(res: ServerResponse, kept: Kept, id: string, counts: string[] | null, start: number) {
    const headers = kept.headers.slice()
    headers.push('x-request-id', id)
    if (counts !== null) for (const c of counts) headers.push(c)
    res.writeHead(200, headers)
    res.end(kept.bytes)
    this.hits++
    this.recorder?.(id, 'GET', kept.route, 200, performance.now() - start)
  }
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void

/**
 * Fastify's `serverFactory`: the HTTP server Fastify would make (its options: the server's own, the
 * timeouts, requests per socket), whose requests meet the front cache first.
 */
export function frontServer(
  front: FrontCache,
  handler: Handler,
  options: FastifyServerOptions & { http?: ServerOptions | null },
): Server {
  const server = createServer(options.http ?? {}, (req, res) => {
    if (!front.answer(req, res, handler)) handler(req, res)
  })
  // As fastify/lib/server.js sets them on a server it makes itself.
  if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout
  if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout
  server.setTimeout(options.connectionTimeout ?? 0)
  if ((options.maxRequestsPerSocket ?? 0) > 0) server.maxRequestsPerSocket = options.maxRequestsPerSocket ?? 0
  return server
}
