import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { OAuth2Server } from 'oauth2-mock-server'
import type { App } from '../../src/app.ts'
import { build } from '../helpers/app.ts'
import { createUser } from '../helpers/factories.ts'
import { assertUserShape, bearer } from './helpers.ts'

// Social login against a local OpenID Connect provider (oauth2-mock-server) speaking the real protocol.

let app: App
let idp: OAuth2Server
let profile: Record<string, unknown> = {}

before(async () => {
  idp = new OAuth2Server()
  await idp.issuer.keys.generate('RS256')
  await idp.start(0, '127.0.0.1')
  const base = idp.issuer.url!
  idp.service.on('beforeUserinfo', (res: { body: Record<string, unknown> }) => {
    res.body = { ...profile }
  })
  // provider_3 has no userinfo endpoint: its profile comes from the ID token.
  idp.service.on('beforeTokenSigning', (token: { payload: Record<string, unknown> }) => {
    Object.assign(token.payload, profile)
  })
  const env: Record<string, string> = {}
  for (const p of ['PROVIDER_1', 'PROVIDER_3']) {
    env[`${p}_CLIENT_ID`] = `${p.toLowerCase()}-client`
    env[`${p}_CLIENT_SECRET`] = 'shh'
    env[`${p}_AUTHORIZE_URL`] = `${base}/authorize`
    env[`${p}_TOKEN_URL`] = `${base}/token`
    env[`${p}_JWKS_URL`] = `${base}/jwks`
    env[`${p}_ISSUER`] = base
  }
  env.PROVIDER_1_USERINFO_URL = `${base}/userinfo`
  app = await build(undefined, env)
})
after(async () => {
  await app.close()
  await idp.stop()
})

/** The binding cookie of each redirect back (the browser that started that sign-in sends it). */
const cookies = new WeakMap<URL, string>()

/** The `name=value` of the binding cookie a start answer set. */
function bindingOf(res: { headers: Record<string, unknown> }): string {
  const set = String(res.headers['set-cookie'])
  assert.match(
    set,
    /^courtside_oauth_provider_\d=[\w-]+; Path=\/api\/auth\/social\/provider_\d; Max-Age=600; HttpOnly; SameSite=Lax$/,
  )
  return set.split(';')[0]
}

/** Asks the service for the provider URL, lets the mock provider "sign in", returns its redirect back. */
async function authorize(provider: string): Promise<URL> {
  const res = await app.inject({ method: 'GET', url: `/api/auth/social/${provider}` })
  assert.equal(res.statusCode, 200)
  assert.deepEqual(Object.keys(res.json()), ['url'])
  const back = await fetch(res.json().url, { redirect: 'manual' })
  assert.equal(back.status, 302)
  const url = new URL(back.headers.get('location')!)
  cookies.set(url, bindingOf(res))
  return url
}

/** The callback as the browser that started the sign-in sends it (another cookie, or none: null). */
const callback = (url: URL, cookie: string | null | undefined = cookies.get(url)) =>
  app.inject({ method: 'GET', url: `${url.pathname}${url.search}`, headers: cookie ? { cookie } : {} })

test('the redirect URL is an OAuth 2.0 authorization request with signed state and PKCE', async () => {
  const res = await app.inject({ method: 'GET', url: '/api/auth/social/provider_1' })
  const url = new URL(res.json().url)
  assert.equal(`${url.origin}${url.pathname}`, `${idp.issuer.url}/authorize`)
  assert.equal(url.searchParams.get('response_type'), 'code')
  assert.equal(url.searchParams.get('client_id'), 'provider_1-client')
  assert.equal(url.searchParams.get('redirect_uri'), 'http://localhost:8000/api/auth/social/provider_1/callback')
  assert.equal(url.searchParams.get('scope'), 'openid email profile')
  assert.match(url.searchParams.get('state')!, /^[\w-]+\.[\w-]+$/)
  assert.equal(url.searchParams.get('code_challenge_method'), 'S256')
})

