import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import sharp from 'sharp'
import type { App } from '../../src/app.ts'
import { build } from '../helpers/app.ts'
import { createUser } from '../helpers/factories.ts'
import { multipart, PNG } from '../venues/multipart.ts'
import { assertUserShape } from './helpers.ts'

let app: App
before(async () => {
  app = await build()
})
after(() => app.close())

test('GET /api/profile returns the caller as User', async () => {
  const user = await createUser(app, { name: 'Bikash', phone: '9800000011', roles: ['venue_owner'] })
  const res = await app.inject({ method: 'GET', url: '/api/profile', headers: user.headers })
  assert.equal(res.statusCode, 200)
  const data = res.json().data
  assertUserShape(data)
  assert.equal(data.id, user.id)
  assert.equal(data.name, 'Bikash')
  assert.equal(data.phone, '9800000011')
  assert.deepEqual(data.roles, ['venue_owner'])
  assert.ok(data.permissions.includes('venues.manage'))
  assert.ok(!data.permissions.includes('users.manage'))
  assert.equal((await app.inject({ method: 'GET', url: '/api/profile' })).statusCode, 401)
})

test('PUT /api/profile updates name and phone; a taken phone is refused', async () => {
  await createUser(app, { phone: '9800000022' })
  const user = await createUser(app, { name: 'Old', phone: '9800000033' })
  await app.ctx.db.updateTable('users').set({ phone_verified_at: new Date() }).where('id', '=', user.id).execute()

  const nameOnly = await app.inject({
    method: 'PUT',
    url: '/api/profile',
    headers: user.headers,
    payload: { name: 'New' },
  })
  assert.equal(nameOnly.statusCode, 200)
  assertUserShape(nameOnly.json().data)
  assert.equal(nameOnly.json().data.name, 'New')
  assert.equal(nameOnly.json().data.phone, '9800000033')
  assert.equal(nameOnly.json().data.phone_verified, true)

  const phone = await app.inject({
    method: 'PUT',
    url: '/api/profile',
    headers: user.headers,
    payload: { phone: '+9779800000044' },
  })
  assert.equal(phone.statusCode, 200)
  assert.equal(phone.json().data.phone, '+9779800000044')
  assert.equal(phone.json().data.phone_verified, false)

  const taken = await app.inject({
    method: 'PUT',
    url: '/api/profile',
    headers: user.headers,
    payload: { phone: '9800000022' },
  })
  assert.equal(taken.statusCode, 422)
  assert.deepEqual(taken.json().errors, { phone: ['The phone has already been taken.'] })

  const invalid = await app.inject({
    method: 'PUT',
    url: '/api/profile',
    headers: user.headers,
    payload: { name: '', phone: 'abc' },
  })
  assert.equal(invalid.statusCode, 422)
  assert.deepEqual(invalid.json().errors.name, ['The name field is required.'])
  assert.deepEqual(invalid.json().errors.phone, ['The phone field format is invalid.'])

  const cleared = await app.inject({
    method: 'PUT',
    url: '/api/profile',
    headers: user.headers,
    payload: { phone: null },
  })
  assert.equal(cleared.statusCode, 200)
  assert.equal(cleared.json().data.phone, null)
})

test('PUT /api/profile turns the SMS and email booking messages off and on; a wrong type is 422, never coerced', async () => {
  const user = await createUser(app)
  const shown = (await app.inject({ method: 'GET', url: '/api/profile', headers: user.headers })).json().data
  assert.equal(shown.notify_sms, true)
  assert.equal(shown.notify_email, true)

  for (const wrong of ['false', 0, 1, null, 'no', []]) {
    const res = await app.inject({
      method: 'PUT',
      url: '/api/profile',
      headers: user.headers,
      payload: { notify_sms: wrong, notify_email: wrong },
    })
    assert.equal(res.statusCode, 422, JSON.stringify(wrong))
    assert.deepEqual(res.json(), {
      message: 'The given data was invalid.',
      errors: {
        notify_sms: ['The notify sms field must be true or false.'],
        notify_email: ['The notify email field must be true or false.'],
      },
    })
  }
  // Nothing was changed by the refused requests.
  let row = await app.ctx.db
    .selectFrom('users')
    .select(['notify_sms', 'notify_email'])
    .where('id', '=', user.id)
    .executeTakeFirstOrThrow()
  assert.deepEqual(row, { notify_sms: true, notify_email: true })

  const off = await app.inject({
    method: 'PUT',
    url: '/api/profile',
    headers: user.headers,
    payload: { notify_email: false },
  })
  assert.equal(off.statusCode, 200, off.body)
  assertUserShape(off.json().data)
  assert.equal(off.json().data.notify_email, false)
  assert.equal(off.json().data.notify_sms, true)
  const smsOff = await app.inject({
    method: 'PUT',
    url: '/api/profile',
    headers: user.headers,
    payload: { notify_sms: false, name: 'Quiet' },
  })
  assert.equal(smsOff.statusCode, 200, smsOff.body)
  assert.equal(smsOff.json().data.name, 'Quiet')
  const me = (await app.inject({ method: 'GET', url: '/api/auth/me', headers: user.headers })).json()
  assert.equal(me.data.notify_sms, false)
  assert.equal(me.data.notify_email, false)
  row = await app.ctx.db
    .selectFrom('users')
    .select(['notify_sms', 'notify_email'])
    .where('id', '=', user.id)
    .executeTakeFirstOrThrow()
  assert.deepEqual(row, { notify_sms: false, notify_email: false })
})

