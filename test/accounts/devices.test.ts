import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { build } from '../helpers/app.ts'
import { createUser } from '../helpers/factories.ts'
import { bearer } from './helpers.ts'

let app: App
before(async () => {
  app = await build()
})
after(() => app.close())

const login = async (email: string, device_name?: string, ua = 'Firefox/130') => {
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    headers: { 'user-agent': ua },
    payload: { email, password: 'password123', ...(device_name ? { device_name } : {}) },
  })
  assert.equal(res.statusCode, 200)
  return res.json().token as string
}

test('devices lists the caller’s tokens as a bare array of Device', async () => {
  const user = await createUser(app)
  const other = await createUser(app)
  await login(user.email, 'iPhone 15')
  await login(user.email, undefined, 'Mozilla/5.0 Test')
  await login(other.email, 'Not mine')

  const res = await app.inject({ method: 'GET', url: '/api/auth/devices', headers: user.headers })
  assert.equal(res.statusCode, 200)
  const list = res.json()
  assert.ok(Array.isArray(list))
  assert.equal(list.length, 3)
  for (const d of list) {
    assert.deepEqual(Object.keys(d).sort(), ['created_at', 'id', 'last_used_at', 'name'])
    assert.equal(typeof d.id, 'number')
    assert.match(d.last_used_at, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
    assert.match(d.created_at, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
  }
  assert.deepEqual(list.map((d: { name: string }) => d.name).sort(), ['Mozilla/5.0 Test', 'iPhone 15', 'test'])
})

test('revoking a device token stops it at once; others stay signed in', async () => {
  const user = await createUser(app)
  const phone = await login(user.email, 'Phone')
  const phoneId = Number(phone.split('|')[0])

  const res = await app.inject({ method: 'DELETE', url: `/api/auth/devices/${phoneId}`, headers: user.headers })
  assert.equal(res.statusCode, 200)
  assert.deepEqual(res.json(), { message: 'Device revoked successfully.' })

  const revoked = await app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(phone) })
  assert.equal(revoked.statusCode, 401)
  assert.deepEqual(revoked.json(), { message: 'Unauthenticated.' })
  assert.equal((await app.inject({ method: 'GET', url: '/api/auth/me', headers: user.headers })).statusCode, 200)

  const again = await app.inject({ method: 'DELETE', url: `/api/auth/devices/${phoneId}`, headers: user.headers })
  assert.equal(again.statusCode, 404)
  assert.deepEqual(again.json(), { message: 'Not found.' })
})

test('another user’s token, or a malformed id, is not found', async () => {
  const user = await createUser(app)
  const other = await createUser(app)
  const otherId = Number(other.token.split('|')[0])
  for (const id of [String(otherId), 'abc', '99999999999999999999']) {
    const res = await app.inject({ method: 'DELETE', url: `/api/auth/devices/${id}`, headers: user.headers })
    assert.equal(res.statusCode, 404, id)
  }
  assert.equal((await app.inject({ method: 'GET', url: '/api/auth/me', headers: other.headers })).statusCode, 200)
  assert.equal((await app.inject({ method: 'DELETE', url: `/api/auth/devices/${otherId}` })).statusCode, 401)
})
