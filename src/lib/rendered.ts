import type { FastifyReply } from 'fastify'

// The JSON of cached answers, encoded once. A read served from the read cache (src/lib/cache.ts)
// hands its route the same object on every hit; serialising it again on every request was the
// largest cost of those requests after the socket write (fast-json-stringify and the garbage it
// leaves: about a third of a cached venue-list request, docs/performance.md). The bytes are made
// by the route's own response serializer (`reply.serialize`), so they are exactly what Fastify
// would have sent, and kept in a WeakMap keyed by the cached object: they die with its cache entry.

const JSON_TYPE = 'application/json; charset=utf-8'
/** Per cached object: per route (its 200 serializer, else "METHOD url"), per variant, the bytes. */
const rendered = new WeakMap<object, Map<unknown, Map<string, Buffer>>>()

/**
 * The last answer rendered from a cached object, kept on the object itself (a non-enumerable symbol
 * property: spreads, JSON and the serializers do not see it). A hit of the busiest reads is then a
 * property read instead of a WeakMap and two Map lookups, each a miss in the CPU's caches when
 * thousands of objects are held (docs/performance.md). The WeakMap still keeps every route's and
 * variant's bytes.
 */
const LAST = Symbol('rendered')
interface Last {
  route: unknown
  variant: string
  bytes: Buffer
}
type WithLast = { [LAST]?: Last }

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
function renderedJson<S extends object, T>(reply: FastifyReply, source: S, variant: string, body: (source: S) => T): T {
  const route = reply.getSerializationFunction('200') ?? routeName(reply)
  reply.type(JSON_TYPE)
  const last = (source as WithLast)[LAST]
  // The encoded form of a T (see above): Fastify's send() passes a Buffer through untouched.
  if (last !== undefined && last.route === route && last.variant === variant) return last.bytes as unknown as T
  let routes = rendered.get(source)
  let variants = routes?.get(route)
  let bytes = variants?.get(variant)
  if (!bytes) {
    bytes = ownBytes(reply.serialize(body(source)) as string)
    if (!routes) {
      routes = new Map()
      rendered.set(source, routes)
    }
    if (!variants) {
      variants = new Map()
      routes.set(route, variants)
    }
    variants.set(variant, bytes)
  }
  if (last === undefined) Object.defineProperty(source, LAST, { value: { route, variant, bytes }, writable: true })
  else (source as WithLast)[LAST] = { route, variant, bytes }
  return bytes as unknown as T
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
): T | Promise<T> {
  if (answer instanceof Promise) return answer.then((source) => renderedJson(reply, source, variant, body))
  return renderedJson(reply, answer, variant, body)
}

/**
 * The UTF-8 bytes of `text` in memory of their own. Buffer.from() cuts a string under 4 KB from
 * Node's shared 8 KB pool, and a slice keeps its whole slab alive: a cached answer made between
 * short-lived buffers (the database driver's messages) would hold up to 8 KB for its 1.5 KB as long
 * as the cache keeps it (measured: 6,300 answers of 1.5 KB each made between four short-lived
 * buffers held 20.6 MB of buffer memory this way, 9.7 MB in memory of their own).
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