test('POST /api/profile/password checks the current password and the confirmation', async () => {
  const user = await createUser(app, { password: 'old-password' })
  const url = '/api/profile/password'
  const wrong = await app.inject({
    method: 'POST',
    url,
    headers: user.headers,
    payload: { current_password: 'nope-nope', password: 'new-password', password_confirmation: 'new-password' },
  })
  assert.equal(wrong.statusCode, 422)
  assert.deepEqual(wrong.json().errors, { current_password: ['The password is incorrect.'] })

  const short = await app.inject({
    method: 'POST',
    url,
    headers: user.headers,
    payload: { current_password: 'old-password', password: 'short', password_confirmation: 'short' },
  })
  assert.equal(short.statusCode, 422)
  assert.deepEqual(short.json().errors.password, ['The password field must be at least 8 characters.'])

  const mismatch = await app.inject({
    method: 'POST',
    url,
    headers: user.headers,
    payload: { current_password: 'old-password', password: 'new-password', password_confirmation: 'other-pass' },
  })
  assert.equal(mismatch.statusCode, 422)
  assert.deepEqual(mismatch.json().errors, { password: ['The password field confirmation does not match.'] })

  const missing = await app.inject({ method: 'POST', url, headers: user.headers, payload: {} })
  assert.equal(missing.statusCode, 422)
  assert.deepEqual(Object.keys(missing.json().errors).sort(), ['current_password', 'password', 'password_confirmation'])

  const ok = await app.inject({
    method: 'POST',
    url,
    headers: user.headers,
    payload: { current_password: 'old-password', password: 'new-password', password_confirmation: 'new-password' },
  })
  assert.equal(ok.statusCode, 200)
  assert.deepEqual(ok.json(), { message: 'Password updated successfully.' })
  const login = (password: string) =>
    app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password } })
  assert.equal((await login('new-password')).statusCode, 200)
  assert.equal((await login('old-password')).statusCode, 403)
})

test('POST /api/profile/avatar stores an image and answers its absolute URL', async () => {
  const user = await createUser(app)
  const form = await multipart([['avatar', { file: PNG, name: 'me.png' }]])
  const res = await app.inject({
    method: 'POST',
    url: '/api/profile/avatar',
    headers: { ...user.headers, ...form.headers },
    payload: form.payload,
  })
  assert.equal(res.statusCode, 200)
  assertUserShape(res.json().data)
  const avatar = res.json().data.avatar as string
  assert.match(avatar, /^http:\/\/localhost:8000\/storage\/avatars\/[\w-]+\.png$/)
  const file = await app.inject({ method: 'GET', url: new URL(avatar).pathname })
  assert.equal(file.statusCode, 200)
  assert.equal(file.headers['content-type'], 'image/png')
  // Stored re-encoded without metadata (images.test.ts): the same 1×1 PNG, not the same bytes.
  const meta = await sharp(file.rawPayload).metadata()
  assert.deepEqual([meta.format, meta.width, meta.height], ['png', 1, 1])

  // A new avatar replaces the old file.
  const again = await multipart([['avatar', { file: PNG, name: 'again.png' }]])
  const second = await app.inject({
    method: 'POST',
    url: '/api/profile/avatar',
    headers: { ...user.headers, ...again.headers },
    payload: again.payload,
  })
  assert.notEqual(second.json().data.avatar, avatar)
  assert.equal((await app.inject({ method: 'GET', url: new URL(avatar).pathname })).statusCode, 404)
})

test('avatar refusals: a text file named .png, an oversized image, no file', async () => {
  const user = await createUser(app)
  const post = async (fields: Parameters<typeof multipart>[0]) => {
    const form = await multipart(fields)
    return app.inject({
      method: 'POST',
      url: '/api/profile/avatar',
      headers: { ...user.headers, ...form.headers },
      payload: form.payload,
    })
  }
  const text = await post([['avatar', { file: Buffer.from('just some text, not an image'), name: 'fake.png' }]])
  assert.equal(text.statusCode, 422)
  assert.deepEqual(text.json().errors, { avatar: ['The avatar field must be a file of type: jpg, jpeg, png, webp.'] })

  const big = Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)])
  const oversized = await post([['avatar', { file: big, name: 'big.png' }]])
  assert.equal(oversized.statusCode, 422)
  assert.deepEqual(oversized.json().errors, { avatar: ['The avatar field must not be greater than 2048 kilobytes.'] })

  const none = await post([['name', 'x']])
  assert.equal(none.statusCode, 422)
  assert.deepEqual(none.json().errors, { avatar: ['The avatar field is required.'] })

  const row = await app.ctx.db
    .selectFrom('users')
    .select('avatar_path')
    .where('id', '=', user.id)
    .executeTakeFirstOrThrow()
  assert.equal(row.avatar_path, null)
})
