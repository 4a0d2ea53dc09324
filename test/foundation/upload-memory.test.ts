import assert from 'node:assert/strict'
import { request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { build } from '../helpers/app.ts'
import { createUser, type TestUser } from '../helpers/factories.ts'

// Large multipart uploads over a real socket must not move the server's memory: a guest is refused
// (401) and a non-file route answers 415 before the body is read; an authenticated file far over
// its limit is cut off (413) while streaming. The client streams its body from one reused chunk,
// so the process's memory is the server's.

const MB = 1024 * 1024
const BOUNDARY = 'memtestboundary'

let app: App
let port: number
before(async () => {
  app = await build()
  await app.listen({ host: '127.0.0.1', port: 0 })
  port = (app.server.address() as AddressInfo).port
})
after(() => app.close())

/**
 * Streams a multipart body of about `bytes` (one file field) and returns the status and bytes sent.
 * A refusal closes the connection while the client still writes; the kernel may then reset it
 * before the client has read the answer (EPIPE/ECONNRESET, no status): `reset` says so.
 */
function upload(path: string, bytes: number, headers: Record<string, string>, chunked = false) {
  const head = Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="avatar"; filename="big.png"\r\n` +
      'Content-Type: image/png\r\n\r\n',
  )
  const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`)
  const chunk = Buffer.alloc(64 * 1024, 1)
  return new Promise<Outcome>((resolve, reject) => {
    let sent = 0
    let status = 0
    const req = request({
      host: '127.0.0.1',
      port,
      path,
      method: 'POST',
      headers: {
        ...headers,
        'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
        ...(chunked ? {} : { 'content-length': String(head.length + bytes + tail.length) }),
      },
    })
    req.on('response', (res) => {
      status = res.statusCode ?? 0
      res.resume()
      res.on('end', () => {
        req.destroy()
        resolve({ status, sent })
      })
    })
    // The server may close the socket while we still write: that is the point.
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (status) resolve({ status, sent })
      else if (err.code === 'EPIPE' || err.code === 'ECONNRESET') resolve({ status: 0, sent, reset: true })
      else reject(err)
    })
    const pump = () => {
      while (!status && !req.destroyed && sent < bytes) {
        const n = Math.min(chunk.length, bytes - sent)
        sent += n
        if (!req.write(n === chunk.length ? chunk : chunk.subarray(0, n))) return void req.once('drain', pump)
      }
      if (!status && !req.destroyed && sent >= bytes) req.end(tail)
    }
    req.write(head)
    pump()
  })
}

interface Outcome {
  status: number
  sent: number
  reset?: boolean
}

/** Every upload was refused with `status` or cut off by a reset, and at least one client read the status. */
function assertRefused(results: Outcome[], status: number) {
  for (const r of results) assert.ok(r.status === status || r.reset, `status ${r.status}, expected ${status}`)
  assert.ok(
    results.some((r) => r.status === status),
    `no client read the ${status}: ${JSON.stringify(results)}`,
  )
}

async function growth(run: () => Promise<void>) {
  const before = process.memoryUsage()
  let peak = before.rss
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss)
  }, 20)
  try {
    await run()
  } finally {
    clearInterval(timer)
  }
  return { rss: (Math.max(peak, process.memoryUsage().rss) - before.rss) / MB }
}

let user: TestUser
test('four 200 MB multipart uploads by a guest, and four to a route without files', async () => {
  user = await createUser(app)
  await upload('/api/profile/avatar', MB, {}) // warm-up: code paths and sockets
  const guests = await growth(async () => {
    const results = await Promise.all([1, 2, 3, 4].map(() => upload('/api/profile/avatar', 200 * MB, {})))
    assertRefused(results, 401)
    for (const r of results) assert.ok(r.sent < 200 * MB, `the server read the whole body (${r.sent} bytes sent)`)
  })
  const elsewhere = await growth(async () => {
    const results = await Promise.all(
      [1, 2, 3, 4].map(() => upload('/api/profile/password', 200 * MB, user.headers, true)),
    )
    assertRefused(results, 415)
  })
  console.log(`guests: rss +${guests.rss.toFixed(1)} MB; non-file route: rss +${elsewhere.rss.toFixed(1)} MB`)
  assert.ok(guests.rss < 30, `rss grew ${guests.rss.toFixed(1)} MB`)
  assert.ok(elsewhere.rss < 30, `rss grew ${elsewhere.rss.toFixed(1)} MB`)
})

test('four 200 MB avatars from a signed-in user are cut off at the limit (413), declared or chunked', async () => {
  const declared = await growth(async () => {
    const results = await Promise.all([1, 2, 3, 4].map(() => upload('/api/profile/avatar', 200 * MB, user.headers)))
    assertRefused(results, 413)
  })
  const chunked = await growth(async () => {
    const results = await Promise.all(
      [1, 2, 3, 4].map(() => upload('/api/profile/avatar', 200 * MB, user.headers, true)),
    )
    assertRefused(results, 413)
    for (const r of results) assert.ok(r.sent < 200 * MB, `the server read the whole body (${r.sent} bytes sent)`)
  })
  console.log(`declared: rss +${declared.rss.toFixed(1)} MB; chunked: rss +${chunked.rss.toFixed(1)} MB`)
  assert.ok(declared.rss < 30, `rss grew ${declared.rss.toFixed(1)} MB`)
  assert.ok(chunked.rss < 30, `rss grew ${chunked.rss.toFixed(1)} MB`)
})
