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
