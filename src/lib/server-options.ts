import { STATUS_CODES } from 'node:http'
import type { Socket } from 'node:net'
import type { FastifyInstance } from 'fastify'
import type { Config } from '../config.ts'

// The HTTP server's edge: which address is the client's, and how long a client may take to send a
// request. Spread into the Fastify options in app.ts.

export function edgeServerOptions(config: Config) {
  return {
    // Unset TRUST_PROXY means the socket address: a forwarded header from a client is not believed,
    // so rotating X-Forwarded-For cannot mint fresh rate-limit buckets.
    trustProxy: trustFunction(config.trustProxy),
    requestTimeout: config.requestTimeoutMs,
    http: {
      headersTimeout: config.headersTimeoutMs,
      // Node enforces the two timeouts above only when it sweeps its connections; its default sweep
      // (30 s) would let a trickling client far outlive a short limit.
      connectionsCheckingInterval: Math.min(1000, config.headersTimeoutMs),
    },
    clientErrorHandler,
  }
}

/**
 * Fastify 5 refuses hop counts (a number trusts nothing), because a count cannot tell a proxy from a
 * client that connects directly and writes the header itself. TRUST_PROXY=<n> keeps the classic
 * meaning (the last n addresses of the chain are proxies) for deployments where only the proxies can
 * reach the port; an address list is the safer choice (docs/deployment.md).
 */
function trustFunction(trust: Config['trustProxy']) {
  if (typeof trust !== 'number') return trust
  return (_address: string, hop: number) => hop < trust
}

type ClientError = Error & { code?: string }

/**
 * Errors Node raises before a request reaches Fastify (a request that took too long, a malformed
 * request line or oversized headers): answered in the contract's `{message}` shape, then the
 * connection is closed. Other connections are not affected.
 */
function clientErrorHandler(this: FastifyInstance, err: ClientError, socket: Socket) {
  if (err.code === 'ECONNRESET' || socket.destroyed) return
  const status = err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : err.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400
  const text = STATUS_CODES[status] ?? 'Error'
  this.log.debug({ err }, `client error ${status}`)
  // A response already under way cannot be replaced; only cut the connection.
  const pending = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage
  if (socket.writable && !pending?.headersSent) {
    const body = JSON.stringify({ message: `${text}.` })
    socket.write(
      `HTTP/1.1 ${status} ${text}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    )
  }
  socket.destroy(err)
}