test('first login creates a customer; the second links to the same user', async () => {
  profile = { sub: 'google-1001', email: 'social@example.com', email_verified: true, name: 'Social Person' }
  const back = await authorize('provider_1')
  assert.equal(back.pathname, '/api/auth/social/provider_1/callback')
  assert.ok(back.searchParams.get('code'))
  const first = await callback(back)
  assert.equal(first.statusCode, 200)
  assert.deepEqual(Object.keys(first.json()).sort(), ['data', 'token'])
  assert.match(first.json().token, /^\d+\|.{40}$/)
  const user = first.json().data
  assertUserShape(user)
  assert.equal(user.name, 'Social Person')
  assert.equal(user.email, 'social@example.com')
  assert.equal(user.email_verified, true)
  assert.deepEqual(user.roles, ['customer'])
  assert.equal(user.wallet_balance, '0.00')
  const me = await app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(first.json().token) })
  assert.equal(me.json().data.id, user.id)

  // Same provider id, even with a changed email at the provider: same user.
  profile = { sub: 'google-1001', email: 'renamed@example.com', email_verified: true, name: 'Social Person' }
  const second = await callback(await authorize('provider_1'))
  assert.equal(second.statusCode, 200)
  assert.equal(second.json().data.id, user.id)
  const links = await app.ctx.db.selectFrom('social_accounts').selectAll().where('user_id', '=', user.id).execute()
  assert.equal(links.length, 1)
  assert.equal(links[0].provider, 'provider_1')
  assert.equal(links[0].provider_user_id, 'google-1001')
})

test('a verified provider email links to an existing account; an unverified one is refused', async () => {
  const existing = await createUser(app, { email: 'has-password@example.com' })
  profile = { sub: 'google-2002', email: 'HAS-PASSWORD@example.com', email_verified: true, name: 'X' }
  const linked = await callback(await authorize('provider_1'))
  assert.equal(linked.statusCode, 200)
  assert.equal(linked.json().data.id, existing.id)
  assert.equal(linked.json().data.email_verified, true)

  const other = await createUser(app, { email: 'unverified-claim@example.com' })
  profile = { sub: 'google-3003', email: 'unverified-claim@example.com', email_verified: false }
  const refused = await callback(await authorize('provider_1'))
  assert.equal(refused.statusCode, 422)
  assert.equal(typeof refused.json().message, 'string')
  const links = await app.ctx.db.selectFrom('social_accounts').select('id').where('user_id', '=', other.id).execute()
  assert.equal(links.length, 0)

  profile = { sub: 'google-4004' }
  const noEmail = await callback(await authorize('provider_1'))
  assert.equal(noEmail.statusCode, 422)
})

test('a bad, foreign or missing state is refused and creates nothing', async () => {
  profile = { sub: 'google-5005', email: 'state@example.com', email_verified: true }
  const back = await authorize('provider_1')
  const state = back.searchParams.get('state')!
  const tampered = new URL(back)
  tampered.searchParams.set('state', `${state.split('.')[0]}x.${state.split('.')[1]}`)
  const forged = new URL(back)
  forged.searchParams.set('state', `${state.split('.')[0]}.${'A'.repeat(43)}`)
  const missing = new URL(back)
  missing.searchParams.delete('state')
  const otherProvider = new URL(back)
  otherProvider.pathname = '/api/auth/social/provider_3/callback'
  for (const url of [tampered, forged, missing, otherProvider]) {
    const res = await callback(url, cookies.get(back))
    assert.equal(res.statusCode, 422, url.toString())
    assert.deepEqual(res.json(), { message: 'Invalid or expired login state.' })
  }
  const users = await app.ctx.db.selectFrom('users').select('id').where('email', '=', 'state@example.com').execute()
  assert.equal(users.length, 0)

  // A provider error (the user cancelled) with a valid state.
  const cancelled = await app.inject({
    method: 'GET',
    url: `/api/auth/social/provider_1/callback?error=access_denied&state=${encodeURIComponent(state)}`,
    headers: { cookie: cookies.get(back)! },
  })
  assert.equal(cancelled.statusCode, 422)
})

