import { randomUUID } from 'node:crypto'
import type { IncomingHttpHeaders } from 'node:http'

/**
 * A request's id: the caller's X-Request-Id when it is a plain token (letters, digits, `_`, `.`,
 * `-`; at most 64), else a new UUID. Fastify's genReqId (app.ts) and the front cache
 * (front-cache.ts), which answers before Fastify, both take it from here, so the two paths echo
 * and log the same ids.
 */
export function requestId(headers: IncomingHttpHeaders): string {
  const given = headers['x-request-id']
  return typeof given === 'string' && /^[\w.-]{1,64}$/.test(given) ? given : randomUUID()
}
