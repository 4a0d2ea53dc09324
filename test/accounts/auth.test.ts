import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { build } from '../helpers/app.ts'
import { createUser } from '../helpers/factories.ts'
import { assertUserShape, bearer, outbox } from './helpers.ts'

let app: App
before(async () => {
  app = await build()
})
after(() => app.close())

const registration = (over: Record<string, unknown> = {}) => ({
  name: 'Asha Gurung',
  email: 'asha@example.com',
  phone: '+9779812345678',
  password: 'secret-pass',
  password_confirmation: 'secret-pass',
  ...over,
})

test('register creates an unverified customer, signs in and mails a verification link', async () => {
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: registration(),
    headers: { 'user-agent': 'Pixel 8' },
  })
  assert.equal(res.statusCode, 201)
  const body = res.json()
  assert.equal(typeof body.message, 'string')
  assert.match(body.token, /^\d+\|[A-Za-z0-9_-]{40}$/)
  assertUserShape(body.data)
  assert.equal(body.data.name, 'Asha Gurung')
  assert.equal(body.data.email, 'asha@example.com')
  assert.equal(body.data.phone, '+9779812345678')
  assert.equal(body.data.avatar, null)
  assert.equal(body.data.wallet_balance, '0.00')
  assert.equal(body.data.is_active, true)
  assert.equal(body.data.email_verified, false)
  assert.equal(body.data.phone_verified, false)
  assert.deepEqual(body.data.roles, ['customer'])
  assert.deepEqual(body.data.permissions, [
    'bookings.create',
    'bookings.view_own',
    'reviews.create',
    'tournaments.register',
    'wallet.use',
  ])

  const mails = (await outbox(app)).filter((m) => m.to === 'asha@example.com')
  assert.equal(mails.length, 1)
  assert.equal(mails[0].channel, 'mail')
  assert.match(mails[0].body, /\/api\/email\/verify\/\d+\/[0-9a-f]{40}\?expires=\d+&signature=[0-9a-f]{64}/)

  // The token works and names the device after the User-Agent.
  const me = await app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(body.token) })
  assert.equal(me.statusCode, 200)
  assert.deepEqual(me.json().data, body.data)
  const devices = await app.inject({ method: 'GET', url: '/api/auth/devices', headers: bearer(body.token) })
  assert.equal(devices.json()[0].name, 'Pixel 8')

  // The password is stored as an argon2id hash, the token only as a SHA-256 hash.
  const row = await app.ctx.db.selectFrom('users').selectAll().where('id', '=', body.data.id).executeTakeFirstOrThrow()
  assert.match(row.password_hash!, /^\$argon2id\$/)
  const tokens = await app.ctx.db.selectFrom('api_tokens').selectAll().where('user_id', '=', body.data.id).execute()
  assert.equal(tokens.length, 1)
  assert.ok(!tokens[0].token_hash.includes(body.token.split('|')[1]))
})

test('register validation: required fields, formats, confirmation and duplicates', async () => {
  const empty = await app.inject({ method: 'POST', url: '/api/auth/register', payload: {} })
  assert.equal(empty.statusCode, 422)
  assert.equal(empty.json().message, 'The given data was invalid.')
  assert.deepEqual(empty.json().errors.email, ['The email field is required.'])
  assert.deepEqual(empty.json().errors.name, ['The name field is required.'])
  assert.deepEqual(empty.json().errors.password, ['The password field is required.'])

  const bad = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: registration({ email: 'not-an-email', phone: '12ab', password: 'short', password_confirmation: 'short' }),
  })
  assert.equal(bad.statusCode, 422)
  const errors = bad.json().errors
  assert.deepEqual(errors.email, ['The email field must be a valid email address.'])
  assert.deepEqual(errors.phone, ['The phone field format is invalid.'])
  assert.deepEqual(errors.password, ['The password field must be at least 8 characters.'])

  const mismatch = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: registration({ email: 'other@example.com', phone: null, password_confirmation: 'different-pass' }),
  })
  assert.equal(mismatch.statusCode, 422)
  assert.deepEqual(mismatch.json().errors, { password: ['The password field confirmation does not match.'] })

  await createUser(app, { email: 'taken@example.com', phone: '9800000001' })
  const dup = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: registration({ email: 'TAKEN@Example.com', phone: '9800000001' }),
  })
  assert.equal(dup.statusCode, 422)
  assert.deepEqual(dup.json().errors.email, ['The email has already been taken.'])
  assert.deepEqual(dup.json().errors.phone, ['The phone has already been taken.'])

  const blankName = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: registration({ name: '   ', email: 'blank@example.com', phone: null }),
  })
  assert.equal(blankName.statusCode, 422)
  assert.deepEqual(blankName.json().errors, { name: ['The name field is required.'] })

  const wrongType = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: registration({ name: { first: 'A' } }),
  })
  assert.equal(wrongType.statusCode, 422)
  assert.deepEqual(wrongType.json().errors.name, ['The name field must be a string.'])
})