test('provider_3 (no userinfo endpoint) signs in from the ID token via a form POST callback', async () => {
  profile = { sub: 'apple-6006', email: 'apple@example.com', email_verified: 'true' }
  const res = await app.inject({ method: 'GET', url: '/api/auth/social/provider_3' })
  assert.equal(new URL(res.json().url).searchParams.get('response_mode'), 'form_post')
  const back = await fetch(res.json().url, { redirect: 'manual' })
  const location = new URL(back.headers.get('location')!)
  const login = await app.inject({
    method: 'POST',
    url: location.pathname,
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: bindingOf(res) },
    payload: new URLSearchParams({
      code: location.searchParams.get('code')!,
      state: location.searchParams.get('state')!,
    }).toString(),
  })
  assert.equal(login.statusCode, 200)
  assert.equal(login.json().data.email, 'apple@example.com')
  assert.equal(login.json().data.email_verified, true)
  assert.equal(login.json().data.name, 'apple')
})

test('a suspended linked user cannot sign in; unknown and unconfigured providers', async () => {
  profile = { sub: 'google-7007', email: 'banned@example.com', email_verified: true }
  const first = await callback(await authorize('provider_1'))
  await app.ctx.db.updateTable('users').set({ is_active: false }).where('id', '=', first.json().data.id).execute()
  const again = await callback(await authorize('provider_1'))
  assert.equal(again.statusCode, 403)
  assert.deepEqual(again.json(), { message: 'Invalid credentials.' })

  const unknown = await app.inject({ method: 'GET', url: '/api/auth/social/provider_9' })
  assert.equal(unknown.statusCode, 404)
  assert.deepEqual(unknown.json(), { message: 'Not found.' })
  // An unconfigured provider is 404, as an unknown one (issue 32; it was 503 to anyone).
  const unconfigured = await app.inject({ method: 'GET', url: '/api/auth/social/provider_2' })
  assert.equal(unconfigured.statusCode, 404)
  assert.deepEqual(unconfigured.json(), { message: 'Not found.' })
  assert.equal(
    (await app.inject({ method: 'GET', url: '/api/auth/social/provider_2/callback?code=x&state=y' })).statusCode,
    404,
  )
})

test('the state is bound to the cookie set when sign-in started: without it, or with another, the callback is 422', async () => {
  profile = { sub: 'google-9009', email: 'bound@example.com', email_verified: true }
  const back = await authorize('provider_1')
  const other = await authorize('provider_1')
  for (const cookie of [
    null,
    cookies.get(other),
    'courtside_oauth_provider_1=forged',
    'courtside_oauth_provider_3=x',
  ]) {
    const res = await callback(back, cookie)
    assert.equal(res.statusCode, 422, String(cookie))
    assert.deepEqual(res.json(), { message: 'Invalid or expired login state.' })
  }
  assert.equal(
    (await app.ctx.db.selectFrom('users').select('id').where('email', '=', 'bound@example.com').execute()).length,
    0,
  )
  // The browser that started it signs in, and its cookie is cleared.
  const ok = await callback(back)
  assert.equal(ok.statusCode, 200, ok.body)
  assert.match(String(ok.headers['set-cookie']), /^courtside_oauth_provider_1=; .*Max-Age=0/)
})

test('two first logins of the same person at once end in one user', async () => {
  profile = { sub: 'google-8008', email: 'twice@example.com', email_verified: true, name: 'Twice' }
  const [a, b] = [await authorize('provider_1'), await authorize('provider_1')]
  const [ra, rb] = await Promise.all([callback(a), callback(b)])
  assert.equal(ra.statusCode, 200)
  assert.equal(rb.statusCode, 200)
  assert.equal(ra.json().data.id, rb.json().data.id)
  const users = await app.ctx.db.selectFrom('users').select('id').where('email', '=', 'twice@example.com').execute()
  assert.equal(users.length, 1)
})
