import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { build } from '../helpers/app.ts'
import { createUser, FIXED_NOW } from '../helpers/factories.ts'
import { lastOtp } from './helpers.ts'

// Issue 51, "forgot password": sign in with a one-time code (the contract's OTP flow), then set a
// new password without the current one, within 15 minutes, once (POST /api/profile/password/reset).

const clock = new ManualClock(FIXED_NOW)
let app: App
before(async () => {
  app = await build(undefined, { RATE_LIMIT_ENABLED: 'false' }, { clock })
})
after(() => app.close())

const post = (url: string, payload: unknown, token?: string) =>
  app.inject({
    method: 'POST',
    url,
    payload: payload as object,
    headers: token ? { authorization: `Bearer ${token}` } : undefined,
  })

async function otpSignIn(identifier: string, type: 'sms' | 'email') {
  assert.equal((await post('/api/auth/otp/send', { identifier, type })).statusCode, 200)
  const res = await post('/api/auth/otp/verify', { identifier, type, otp: await lastOtp(app, identifier) })
  assert.equal(res.statusCode, 200, res.body)
  return res.json().token as string
}
const NEW = { password: 'brand-new-1', password_confirmation: 'brand-new-1' }

test('a code by email signs in; the new password is set once and works; the old one no longer does', async () => {
  clock.set(FIXED_NOW)
  const user = await createUser(app, { password: 'old-password-1' })
  const token = await otpSignIn(user.email, 'email')
  const mismatch = await post(
    '/api/profile/password/reset',
    { password: 'brand-new-1', password_confirmation: 'x' },
    token,
  )
  assert.equal(mismatch.statusCode, 422)
  assert.deepEqual(mismatch.json().errors, { password: ['The password field confirmation does not match.'] })
  for (const bad of [
    { password: 'short', password_confirmation: 'short' },
    { password: 12345678, password_confirmation: '12345678' },
    {},
  ]) {
    assert.equal((await post('/api/profile/password/reset', bad, token)).statusCode, 422)
  }
  const ok = await post('/api/profile/password/reset', NEW, token)
  assert.equal(ok.statusCode, 200, ok.body)
  assert.deepEqual(ok.json(), { message: 'Password updated successfully.' })
  assert.equal((await post('/api/auth/login', { email: user.email, password: 'brand-new-1' })).statusCode, 200)
  assert.equal((await post('/api/auth/login', { email: user.email, password: 'old-password-1' })).statusCode, 403)
  // Once per sign-in with a code.
  const twice = await post(
    '/api/profile/password/reset',
    { password: 'another-22', password_confirmation: 'another-22' },
    token,
  )
  assert.equal(twice.statusCode, 403)
})

test('a code by phone works too; after 15 minutes, with a password session, or signed out it is refused', async () => {
  clock.set(FIXED_NOW)
  const user = await createUser(app, { phone: '+9779811122233', password: 'old-password-1' })
  const token = await otpSignIn('+9779811122233', 'sms')
  clock.advance(15 * 60_000 + 1000)
  const late = await post('/api/profile/password/reset', NEW, token)
  assert.equal(late.statusCode, 403)
  assert.match(late.json().message, /one-time code/)
  clock.set(FIXED_NOW)
  const again = await otpSignIn('+9779811122233', 'sms')
  assert.equal((await post('/api/profile/password/reset', NEW, again)).statusCode, 200)

  const login = await post('/api/auth/login', { email: user.email, password: 'brand-new-1' })
  assert.equal((await post('/api/profile/password/reset', NEW, login.json().token)).statusCode, 403)
  assert.equal((await post('/api/profile/password/reset', NEW)).statusCode, 401)
})
