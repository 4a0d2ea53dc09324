import http from 'node:http'
import https from 'node:https'
import type { LookupFunction } from 'node:net'
import { hostOf, type Target } from './address.ts'

// One POST of a webhook to the address vetTarget checked. The connection goes to that address
// (a `lookup` that answers it, so TLS still verifies the certificate against the URL's host name);
// redirects are not followed (a 3xx is a failed attempt); the whole exchange, body included, must
// finish within `timeoutMs`; the response body is read and dropped.

export interface PostResult {
  status: number
}

export function postTo(
  url: URL,
  target: Target,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<PostResult> {
  const lookup: LookupFunction = (_host, opts, done) => {
    if ((opts as { all?: boolean }).all) {
      ;(done as unknown as (e: null, all: Array<{ address: string; family: number }>) => void)(null, [target])
    } else done(null, target.address, target.family)
  }
  const client = url.protocol === 'https:' ? https : http
  return new Promise((resolve, reject) => {
    const req = client.request(
      {
        method: 'POST',
        protocol: url.protocol,
        hostname: hostOf(url),
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        headers: { ...headers, 'content-length': Buffer.byteLength(body) },
        lookup,
        agent: false,
      },
      (res) => {
        res.on('error', reject)
        res.on('close', () =>
          res.complete
            ? resolve({ status: res.statusCode ?? 0 })
            : reject(new Error('the connection closed before the answer was complete')),
        )
        res.resume()
      },
    )
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs)
    req.on('error', reject)
    req.on('close', () => clearTimeout(timer))
    req.end(body)
  })
}
