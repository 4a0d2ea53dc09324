import assert from 'node:assert/strict'
import { connect, type Socket } from 'node:net'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { build } from '../helpers/app.ts'

// A client that trickles its request is cut off with 408 after REQUEST_TIMEOUT_MS (its headers
// after HEADERS_TIMEOUT_MS); clients on other connections are served meanwhile. Real sockets: the
// timeouts live in Node's HTTP server, which app.inject bypasses.

let app: App
let port: number
before(async () => {
  app = await build(undefined, { REQUEST_TIMEOUT_MS: '1500', HEADERS_TIMEOUT_MS: '1000' })
  await app.listen({ host: '127.0.0.1', port: 0 })
  port = (app.server.address() as { port: number }).port
  // Warm up (first queries, first password hash), so a busy machine does not skew the timings below.
  await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'warm@example.com', password: 'wrong-password' }),
  })
})
after(() => app.close())

/** Opens a connection, writes `head` at once, then one byte of `body` every `everyMs`, and collects the reply. */
function trickle(head: string, body: string, everyMs: number) {
  const socket: Socket = connect(port, '127.0.0.1')
  const started = Date.now()
  let received = ''
  let timer: NodeJS.Timeout | undefined
  const done = new Promise<{ text: string; ms: number }>((resolve) => {
    socket.on('data', (chunk) => {
      received += chunk.toString()
    })
    const finish = () => {
      clearInterval(timer)
      resolve({ text: received, ms: Date.now() - started })
    }
    socket.on('close', finish)
    socket.on('error', () => undefined)
  })
  socket.on('connect', () => {
    socket.write(head)
    let i = 0
    timer = setInterval(() => {
      if (i < body.length && socket.writable) socket.write(body[i++])
    }, everyMs)
  })
  return done
}

test('a body trickled slower than REQUEST_TIMEOUT_MS gets 408 while another connection is served', async () => {
  const body = JSON.stringify({ email: 'slow@example.com', password: 'password123' })
  const slow = trickle(
    'POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
      `Content-Length: ${body.length}\r\n\r\n`,
    body,
    400,
  )
  // Meanwhile a normal client on its own connection gets its answers.
  await new Promise((r) => setTimeout(r, 300))
  const normal = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'nobody@example.com', password: 'wrong-password' }),
  })
  assert.equal(normal.status, 403)
  assert.deepEqual(await normal.json(), { message: 'Invalid credentials.' })

  const { text, ms } = await slow
  assert.match(text, /^HTTP\/1\.1 408 Request Timeout\r\n/)
  assert.equal(text.slice(text.indexOf('\r\n\r\n') + 4), JSON.stringify({ message: 'Request Timeout.' }))
  // Cut off after the limit (plus at most a sweep of the connection checker), long before the body would end.
  assert.ok(ms >= 1400 && ms < 6000, `cut off after ${ms} ms`)
})

test('headers trickled slower than HEADERS_TIMEOUT_MS get 408', async () => {
  const { text, ms } = await trickle(
    'GET /health HTTP/1.1\r\n',
    'Host: 127.0.0.1\r\nX-Slow: aaaaaaaaaaaaaaaaaaaa\r\n\r\n',
    150,
  )
  assert.match(text, /^HTTP\/1\.1 408 /)
  assert.ok(ms >= 900 && ms < 3500, `cut off after ${ms} ms`)
  const ok = await fetch(`http://127.0.0.1:${port}/health`)
  assert.equal(ok.status, 200)
})
