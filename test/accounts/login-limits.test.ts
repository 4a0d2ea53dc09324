import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { App } from '../../src/app.ts'
import { build } from '../helpers/app.ts'
import { createUser } from '../helpers/factories.ts'
import { rateLimitEnv, uniquePrefix } from '../helpers/rate-limit.ts'

// Limits that cannot be walked around: a forged X-Forwarded-For is not a new client, and many
// addresses together cannot brute-force one account or flood one phone.

const login = (app: App, email: string, password: string, remoteAddress: string, forwarded?: string) =>
  app.inject({
    method: 'POST',
    url: '/api/auth/login',
    remoteAddress,
    headers: forwarded ? { 'x-forwarded-for': forwarded } : {},
    payload: { email, password },
  })

test('without TRUST_PROXY a rotating X-Forwarded-For does not evade the login limit', async (t) => {
  const app = await build(t, rateLimitEnv({ RATE_LIMIT_LOGIN: '5' }))
  const statuses: number[] = []
  for (let i = 0; i < 6; i++) {
    // Different accounts too, so only the per-address limit can answer 429.
    const res = await login(app, `nobody${i}@example.com`, 'wrong-password', '203.0.113.7', `198.51.100.${i + 1}`)
    statuses.push(res.statusCode)
  }
  assert.deepEqual(statuses, [403, 403, 403, 403, 403, 429])
})

test('with TRUST_PROXY the address a trusted proxy forwards is the client; others cannot forward', async (t) => {
  const app = await build(t, rateLimitEnv({ RATE_LIMIT_LOGIN: '2', TRUST_PROXY: '127.0.0.1' }))
  // Through the trusted proxy: each forwarded address has its own budget.
  for (let i = 0; i < 4; i++) {
    const res = await login(app, `p${i}@example.com`, 'wrong-password', '127.0.0.1', `198.51.100.${i + 1}`)
    assert.equal(res.statusCode, 403, `forwarded client ${i + 1}`)
  }
  const same = [] as number[]
  for (let i = 0; i < 3; i++) {
    same.push((await login(app, `q${i}@example.com`, 'wrong-password', '127.0.0.1', '198.51.100.50')).statusCode)
  }
  assert.deepEqual(same, [403, 403, 429])

  // A peer that is not the proxy: its X-Forwarded-For is ignored.
  const direct = [] as number[]
  for (let i = 0; i < 3; i++) {
    direct.push((await login(app, `r${i}@example.com`, 'wrong-password', '203.0.113.9', `192.0.2.${i + 1}`)).statusCode)
  }
  assert.deepEqual(direct, [403, 403, 429])
})

test('a hop count trusts that many proxies in front of the app', async (t) => {
  const app = await build(t, rateLimitEnv({ RATE_LIMIT_LOGIN: '1', TRUST_PROXY: '1' }))
  const first = await login(app, 'h1@example.com', 'wrong-password', '10.0.0.1', '198.51.100.1')
  const second = await login(app, 'h2@example.com', 'wrong-password', '10.0.0.1', '198.51.100.2')
  const again = await login(app, 'h3@example.com', 'wrong-password', '10.0.0.1', '198.51.100.2')
  assert.deepEqual([first.statusCode, second.statusCode, again.statusCode], [403, 403, 429])
})

test('11 failed logins for one account from 11 addresses: the 11th is 429, however the identifier is typed', async (t) => {
  const app = await build(t, rateLimitEnv({ TRUST_PROXY: '127.0.0.1' }))
  const victim = await createUser(app, { email: 'victim@example.com' })
  const spellings = ['victim@example.com', 'Victim@Example.com', '  VICTIM@example.com  ']
  const statuses: number[] = []
  for (let i = 0; i < 10; i++) {
    const res = await login(app, spellings[i % 3], 'wrong-password', '127.0.0.1', `198.51.100.${i + 1}`)
    statuses.push(res.statusCode)
  }
  assert.deepEqual(statuses, Array(10).fill(403))
  const limited = await login(app, victim.email, 'wrong-password', '127.0.0.1', '198.51.100.11')
  assert.equal(limited.statusCode, 429)
  assert.deepEqual(limited.json(), { message: 'Too Many Attempts.' })
  assert.equal(limited.headers['x-ratelimit-limit'], '10')
  assert.equal(limited.headers['x-ratelimit-remaining'], '0')
  const retryAfter = Number(limited.headers['retry-after'])
  assert.ok(retryAfter > 0 && retryAfter <= 60, `Retry-After ${retryAfter}`)

  // Locked for the rest of the minute, even with the right password: no guess is checked.
  const right = await login(app, victim.email, victim.password, '127.0.0.1', '198.51.100.12')
  assert.equal(right.statusCode, 429)
  // Another account from the same addresses is not affected.
  const other = await createUser(app)
  assert.equal((await login(app, other.email, other.password, '127.0.0.1', '198.51.100.1')).statusCode, 200)
})