test('login by email or phone; wrong password, unknown user and suspended account get 403', async () => {
  const user = await createUser(app, { email: 'login@example.com', phone: '+9779800000002', password: 'right-pass' })
  const byEmail = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: 'LOGIN@example.com', password: 'right-pass', device_name: 'Laptop' },
  })
  assert.equal(byEmail.statusCode, 200)
  assert.deepEqual(Object.keys(byEmail.json()).sort(), ['data', 'token'])
  assert.match(byEmail.json().token, /^\d+\|.{40}$/)
  assertUserShape(byEmail.json().data)
  assert.equal(byEmail.json().data.id, user.id)

  const byPhone = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: '+9779800000002', password: 'right-pass' },
  })
  assert.equal(byPhone.statusCode, 200)
  assert.equal(byPhone.json().data.id, user.id)

  for (const payload of [
    { email: 'login@example.com', password: 'wrong-pass' },
    { email: 'nobody@example.com', password: 'right-pass' },
    { email: '9811111111', password: 'right-pass' },
  ]) {
    const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload })
    assert.equal(res.statusCode, 403)
    assert.deepEqual(res.json(), { message: 'Invalid credentials.' })
  }

  await createUser(app, { email: 'suspended@example.com', password: 'right-pass', is_active: false })
  const suspended = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: 'suspended@example.com', password: 'right-pass' },
  })
  assert.equal(suspended.statusCode, 403)
  assert.deepEqual(suspended.json(), { message: 'Invalid credentials.' })

  const missing = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { password: 'x' } })
  assert.equal(missing.statusCode, 422)
  assert.deepEqual(missing.json().errors.email, ['The email field is required.'])
})

test('token routes: 401 without or with an unknown token, 403 for a suspended user', async () => {
  for (const headers of [{}, bearer('999|nope'), bearer('garbage'), { authorization: 'Basic abc' }]) {
    const res = await app.inject({ method: 'GET', url: '/api/auth/me', headers })
    assert.equal(res.statusCode, 401)
    assert.deepEqual(res.json(), { message: 'Unauthenticated.' })
  }
  const suspended = await createUser(app, { is_active: false })
  for (const [method, url] of [
    ['GET', '/api/auth/me'],
    ['GET', '/api/auth/devices'],
    ['POST', '/api/auth/logout'],
    ['GET', '/api/profile'],
  ] as const) {
    const res = await app.inject({ method, url, headers: suspended.headers })
    assert.equal(res.statusCode, 403, url)
    assert.deepEqual(res.json(), { message: 'Your account is suspended.' })
  }
})

test('logout revokes only the current token', async () => {
  const user = await createUser(app, { password: 'right-pass' })
  const other = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: user.email, password: 'right-pass' },
  })
  const res = await app.inject({ method: 'POST', url: '/api/auth/logout', headers: user.headers })
  assert.equal(res.statusCode, 200)
  assert.deepEqual(res.json(), { message: 'Logged out successfully.' })
  const again = await app.inject({ method: 'GET', url: '/api/auth/me', headers: user.headers })
  assert.equal(again.statusCode, 401)
  const stillIn = await app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(other.json().token) })
  assert.equal(stillIn.statusCode, 200)
})
