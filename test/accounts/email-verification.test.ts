import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { verificationUrl } from '../../src/modules/accounts/service/email-verification.ts'
import { build } from '../helpers/app.ts'
import { createUser } from '../helpers/factories.ts'
import { assertUserShape, bearer, lastVerificationLink, outbox } from './helpers.ts'

let app: App
before(async () => {
  app = await build()
})
after(() => app.close())

async function register(email: string) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: { name: 'Verify Me', email, password: 'password123', password_confirmation: 'password123' },
  })
  assert.equal(res.statusCode, 201)
  return res.json() as { token: string; data: { id: number } }
}

const open = (link: string, token: string) =>
  app.inject({ method: 'GET', url: link.replace('http://localhost:8000', ''), headers: bearer(token) })

test('the mailed link verifies the email of the signed-in user', async () => {
  const { token, data } = await register('Link@Example.com')
  const link = await lastVerificationLink(app, 'Link@Example.com')
  const url = new URL(link)
  assert.equal(url.origin, 'http://localhost:8000')
  const sha1 = createHash('sha1').update('Link@Example.com').digest('hex')
  assert.equal(url.pathname, `/api/email/verify/${data.id}/${sha1}`)
  const expires = Number(url.searchParams.get('expires'))
  assert.ok(Math.abs(expires - (Date.now() / 1000 + 3600)) < 60)

  const res = await open(link, token)
  assert.equal(res.statusCode, 200)
  assert.equal(res.json().message, 'Email verified successfully.')
  assertUserShape(res.json().data)
  assert.equal(res.json().data.email_verified, true)

  const again = await open(link, token)
  assert.equal(again.statusCode, 200)
  assert.equal(again.json().message, 'Email already verified.')

  assert.equal((await open(link, '')).statusCode, 401)
})

test('tampered, unsigned, expired and foreign links are refused', async () => {
  const { token, data } = await register('tamper@example.com')
  const link = await lastVerificationLink(app, 'tamper@example.com')
  const url = new URL(link)

  const badSig = new URL(link)
  const sig = badSig.searchParams.get('signature')!
  badSig.searchParams.set('signature', (sig[0] === 'a' ? 'b' : 'a') + sig.slice(1))
  const longer = new URL(link)
  longer.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3600))
  const noSig = `${url.origin}${url.pathname}?expires=${url.searchParams.get('expires')}`
  const otherHash = link.replace(/\/[0-9a-f]{40}\?/, `/${'0'.repeat(40)}?`)
  for (const bad of [badSig.toString(), longer.toString(), noSig, otherHash]) {
    const res = await open(bad, token)
    assert.equal(res.statusCode, 403, bad)
    assert.deepEqual(res.json(), { message: 'Invalid signature.' })
  }

  // An expired (but correctly signed) link.
  const old = verificationUrl(
    app.ctx,
    { id: data.id, email: 'tamper@example.com' },
    new Date(app.ctx.clock.now().getTime() - 61 * 60_000),
  )
  const expired = await open(old, token)
  assert.equal(expired.statusCode, 403)
  assert.deepEqual(expired.json(), { message: 'Invalid signature.' })

  // Someone else's (valid) link opened with my token.
  const someone = await createUser(app)
  const foreign = await open(link, someone.token)
  assert.equal(foreign.statusCode, 403)
  assert.deepEqual(foreign.json(), { message: 'This action is unauthorized.' })

  const me = await app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(token) })
  assert.equal(me.json().data.email_verified, false)
})

test('a link signed for a previous email no longer verifies after the email changed', async () => {
  const { token, data } = await register('before@example.com')
  const link = await lastVerificationLink(app, 'before@example.com')
  await app.ctx.db.updateTable('users').set({ email: 'after@example.com' }).where('id', '=', data.id).execute()
  const res = await open(link, token)
  assert.equal(res.statusCode, 403)
})

test('resend mails a fresh link; an already verified user is told so', async () => {
  const user = await createUser(app, { email: 'resend@example.com' })
  const res = await app.inject({ method: 'POST', url: '/api/email/verify/resend', headers: user.headers })
  assert.equal(res.statusCode, 200)
  assert.deepEqual(res.json(), { message: 'Verification link sent.' })
  const link = await lastVerificationLink(app, 'resend@example.com')
  assert.equal((await open(link, user.token)).statusCode, 200)

  const before = (await outbox(app)).length
  const done = await app.inject({ method: 'POST', url: '/api/email/verify/resend', headers: user.headers })
  assert.deepEqual(done.json(), { message: 'Email already verified.' })
  assert.equal((await outbox(app)).length, before)
  assert.equal((await app.inject({ method: 'POST', url: '/api/email/verify/resend' })).statusCode, 401)
})
