import assert from 'node:assert/strict'
import { test } from 'node:test'
import { build } from '../helpers/app.ts'

test('unknown routes answer 404 with the contract body', async (t) => {
  const app = await build(t)
  const res = await app.inject({ method: 'GET', url: '/api/nope' })
  assert.equal(res.statusCode, 404)
  assert.deepEqual(res.json(), { message: 'Not found.' })
})

test('health answers ok and every response carries a request id', async (t) => {
  const app = await build(t)
  const res = await app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': 'abc-123' } })
  assert.equal(res.statusCode, 200)
  assert.equal(res.headers['x-request-id'], 'abc-123')
})

test('the OpenAPI document is served', async (t) => {
  const app = await build(t)
  const res = await app.inject({ method: 'GET', url: '/docs/json' })
  assert.equal(res.statusCode, 200)
  assert.equal(res.json().openapi, '3.1.0')
})

test('a refused GET keeps its keep-alive connection; only a refusal before a body was read closes it', async (t) => {
  const app = await build(t)
  await app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = app.server.address() as import('node:net').AddressInfo
  const { request, Agent } = await import('node:http')
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  t.after(() => agent.destroy())
  const send = (method: string, path: string, body?: string) =>
    new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
      const req = request({ port, host: '127.0.0.1', method, path, agent }, (res) => {
        res.resume()
        res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }))
      })
      req.on('error', reject)
      if (body === undefined) return req.end()
      // Headers first, the body only after the answer: the refusal comes before the body was read.
      req.setHeader('content-type', 'application/json')
      req.setHeader('content-length', String(body.length))
      req.flushHeaders()
      setTimeout(() => req.end(body), 300)
    })
  // Answered within the request's own event (handlers that are not async), before Node marks even a
  // bodyless request complete: still kept alive.
  for (const path of ['/api/courts/999999/availability?date=2099-01-01', '/api/venues/no-such-venue', '/api/nope']) {
    const res = await send('GET', path)
    assert.equal(res.status, 404, path)
    assert.notEqual(res.connection, 'close', path)
  }
  const refused = await send('POST', '/api/bookings', '{"court_id":1}')
  assert.equal(refused.status, 401)
  assert.equal(refused.connection, 'close')
})
