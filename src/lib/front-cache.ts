import { type IncomingMessage, Server, type ServerResponse } from 'node:http'
import { Server as HttpsServer } from 'node:https'
import { performance } from 'node:perf_hooks'
import proxyAddr from '@fastify/proxy-addr'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { ReadCache, Trail } from './cache.ts'
import type { Clock } from './clock.ts'
import type { RequestRecorder } from './ops.ts'
import { COUNTED, type Counted, type GuestLimit } from './rate-limit.ts'
import { requestId } from './request-id.ts'

// The front cache: a guest's GET of a cached public read (availability, the venue list, nearby
// venues, a venue) answered before routing, from the whole HTTP answer the same URL got last time.
//
// Why: with the answer's bytes already kept on the cached object (src/lib/rendered.ts), what such a
// request still cost was Fastify's request and reply, routing, the hooks, query validation, the
// service's lookups and the reply's headers: about as much again as the socket write itself
// (docs/performance.md, "The front cache, ETag/304 and the read cache").
//
// What makes it exact: an answer is kept only when its route's handler ran within one synchronous
// call from read-cache hits alone (`ReadCache.follow`), under the tags and the earliest expiry of
// those entries (an availability day also narrows it to its next slot start and its date's end). So
// it is dropped by the very NOTIFY that drops what it was made from, and a store after such an
// invalidation is refused. It is kept with every header the 200 was sent with, except the request's
// own (its id, the rate limit's counts), which are made again for each request. Kept answers have a
// store of their own beside the read cache's entries (`ReadCache.keep`), with its own caps, and URLs
// with percent-encoding, numbers with leading zeros or undeclared query keys are not kept
// (`canonical`), so URLs made up by the million churn that store at most and never push out the
// entries the service reads.
//
// What takes the full path: any method but GET, a request with Authorization (its answer is
// private and its token must be resolved), with If-None-Match (Fastify answers the 304) or with a
// body or content type, anything not kept, and every request once shutdown has begun (draining, or
// the server no longer listening; Fastify adds Connection: close). With rate limiting on, a request
// answered here is counted against its address as the default limit's hook would count it (the
// same counters, the client address read as Fastify reads it); one over the limit, or met by a
// store failure, takes the full path marked with that count, and the hook answers from it. The
// request histogram and the request's log line are written as for any request (`requestRecorder`).

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

/** Marks a request's answer as kept (its fields are optional, so any request is a Followed). */
function keep(req: Followed, kept: NonNullable<Followed[typeof KEPT]>) {
  req[KEPT] = kept
}

/** Hands the count made before routing to the rate limit's hook (rate-limit.ts, COUNTED). */
function markCounted(req: Counted, counted: NonNullable<Counted[typeof COUNTED]>) {
  req[COUNTED] = counted
}

/** A path segment or a query value that is a number written with a leading zero (`/0003/`, `=07.5`). */
const LEADING_ZERO = /[/=]0\d[\d.]*(?=$|[/?&])/

/**
 * True when `url` is written in a way that is kept: no percent-encoding (`%33` for `3`), no segment
 * or value that is a number with a leading zero (`/api/courts/0003/…` for court 3; a slug such as
 * `01-arena` is kept), and only the keys the route's query schema declares, each once (no
 * cache-busting extras such as `_=<time>`). Other URLs are answered by the full path every time.
 * Other spellings remain (`3.50` for `3.5`, a key's order): what they can take is bounded by the
 * store's own caps, never the read cache's entries.
 */
function canonical(url: string, schema: unknown): boolean {
  if (url.includes('%') || LEADING_ZERO.test(url)) return false
  const at = url.indexOf('?')
  if (at < 0) return true
  const declared = (schema as { querystring?: { properties?: object } } | undefined)?.querystring?.properties ?? {}
  const seen = new Set<string>()
  for (const pair of url.slice(at + 1).split('&')) {
    const key = pair.split('=', 1)[0]
    if (!Object.hasOwn(declared, key) || seen.has(key)) return false
    seen.add(key)
  }
  return true
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
  /** The server it answers on (`putInFront`); once it stops listening (closing), nothing is answered here. */
  server: Server | null = null
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
      if (Buffer.isBuffer(value)) keep(req, { trail, bytes: value })
      return value
    }
  }

  private keep(req: FastifyRequest, reply: FastifyReply, trail: Trail, bytes: Buffer) {
    const url = req.url
    if (!canonical(url, req.routeOptions.schema)) return
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
    // Counted in full, bytes included: they outlive the cached object when it is evicted first.
    const size = 2 * url.length + bytes.length + headers.reduce((n, h) => n + 2 * h.length + 16, 64)
    this.options.cache.keep(PREFIX + url, kept, trail, size)
  }

  /**
   * Answers `req` when a kept answer fits it (true), else leaves it to Fastify (false). With rate
   * limiting in Redis the answer is sent, or handed to `fallback`, once the count comes back.
   */
  answer(req: IncomingMessage, res: ServerResponse, fallback: Handler) {
    const kept = this.fits(req)
    if (kept === undefined) return false
    const start = performance.now()
    if (this.limit === null) {
      this.send(res, kept, requestId(req.headers), null, start)
      return true
    }
    const address = this.trust === null ? req.socket.remoteAddress : proxyAddr(req, this.trust)
    if (address === undefined) return false
    const limit = this.limit
    limit.count(address, (err, hit) => {
      const counts = limit.headers(err, hit)
      // In Redis the count takes a round trip: what was kept may have been dropped meanwhile.
      const still = counts === null ? undefined : this.fits(req)
      if (counts === null || still === undefined) {
        // The full path answers it with this count (its 429), without counting it again.
        markCounted(req, { err, hit })
        fallback(req, res)
      } else this.send(res, still, requestId(req.headers), counts, start)
    })
    return true
  }

  /** The answer kept for `req`, when it may have it: see the top of this file. */
  private fits(req: IncomingMessage): Kept | undefined {
    const { headers, url } = req
    if (req.method !== 'GET' || url === undefined || this.recorder === null) return undefined
    if (headers.authorization !== undefined || headers['if-none-match'] !== undefined) return undefined
    // A GET with a body or a content type is Fastify's to answer (a multipart GET is 415, say).
    if (headers['content-type'] !== undefined || headers['transfer-encoding'] !== undefined) return undefined
    if (headers['content-length'] !== undefined && headers['content-length'] !== '0') return undefined
    const { cache, clock } = this.options
    if (!cache.enabled || this.options.draining() || !this.server?.listening) return undefined
    return cache.kept<Kept>(PREFIX + url, clock.now().getTime())
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
 * Puts the front cache before Fastify on the HTTP server Fastify made (`app.server`): its one
 * 'request' listener, Fastify's handler, is called only for what the front cache does not answer.
 * Fastify keeps making its server itself (its options, timeouts and bindings). A server of another
 * kind (https, http2) is left as it is.
 */
export function putInFront(server: unknown, front: FrontCache): void {
  if (!(server instanceof Server) || server instanceof HttpsServer) return
  const listeners = server.listeners('request')
  if (listeners.length !== 1) throw new Error(`expected Fastify's one request listener, found ${listeners.length}`)
  const handler = listeners[0] as Handler
  server.removeListener('request', handler)
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (!front.answer(req, res, handler)) handler(req, res)
  })
  front.server = server
}
