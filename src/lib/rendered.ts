import { createHash } from 'node:crypto'
import type { FastifyReply } from 'fastify'

// The JSON of cached answers, encoded once. A read served from the read cache (src/lib/cache.ts)
// hands its route the same object on every hit; serialising it again on every request is the
// largest cost of those requests after the socket write (fast-json-stringify and the garbage it
// leaves: docs/performance.md, "Why the hot paths look this way"). The bytes are made
// by the route's own response serializer (`reply.serialize`), so they are exactly what Fastify
// would have sent, and kept with the cached object: they die with its cache entry.
//
// Most cached objects are rendered by one route in one way, so that answer is kept on the object
// itself (a non-enumerable symbol property: spreads, JSON and the serializers do not see it). A hit
// of the busiest reads is then a property read: with thousands of objects held, a lookup in a
// WeakMap or Map is a miss in the CPU's caches, and each entry takes memory of its own
// (docs/performance.md, "Why the hot paths look this way"). An object answered by a second route
// or variant keeps all of its answers in the WeakMap as well, and the last one served on itself.

const JSON_TYPE = 'application/json; charset=utf-8'

interface Answer {
  /** The route: its compiled 200 serializer, else "METHOD url". */
  route: unknown
  variant: string
  bytes: Buffer
  /** A strong validator of `bytes`, made with them (once per cached answer). */
  etag: string
}

/**
 * How shared caches (a CDN in front of the service) may keep a guest's answer: `Cache-Control` for a
 * request without Authorization. Browsers always revalidate (`max-age=0`; a 304 when the ETag is
 * current), so a customer never sees an answer older than their own last change; `s-maxage` lets a
 * CDN answer for that many seconds. Signed-in answers are `private, no-cache`; all vary by
 * Authorization (a venue owner's list is not a guest's). docs/architecture.md, "HTTP caching".
 */
export interface SharedCache {
  /** The Cache-Control of a guest's answer, made once with the policy (`sharedCache`). */
  readonly guest: string
}

/**
 * A route's policy for shared caches: a CDN may answer a guest's request `sMaxAge` seconds without
 * asking, and `staleWhileRevalidate` seconds more while it asks again.
 */
export function sharedCache(sMaxAge: number, staleWhileRevalidate = 0): SharedCache {
  const swr = staleWhileRevalidate > 0 ? `, stale-while-revalidate=${staleWhileRevalidate}` : ''
  return { guest: `public, max-age=0, s-maxage=${sMaxAge}${swr}` }
}

const PRIVATE = 'private, no-cache'
const NO_PAYLOAD = Promise.resolve(undefined)

function etagOf(bytes: Buffer) {
  return `"${createHash('sha1').update(bytes).digest('base64url').slice(0, 22)}"`
}

/** If-None-Match against the answer's ETag: a list, `*`, or weak validators compared weakly (RFC 9110 13.1.2). */
function notModified(header: string | undefined, etag: string) {
  if (header === undefined) return false
  if (header === etag || header.trim() === '*') return true
  return header.split(',').some((tag) => {
    const t = tag.trim()
    return (t.startsWith('W/') ? t.slice(2) : t) === etag
  })
}

/**
 * The validators and caching headers of an answer, and the answer: its bytes, or no content with
 * 304 when the request's If-None-Match names them. The 304 keeps the 200's Content-Length (RFC 9110
 * 8.6 allows it when equal; a 0 would be wrong). It is sent as a promise of no payload: Fastify
 * then leaves a 304's Content-Length alone, while a payload, even an empty one, gets its own
 * length; that costs a microtask turn on a 304 only.
 */
function conditional<T>(reply: FastifyReply, answer: Answer, shared: SharedCache | undefined): T {
  const { headers } = reply.request
  reply.header('etag', answer.etag)
  if (shared !== undefined) {
    reply.header('cache-control', headers.authorization === undefined ? shared.guest : PRIVATE)
    // Added to what the response varies by already (a CORS plugin's Origin, say), never replacing it.
    const vary = reply.getHeader('vary')
    reply.header('vary', vary === undefined ? 'Authorization' : `${vary}, Authorization`)
  }
  if (notModified(headers['if-none-match'], answer.etag)) {
    reply.code(304)
    // HEAD: Fastify's HEAD route sets the length from the payload and sends none of it.
    if (reply.request.method === 'HEAD') return answer.bytes as unknown as T
    reply.header('content-length', answer.bytes.length)
    return NO_PAYLOAD as unknown as T
  }
  return answer.bytes as unknown as T
}
const LAST = Symbol('rendered')
type Rendered = { [LAST]?: Answer }
/** Per object answered in more than one way: per route, per variant, the answer. */
const others = new WeakMap<object, Map<unknown, Map<string, Answer>>>()

