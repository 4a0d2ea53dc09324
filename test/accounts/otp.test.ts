import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { build } from '../helpers/app.ts'
import { createUser } from '../helpers/factories.ts'
import { assertUserShape, bearer, lastOtp, outbox } from './helpers.ts'

let app: App
before(async () => {
  app = await build()
})
after(() => app.close())

const send = (payload: Record<string, unknown>) => app.inject({ method: 'POST', url: '/api/auth/otp/send', payload })
const verify = (payload: Record<string, unknown>) =>
  app.inject({ method: 'POST', url: '/api/auth/otp/verify', payload })

test('an SMS code for a known phone verifies the phone and signs in', async () => {
  const user = await createUser(app, { phone: '+9779811111111' })
  const res = await send({ identifier: '+9779811111111', type: 'sms' })
  assert.equal(res.statusCode, 200)
  assert.deepEqual(res.json(), { message: 'OTP sent successfully.' })
  const code = await lastOtp(app, '+9779811111111')
  assert.ok(!res.body.includes(code))
  const sms = (await outbox(app)).filter((m) => m.to === '+9779811111111')
  assert.equal(sms[0].channel, 'sms')

  // Only a hash is stored.
  const row = await app.ctx.db
    .selectFrom('otps')
    .selectAll()
    .where('identifier', '=', '+9779811111111')
    .executeTakeFirstOrThrow()
  assert.ok(!row.code_hash.includes(code))
  const minutes = (new Date(row.expires_at).getTime() - Date.now()) / 60_000
  assert.ok(minutes > 9 && minutes <= 10)

  const ok = await verify({ identifier: '+9779811111111', otp: code, type: 'sms', device_name: 'Phone' })
  assert.equal(ok.statusCode, 200)
  const body = ok.json()
  assert.deepEqual(Object.keys(body).sort(), ['data', 'message', 'token'])
  assert.equal(body.message, 'OTP verified successfully.')
  assertUserShape(body.data)
  assert.equal(body.data.id, user.id)
  assert.equal(body.data.phone_verified, true)
  assert.equal(body.data.email_verified, false)
  const me = await app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(body.token) })
  assert.equal(me.json().data.id, user.id)

  // A code works once.
  const replay = await verify({ identifier: '+9779811111111', otp: code, type: 'sms' })
  assert.equal(replay.statusCode, 422)
  assert.deepEqual(replay.json(), { message: 'Invalid or expired OTP.' })
})

test('an email code for a known email verifies the email', async () => {
  const user = await createUser(app, { email: 'otp-mail@example.com' })
  await send({ identifier: 'OTP-Mail@example.com', type: 'email' })
  const code = await lastOtp(app, 'otp-mail@example.com')
  const ok = await verify({ identifier: 'otp-mail@example.com', otp: code, type: 'email' })
  assert.equal(ok.statusCode, 200)
  assert.equal(ok.json().data.id, user.id)
  assert.equal(ok.json().data.email_verified, true)
})

test('an unknown identifier gets a message only (pre-registration)', async () => {
  await send({ identifier: '9822222222', type: 'sms' })
  const ok = await verify({ identifier: '9822222222', otp: await lastOtp(app, '9822222222'), type: 'sms' })
  assert.equal(ok.statusCode, 200)
  assert.deepEqual(ok.json(), { message: 'OTP verified successfully.' })
})

test('five wrong tries exhaust the code: even the right one then fails', async () => {
  await send({ identifier: '9833333333', type: 'sms' })
  const code = await lastOtp(app, '9833333333')
  const wrong = code === '000000' ? '111111' : '000000'
  for (let i = 0; i < 5; i++) {
    const res = await verify({ identifier: '9833333333', otp: wrong, type: 'sms' })
    assert.equal(res.statusCode, 422)
    assert.deepEqual(res.json(), { message: 'Invalid or expired OTP.' })
  }
  const right = await verify({ identifier: '9833333333', otp: code, type: 'sms' })
  assert.equal(right.statusCode, 422)
  assert.deepEqual(right.json(), { message: 'Invalid or expired OTP.' })

  // A new send replaces the exhausted code.
  await send({ identifier: '9833333333', type: 'sms' })
  const fresh = await lastOtp(app, '9833333333')
  assert.equal((await verify({ identifier: '9833333333', otp: fresh, type: 'sms' })).statusCode, 200)
})

