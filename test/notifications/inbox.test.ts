import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { notify } from '../../src/modules/notifications/service.ts'
import { build } from '../helpers/app.ts'
import { createUser } from '../helpers/factories.ts'

let app: App
before(async () => {
  app = await build()
})
after(() => app.close())

test('the inbox lists the caller’s notifications, paginated 20 a page, newest first', async () => {
  const user = await createUser(app)
  const other = await createUser(app)
  for (let i = 0; i < 22; i++) await notify(app.ctx, user.id, 'BookingReminder', { message: `Reminder ${i}` })
  await notify(app.ctx, other.id, 'BookingReminder', { message: 'not yours' })

  const res = await app.inject({ method: 'GET', url: '/api/notifications', headers: user.headers })
  assert.equal(res.statusCode, 200)
  const body = res.json()
  assert.equal(body.data.length, 20)
  assert.equal(body.meta.total, 22)
  assert.equal(body.meta.per_page, 20)
  assert.equal(body.meta.last_page, 2)
  assert.equal(body.links.next, 'http://localhost:8000/api/notifications?page=2')
  const first = body.data[0]
  assert.match(first.id, /^[0-9a-f-]{36}$/)
  assert.equal(first.type, 'App\\Notifications\\BookingReminder')
  assert.equal(typeof first.data.message, 'string')
  assert.equal(first.read_at, null)
  assert.match(first.created_at, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)

  const page2 = await app.inject({ method: 'GET', url: '/api/notifications?page=2', headers: user.headers })
  assert.equal(page2.json().data.length, 2)
})

test('marking one read, then all read', async () => {
  const user = await createUser(app)
  const id = await notify(app.ctx, user.id, 'BookingConfirmed', { message: 'Confirmed' })
  await notify(app.ctx, user.id, 'BookingConfirmed', { message: 'Confirmed again' })

  const one = await app.inject({ method: 'PATCH', url: `/api/notifications/${id}/read`, headers: user.headers })
  assert.equal(one.statusCode, 200)
  assert.equal(typeof one.json().message, 'string')
  let list = (await app.inject({ method: 'GET', url: '/api/notifications', headers: user.headers })).json()
  assert.equal(list.data.filter((n: { read_at: string | null }) => n.read_at !== null).length, 1)

  const all = await app.inject({ method: 'POST', url: '/api/notifications/read-all', headers: user.headers })
  assert.equal(all.statusCode, 200)
  list = (await app.inject({ method: 'GET', url: '/api/notifications', headers: user.headers })).json()
  assert.ok(list.data.every((n: { read_at: string | null }) => n.read_at !== null))
})

test('another user’s notification, or a malformed id, is 404', async () => {
  const user = await createUser(app)
  const other = await createUser(app)
  const id = await notify(app.ctx, other.id, 'BookingConfirmed', { message: 'x' })
  const res = await app.inject({ method: 'PATCH', url: `/api/notifications/${id}/read`, headers: user.headers })
  assert.equal(res.statusCode, 404)
  assert.deepEqual(res.json(), { message: 'Not found.' })
  const bad = await app.inject({ method: 'PATCH', url: '/api/notifications/123/read', headers: user.headers })
  assert.equal(bad.statusCode, 404)
})

test('inbox routes refuse guests and revoked tokens with 401', async () => {
  for (const [method, url] of [
    ['GET', '/api/notifications'],
    ['POST', '/api/notifications/read-all'],
    ['PUT', '/api/notifications/device-token'],
    ['GET', '/api/notifications/firebase-config'],
  ] as const) {
    const res = await app.inject({ method, url })
    assert.equal(res.statusCode, 401, url)
    assert.deepEqual(res.json(), { message: 'Unauthenticated.' })
  }
  const res = await app.inject({
    method: 'GET',
    url: '/api/notifications',
    headers: { authorization: 'Bearer 1|nope' },
  })
  assert.equal(res.statusCode, 401)
})

test('a suspended user gets 403 "Your account is suspended."', async () => {
  const user = await createUser(app, { is_active: false })
  const res = await app.inject({ method: 'GET', url: '/api/notifications', headers: user.headers })
  assert.equal(res.statusCode, 403)
  assert.deepEqual(res.json(), { message: 'Your account is suspended.' })
})

test('device token: saved, validated (required, at most 4096 characters), moved to the latest user', async () => {
  const user = await createUser(app)
  const ok = await app.inject({
    method: 'PUT',
    url: '/api/notifications/device-token',
    headers: user.headers,
    payload: { token: 'fcm-abc' },
  })
  assert.equal(ok.statusCode, 200)

  const missing = await app.inject({
    method: 'PUT',
    url: '/api/notifications/device-token',
    headers: user.headers,
    payload: {},
  })
  assert.equal(missing.statusCode, 422)
  assert.deepEqual(missing.json(), {
    message: 'The given data was invalid.',
    errors: { token: ['The token field is required.'] },
  })

  const long = await app.inject({
    method: 'PUT',
    url: '/api/notifications/device-token',
    headers: user.headers,
    payload: { token: 'x'.repeat(4097) },
  })
  assert.equal(long.statusCode, 422)
  assert.deepEqual(long.json().errors, { token: ['The token field must not be greater than 4096 characters.'] })

  const other = await createUser(app)
  await app.inject({
    method: 'PUT',
    url: '/api/notifications/device-token',
    headers: other.headers,
    payload: { token: 'fcm-abc' },
  })
  const row = await app.ctx.db
    .selectFrom('device_tokens')
    .select('user_id')
    .where('token', '=', 'fcm-abc')
    .executeTakeFirstOrThrow()
  assert.equal(row.user_id, other.id)
})

test('a notification is pushed to each device token of the user by the push job', async () => {
  const user = await createUser(app)
  for (const token of ['dev-1', 'dev-2']) {
    await app.inject({
      method: 'PUT',
      url: '/api/notifications/device-token',
      headers: user.headers,
      payload: { token },
    })
  }
  await notify(app.ctx, user.id, 'BookingConfirmed', { message: 'Your booking is confirmed', booking_id: 7 })
  await app.ctx.jobs.runDue()
  const { readFile } = await import('node:fs/promises')
  const lines = (await readFile(app.ctx.config.outboxFile, 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l))
  const pushes = lines.filter((l) => l.channel === 'push' && l.body === 'Your booking is confirmed')
  assert.deepEqual(pushes.map((p) => p.to).sort(), ['dev-1', 'dev-2'])
  assert.equal(pushes[0].data.booking_id, '7')
})

test('firebase-config answers the FIREBASE_* settings', async (t) => {
  const custom = await build(t, { FIREBASE_PROJECT_ID: 'courtside-test', FIREBASE_API_KEY: 'k' })
  const user = await createUser(custom)
  const res = await custom.inject({ method: 'GET', url: '/api/notifications/firebase-config', headers: user.headers })
  assert.equal(res.statusCode, 200)
  const body = res.json()
  assert.equal(body.project_id, 'courtside-test')
  assert.equal(body.api_key, 'k')
  assert.deepEqual(Object.keys(body).sort(), [
    'api_key',
    'app_id',
    'auth_domain',
    'messaging_sender_id',
    'project_id',
    'storage_bucket',
    'vapid_key',
  ])
})
