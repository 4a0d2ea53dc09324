import assert from 'node:assert/strict'
import { test } from 'node:test'
import { build } from '../helpers/app.ts'
import { createUser } from '../helpers/factories.ts'
import { rateLimitEnv } from '../helpers/rate-limit.ts'

test('register allows 10 requests a minute, then 429 with Retry-After and X-RateLimit-* headers', async (t) => {
  const app = await build(t, rateLimitEnv())
  const register = (i: number) =>
    app.inject({
      method: 'POST',
      url: '/api/auth/register',
      remoteAddress: '10.1.1.1',
      payload: {
        name: `R${i}`,
        email: `rate${i}@example.com`,
        password: 'password123',
        password_confirmation: 'password123',
      },
    })
  for (let i = 0; i < 10; i++) {
    const res = await register(i)
    assert.equal(res.statusCode, 201, `request ${i + 1}`)
    assert.equal(res.headers['x-ratelimit-limit'], '10')
    assert.equal(res.headers['x-ratelimit-remaining'], String(9 - i))
  }
  const limited = await register(10)
  assert.equal(limited.statusCode, 429)
  assert.deepEqual(limited.json(), { message: 'Too Many Attempts.' })
  assert.ok(Number(limited.headers['retry-after']) > 0)
  assert.equal(limited.headers['x-ratelimit-limit'], '10')
  assert.equal(limited.headers['x-ratelimit-remaining'], '0')

  // Another client is counted separately.
  const elsewhere = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    remoteAddress: '10.2.2.2',
    payload: {
      name: 'X',
      email: 'elsewhere@example.com',
      password: 'password123',
      password_confirmation: 'password123',
    },
  })
  assert.equal(elsewhere.statusCode, 201)
})

test('verification resend allows 6 a minute; login follows RATE_LIMIT_LOGIN', async (t) => {
  const app = await build(t, rateLimitEnv({ RATE_LIMIT_LOGIN: '3' }))
  const user = await createUser(app)
  const statuses: number[] = []
  for (let i = 0; i < 7; i++) {
    const res = await app.inject({
      method: 'POST',
      url: '/api/email/verify/resend',
      headers: user.headers,
      remoteAddress: '10.3.3.3',
    })
    statuses.push(res.statusCode)
  }
  assert.deepEqual(statuses, [200, 200, 200, 200, 200, 200, 429])

  const logins: number[] = []
  for (let i = 0; i < 4; i++) {
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: '10.4.4.4',
      payload: { email: user.email, password: 'wrong-password' },
    })
    logins.push(res.statusCode)
  }
  assert.deepEqual(logins, [403, 403, 403, 429])
})
