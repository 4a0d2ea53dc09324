import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { hashToken, issueToken } from '../../src/lib/auth.ts'
import { build } from '../helpers/app.ts'
import { createUser } from '../helpers/factories.ts'
import { bearer } from './helpers.ts'

// Revoked access is refused by the very next request on the instance that revoked it, with the
// read cache on (signed-in users are cached per token and dropped by the database's notifications,
// which arrive a little after the commit).

let app: App
before(async () => {
  app = await build(undefined, { CACHE_TTL_MS: '30000' })
})
after(() => app.close())

const me = (token: string) => app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(token) })
const cacheKey = (token: string) => {
  const [id, secret] = token.split('|')
  return `auth:${id}:${hashToken(secret)}`
}

/** Signs in until the token's user is served from the cache (set-up notifications may arrive first). */
async function cached(token: string) {
  for (let i = 0; i < 100 && app.ctx.cache.get(cacheKey(token)) === undefined; i++) {
    assert.equal((await me(token)).statusCode, 200)
    if (app.ctx.cache.get(cacheKey(token)) === undefined) await new Promise((r) => setTimeout(r, 5))
  }
  assert.ok(app.ctx.cache.get(cacheKey(token)), 'the signed-in user is cached')
}

test('a logged-out token is refused by the very next request, 100 times out of 100', async () => {
  const user = await createUser(app)
  for (let i = 0; i < 100; i++) {
    const token = await issueToken(app.ctx.db, user.id, `trial ${i}`)
    await cached(token)
    // Every other trial also has a request with the token in flight while the logout commits.
    const inflight = i % 2 ? me(token) : null
    const out = await app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(token) })
    assert.equal(out.statusCode, 200)
    const next = await me(token)
    await inflight
    assert.equal(next.statusCode, 401, `trial ${i}`)
    assert.deepEqual(next.json(), { message: 'Unauthenticated.' })
  }
})

test('a revoked device token is refused at once', async () => {
  const user = await createUser(app)
  const other = await issueToken(app.ctx.db, user.id, 'tablet')
  await cached(other)
  const id = other.split('|')[0]
  const res = await app.inject({ method: 'DELETE', url: `/api/auth/devices/${id}`, headers: user.headers })
  assert.equal(res.statusCode, 200)
  assert.equal((await me(other)).statusCode, 401)
  assert.equal((await me(user.token)).statusCode, 200, 'the device that revoked it stays signed in')
})

test('a suspension answers 403 on the very next request', async () => {
  const admin = await createUser(app, { roles: ['super_admin'] })
  const user = await createUser(app)
  await cached(user.token)
  const res = await app.inject({
    method: 'PATCH',
    url: `/api/admin/users/${user.id}`,
    headers: admin.headers,
    payload: { is_active: false },
  })
  assert.equal(res.statusCode, 200)
  const next = await me(user.token)
  assert.equal(next.statusCode, 403)
  assert.deepEqual(next.json(), { message: 'Your account is suspended.' })
})
