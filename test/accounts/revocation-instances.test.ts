import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { hashToken, issueToken } from '../../src/lib/auth.ts'
import { build, buildOn } from '../helpers/app.ts'
import { createUser } from '../helpers/factories.ts'
import { bearer } from './helpers.ts'

// A revoked token is refused by every instance from the next request (issue 32): two apps on one
// database with their read caches on stand for two instances. Instance B has the token's owner
// cached; the logout (or suspension) goes through instance A, and its answer waits until B has
// confirmed it forgot the token (lib/revocation.ts), so B's very next request is refused.

let a: App
let b: App
before(async () => {
  a = await build(undefined, { CACHE_TTL_MS: '30000' })
  b = await buildOn(a, { CACHE_TTL_MS: '30000' })
})
after(async () => {
  await b.close()
  await a.close()
})

const me = (app: App, token: string) => app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(token) })
const cacheKey = (token: string) => {
  const [id, secret] = token.split('|')
  return `auth:${id}:${hashToken(secret)}`
}

/** Until B serves the token's owner from its cache (set-up notifications may arrive first). */
async function cachedOnB(token: string) {
  for (let i = 0; i < 100 && b.ctx.cache.get(cacheKey(token)) === undefined; i++) {
    assert.equal((await me(b, token)).statusCode, 200)
    if (b.ctx.cache.get(cacheKey(token)) === undefined) await new Promise((r) => setTimeout(r, 5))
  }
  assert.ok(b.ctx.cache.get(cacheKey(token)), 'the signed-in user is cached on B')
}

test('a token logged out on one instance is refused by the other on its next request, 25 times of 25', async () => {
  const user = await createUser(a)
  for (let i = 0; i < 25; i++) {
    const token = await issueToken(a.ctx.db, user.id, `trial ${i}`)
    await cachedOnB(token)
    const out = await a.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(token) })
    assert.ok(out.statusCode < 300, out.body)
    assert.equal((await me(b, token)).statusCode, 401, `trial ${i}`)
  }
})

test('a user suspended on one instance is refused by the other on their next request', async () => {
  const admin = await createUser(a, { roles: ['super_admin'] })
  const user = await createUser(a)
  await cachedOnB(user.token)
  const res = await a.inject({
    method: 'PATCH',
    url: `/api/admin/users/${user.id}`,
    headers: admin.headers,
    payload: { is_active: false },
  })
  assert.equal(res.statusCode, 200, res.body)
  assert.equal((await me(b, user.token)).statusCode, 403)
})

test('an instance that has left is not waited for', async () => {
  const c = await buildOn(a, { CACHE_TTL_MS: '30000' })
  await c.close()
  const user = await createUser(a)
  const token = await issueToken(a.ctx.db, user.id, 'after c left')
  await cachedOnB(token)
  const started = performance.now()
  await a.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(token) })
  // B answers at once; C is gone from cache_instances, so nothing waits for the 2 s timeout.
  assert.ok(performance.now() - started < 1500, 'the logout did not wait for an instance that left')
  assert.equal((await me(b, token)).statusCode, 401)
})