test('parallel wrong guesses cannot get past the limit of five tries', async () => {
  await send({ identifier: '9866666666', type: 'sms' })
  const code = await lastOtp(app, '9866666666')
  const guesses = Array.from({ length: 12 }, (_, i) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0'))
  const results = await Promise.all(guesses.map((otp) => verify({ identifier: '9866666666', otp, type: 'sms' })))
  // Ten refused tries lock the identifier for an hour (otp-limits.test.ts): the rest are 429.
  assert.equal(results.filter((r) => r.statusCode === 422).length, 10)
  assert.ok(results.every((r) => r.statusCode === 422 || r.statusCode === 429))
  const row = await app.ctx.db
    .selectFrom('otps')
    .select('attempts')
    .where('identifier', '=', '9866666666')
    .executeTakeFirstOrThrow()
  assert.equal(row.attempts, 5)
  assert.equal((await verify({ identifier: '9866666666', otp: code, type: 'sms' })).statusCode, 429)
})

test('four wrong tries still leave the right code usable', async () => {
  await send({ identifier: '9844444444', type: 'sms' })
  const code = await lastOtp(app, '9844444444')
  const wrong = code === '000000' ? '111111' : '000000'
  for (let i = 0; i < 4; i++) await verify({ identifier: '9844444444', otp: wrong, type: 'sms' })
  assert.equal((await verify({ identifier: '9844444444', otp: code, type: 'sms' })).statusCode, 200)
})

test('an expired code and a replaced code are refused', async () => {
  await send({ identifier: 'expired@example.com', type: 'email' })
  const code = await lastOtp(app, 'expired@example.com')
  await app.ctx.db
    .updateTable('otps')
    .set({ expires_at: new Date(Date.now() - 1000) })
    .where('identifier', '=', 'expired@example.com')
    .execute()
  const expired = await verify({ identifier: 'expired@example.com', otp: code, type: 'email' })
  assert.equal(expired.statusCode, 422)
  assert.deepEqual(expired.json(), { message: 'Invalid or expired OTP.' })

  await send({ identifier: 'replaced@example.com', type: 'email' })
  const first = await lastOtp(app, 'replaced@example.com')
  let second = first
  while (second === first) {
    await send({ identifier: 'replaced@example.com', type: 'email' })
    second = await lastOtp(app, 'replaced@example.com')
  }
  const old = await verify({ identifier: 'replaced@example.com', otp: first, type: 'email' })
  assert.equal(old.statusCode, 422)
  assert.equal((await verify({ identifier: 'replaced@example.com', otp: second, type: 'email' })).statusCode, 200)

  const unknown = await verify({ identifier: 'never@example.com', otp: '123456', type: 'email' })
  assert.equal(unknown.statusCode, 422)
  assert.deepEqual(unknown.json(), { message: 'Invalid or expired OTP.' })
})

test('OTP validation errors', async () => {
  const missing = await send({})
  assert.equal(missing.statusCode, 422)
  assert.deepEqual(missing.json().errors.identifier, ['The identifier field is required.'])
  assert.deepEqual(missing.json().errors.type, ['The type field is required.'])

  const badType = await send({ identifier: '9800000000', type: 'pigeon' })
  assert.deepEqual(badType.json().errors.type, ['The selected type is invalid.'])

  const notEmail = await send({ identifier: '9800000000', type: 'email' })
  assert.equal(notEmail.statusCode, 422)
  assert.deepEqual(notEmail.json().errors, { identifier: ['The identifier field must be a valid email address.'] })

  const notPhone = await send({ identifier: 'someone@example.com', type: 'sms' })
  assert.deepEqual(notPhone.json().errors, { identifier: ['The identifier field must be a valid phone number.'] })

  const noOtp = await verify({ identifier: '9800000000', type: 'sms' })
  assert.deepEqual(noOtp.json().errors, { otp: ['The otp field is required.'] })
})

test('a suspended account cannot sign in by OTP', async () => {
  await createUser(app, { phone: '9855555555', is_active: false })
  await send({ identifier: '9855555555', type: 'sms' })
  const res = await verify({ identifier: '9855555555', otp: await lastOtp(app, '9855555555'), type: 'sms' })
  assert.equal(res.statusCode, 403)
  assert.deepEqual(res.json(), { message: 'Invalid credentials.' })
})