test('a successful login clears the account failures', async (t) => {
  const app = await build(t, rateLimitEnv({ RATE_LIMIT_LOGIN_ACCOUNT: '3', RATE_LIMIT_LOGIN: '100' }))
  const user = await createUser(app)
  const at = (i: number) => `10.20.0.${i}`
  assert.equal((await login(app, user.email, 'wrong-password', at(1))).statusCode, 403)
  assert.equal((await login(app, user.email, 'wrong-password', at(2))).statusCode, 403)
  assert.equal((await login(app, user.email, user.password, at(3))).statusCode, 200)
  const after = [] as number[]
  for (let i = 0; i < 4; i++) after.push((await login(app, user.email, 'wrong-password', at(10 + i))).statusCode)
  assert.deepEqual(after, [403, 403, 403, 429])
})

test('OTP sends are limited per recipient across addresses; other recipients are not', async (t) => {
  const app = await build(t, rateLimitEnv({ RATE_LIMIT_OTP: '100' }))
  const send = (identifier: string, type: string, remoteAddress: string) =>
    app.inject({ method: 'POST', url: '/api/auth/otp/send', remoteAddress, payload: { identifier, type } })
  const statuses: number[] = []
  for (let i = 0; i < 6; i++) statuses.push((await send('+9779800000001', 'sms', `10.30.0.${i + 1}`)).statusCode)
  assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429])
  const limited = await send(' +9779800000001 ', 'sms', '10.30.0.99')
  assert.equal(limited.statusCode, 429)
  assert.deepEqual(limited.json(), { message: 'Too Many Attempts.' })
  assert.equal(limited.headers['x-ratelimit-limit'], '5')
  assert.ok(Number(limited.headers['retry-after']) > 0)

  // Email recipients are case-insensitive.
  const mails: number[] = []
  for (const [i, email] of ['Flood@Example.com', 'flood@example.com', 'FLOOD@example.com'].entries()) {
    for (let j = 0; j < 2; j++) mails.push((await send(email, 'email', `10.31.${i}.${j}`)).statusCode)
  }
  assert.deepEqual(mails, [200, 200, 200, 200, 200, 429])
  assert.equal((await send('+9779800000002', 'sms', '10.30.0.1')).statusCode, 200)
})

test('with Redis, two instances count one account and one recipient together', {
  skip: !process.env.REDIS_URL && 'set REDIS_URL to run against Redis',
}, async (t) => {
  const prefix = uniquePrefix()
  const env = rateLimitEnv({ RATE_LIMIT_LOGIN_ACCOUNT: '4', RATE_LIMIT_OTP_IDENTIFIER: '2' }, prefix)
  const [a, b] = [await build(t, env), await build(t, env)]
  const statuses: number[] = []
  for (let i = 0; i < 5; i++) {
    statuses.push((await login(i % 2 ? b : a, 'shared@example.com', 'wrong-password', `10.40.0.${i}`)).statusCode)
  }
  assert.deepEqual(statuses, [403, 403, 403, 403, 429])
  const send = (app: App) =>
    app.inject({ method: 'POST', url: '/api/auth/otp/send', payload: { identifier: '+9779800000003', type: 'sms' } })
  assert.deepEqual(
    [(await send(a)).statusCode, (await send(b)).statusCode, (await send(a)).statusCode],
    [200, 200, 429],
  )
})
