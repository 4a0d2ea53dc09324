import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { build } from '../helpers/app.ts'
import { createUser } from '../helpers/factories.ts'
import { rateLimitEnv } from '../helpers/rate-limit.ts'

// Who the 60/min default budget belongs to: a signed-in user wherever it connects from, otherwise
// the address; the health check and the API docs spend nothing.

let app: App
before(async () => {
  app = await build(undefined, rateLimitEnv({ RATE_LIMIT_DEFAULT: '4' }))
})
after(() => app.close())

const me = (remoteAddress: string, authorization?: string) =>
  app.inject({
    method: 'GET',
    url: '/api/auth/me',
    remoteAddress,
    headers: authorization ? { authorization } : {},
  })

test('a signed-in user is counted per user across addresses, not against those addresses', async () => {
  const user = await createUser(app)
  const statuses: number[] = []
  for (let i = 0; i < 5; i++) statuses.push((await me(`10.50.0.${i + 1}`, user.headers.authorization)).statusCode)
  assert.deepEqual(statuses, [200, 200, 200, 200, 429])
  const limited = await me('10.50.0.99', user.headers.authorization)
  assert.equal(limited.statusCode, 429)
  assert.equal(limited.headers['x-ratelimit-limit'], '4')
  assert.ok(Number(limited.headers['retry-after']) > 0)

  // The addresses it came from still have their own budget, and so does another user.
  const guest = await me('10.50.0.1')
  assert.equal(guest.statusCode, 401)
  assert.equal(guest.headers['x-ratelimit-remaining'], '3')
  const other = await createUser(app)
  const res = await me('10.50.0.1', other.headers.authorization)
  assert.equal(res.statusCode, 200)
  assert.equal(res.headers['x-ratelimit-remaining'], '3')
})

test('made-up tokens do not open fresh buckets: they count against the address', async () => {
  const user = await createUser(app)
  const forged = [
    `${user.token.split('|')[0]}|${'x'.repeat(40)}`, // a real token id with a wrong secret
    '999999|abcdefghijklmnopqrstuvwxyz0123456789ABCD',
    'not-a-token',
    `${user.token}x`,
  ]
  const statuses: number[] = []
  for (const token of forged) statuses.push((await me('10.60.0.1', `Bearer ${token}`)).statusCode)
  assert.deepEqual(statuses, [401, 401, 401, 401])
  const limited = await me('10.60.0.1', 'Bearer 7|another-made-up-token')
  assert.equal(limited.statusCode, 429)
  // The real owner of the token id is not charged for the forgeries.
  const owner = await me('10.60.0.2', user.headers.authorization)
  assert.equal(owner.statusCode, 200)
  assert.equal(owner.headers['x-ratelimit-remaining'], '3')
})

test('/health and the /docs assets do not spend the budget', async () => {
  const address = '10.70.0.1'
  for (const url of ['/health', '/docs', '/docs/json', '/docs/static/index.html']) {
    for (let i = 0; i < 6; i++) {
      const res = await app.inject({ method: 'GET', url, remoteAddress: address })
      assert.ok(res.statusCode < 400, `${url} -> ${res.statusCode}`)
      assert.equal(res.headers['x-ratelimit-limit'], undefined, url)
    }
  }
  const api = await app.inject({ method: 'GET', url: '/api/auth/me', remoteAddress: address })
  assert.equal(api.headers['x-ratelimit-remaining'], '3')
})