function keep(source: object, answer: Answer) {
  let routes = others.get(source)
  if (!routes) {
    routes = new Map()
    others.set(source, routes)
  }
  let variants = routes.get(answer.route)
  if (!variants) {
    variants = new Map()
    routes.set(answer.route, variants)
  }
  variants.set(answer.variant, answer)
}

/**
 * The 200 answer built by `body(source)` from `source` (a value the read cache may hand out again),
 * as the route's serializer writes it; `variant` names what else the answer depends on (say the
 * request path in pagination links). The route is part of the key, so one cached object rendered
 * by two routes keeps two answers. An uncached `source` is a fresh object each time and simply
 * encoded once.
 *
 * The route is told apart by its compiled 200 serializer, which costs a property read (`routeOptions`
 * builds a new object on every access, so it is read only for a route without a 200 schema). Fastify's
 * default serializer compiler makes one per route; a custom `serializerCompiler` that reused one
 * function for two routes would have them share these bytes too.
 *
 * Sets the JSON content type and returns the bytes for the handler to return: Fastify sends a
 * Buffer as it is. They are typed as the body they encode, which is what the route's schema
 * expects its handler to return (returning `reply` instead would make Fastify wait on the
 * response's end through `reply.then`, a listener pair per request).
 */
function renderedJson<S extends object, T>(
  reply: FastifyReply,
  source: S,
  variant: string,
  body: (source: S) => T,
  shared: SharedCache | undefined,
): T {
  const route = reply.getSerializationFunction('200') ?? routeName(reply)
  reply.type(JSON_TYPE)
  const held = source as Rendered
  const last = held[LAST]
  // The encoded form of a T (see above): Fastify's send() passes a Buffer through untouched.
  if (last !== undefined && last.route === route && last.variant === variant) return conditional(reply, last, shared)
  let answer = others.get(source)?.get(route)?.get(variant)
  if (answer === undefined) {
    const bytes = ownBytes(reply.serialize(body(source)) as string)
    answer = { route, variant, bytes, etag: etagOf(bytes) }
    if (last === undefined && Object.isExtensible(source)) {
      Object.defineProperty(source, LAST, { value: answer, writable: true })
      return conditional(reply, answer, shared)
    }
    if (last !== undefined && !others.has(source)) keep(source, last)
    keep(source, answer)
  }
  // A frozen object (none is cached today) keeps its answers in the WeakMap only; one frozen after
  // its first answer keeps that one on itself too.
  if (last !== undefined && !Object.isFrozen(source)) held[LAST] = answer
  return conditional(reply, answer, shared)
}

/**
 * `renderedJson` of what a read service answers: the value itself when the read cache holds it,
 * a promise of it otherwise (`ReadCache.read`). A handler that is not `async` returns this as it
 * is: Fastify sends a plain value within the handler's own call, so a cached answer costs the
 * request no promise and no microtask turn, while a promise is awaited as an async handler's is.
 */
export function renderedAnswer<S extends object, T>(
  reply: FastifyReply,
  answer: S | Promise<S>,
  variant: string,
  body: (source: S) => T,
  shared?: SharedCache,
): T | Promise<T> {
  if (answer instanceof Promise) return answer.then((source) => renderedJson(reply, source, variant, body, shared))
  return renderedJson(reply, answer, variant, body, shared)
}

/**
 * The UTF-8 bytes of `text` in memory of their own. Buffer.from() cuts a string under 4 KB from
 * Node's shared 8 KB pool, and a slice keeps its whole slab alive: a cached answer made between
 * short-lived buffers (the database driver's messages) would hold up to 8 KB for a much smaller
 * answer as long as the cache keeps it (docs/performance.md, "Why the hot paths look this way").
 */
export function ownBytes(text: string): Buffer {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text))
  bytes.write(text)
  return bytes
}

function routeName(reply: FastifyReply) {
  const { method, url } = reply.request.routeOptions
  return `${method} ${url}`
}
