import assert from 'node:assert/strict'
import { generateKeyPairSync, sign } from 'node:crypto'
import { get as httpGet } from 'node:http'
import { after, before, test } from 'node:test'
import { OAuth2Server } from 'oauth2-mock-server'
import type { App } from '../../src/app.ts'
import { build } from '../helpers/app.ts'

// Google (provider_1) and Apple (provider_3) ID tokens are verified against the provider's JWKS:
// signature, issuer, audience and expiry. The provider is a local OpenID Connect server
// (oauth2-mock-server) that publishes its keys at /jwks and signs the ID tokens it issues.

let app: App
let idp: OAuth2Server
/** Changes to the ID token's claims before the provider signs it. */
let claims: Record<string, unknown> = {}
/** Replaces the ID token in the token endpoint's answer (a token signed by another key). */
let forge: ((real: string) => string) | null = null
/** A key the provider never published. */
const foreignKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey
const KID = 'provider-key'

before(async () => {
  idp = new OAuth2Server()
  await idp.issuer.keys.generate('RS256', { kid: KID })
  await idp.start(0, '127.0.0.1')
  const base = idp.issuer.url!
  idp.service.on('beforeTokenSigning', (token: { payload: Record<string, unknown> }) => {
    Object.assign(token.payload, claims)
  })
  // Synchronous: the provider sends the answer as soon as its listeners return.
  idp.service.on('beforeResponse', (res: { body: Record<string, unknown> }) => {
    if (forge) res.body.id_token = forge(res.body.id_token as string)
  })
  const env: Record<string, string> = {}
  for (const p of ['PROVIDER_1', 'PROVIDER_3']) {
    env[`${p}_CLIENT_ID`] = `${p.toLowerCase()}-client`
    env[`${p}_AUTHORIZE_URL`] = `${base}/authorize`
    env[`${p}_TOKEN_URL`] = `${base}/token`
    env[`${p}_JWKS_URL`] = `${base}/jwks`
    env[`${p}_ISSUER`] = base
  }
  // The ID token alone identifies a Google user: a userinfo endpoint that answers nothing useful.
  env.PROVIDER_1_USERINFO_URL = `${base}/nowhere`
  app = await build(undefined, env)
})
after(async () => {
  await app.close()
  await idp.stop()
})

/**
 * Where the provider's authorize endpoint redirects the browser. A new connection each time: a
 * kept-alive one may have been closed by the provider while a slow test set-up ran.
 */
function providerRedirect(url: string): Promise<URL> {
  return new Promise((resolve, reject) => {
    httpGet(url, { agent: false }, (res) => {
      res.resume()
      resolve(new URL(res.headers.location!))
    }).on('error', reject)
  })
}

/** A full sign-in through the provider; returns the callback's answer. */
async function signIn(provider: string, through = app) {
  const res = await through.inject({ method: 'GET', url: `/api/auth/social/${provider}` })
  const location = await providerRedirect(res.json().url)
  // The binding cookie the start set, as the browser sends it back.
  const cookie = String(res.headers['set-cookie']).split(';')[0]
  return through.inject({ method: 'GET', url: `${location.pathname}${location.search}`, headers: { cookie } })
}

const usersWith = (email: string) => app.ctx.db.selectFrom('users').select('id').where('email', '=', email).execute()

for (const [provider, who] of [
  ['provider_1', 'google'],
  ['provider_3', 'apple'],
] as const) {
  test(`${provider} (${who}): a valid ID token signs in`, async () => {
    claims = { sub: `${who}-ok`, email: `${who}-ok@example.com`, email_verified: true }
    forge = null
    const res = await signIn(provider)
    assert.equal(res.statusCode, 200, res.body)
    assert.equal(res.json().data.email, `${who}-ok@example.com`)
    assert.match(res.json().token, /^\d+\|.{40}$/)
  })

  test(`${provider} (${who}): wrong issuer, wrong audience, expired or foreign-key tokens are refused`, async () => {
    const now = Math.floor(Date.now() / 1000)
    const cases: Array<[string, Record<string, unknown>, typeof forge]> = [
      ['wrong issuer', { iss: 'https://evil.example.com' }, null],
      ['wrong audience', { aud: 'someone-elses-client' }, null],
      ['expired', { iat: now - 7200, nbf: now - 7200, exp: now - 3600 }, null],
      [
        'signed by another key',
        {},
        (real) => {
          // The same header (kid) and claims, signed with the foreign key.
          const [header, payload] = real.split('.')
          const signature = sign('sha256', Buffer.from(`${header}.${payload}`), foreignKey).toString('base64url')
          return `${header}.${payload}.${signature}`
        },
      ],
      ['not a JWT at all', {}, () => 'not.a.jwt'],
    ]
    for (const [name, bad, replace] of cases) {
      const email = `${who}-${name.replaceAll(' ', '-')}@example.com`
      claims = { sub: `${who}-${name}`, email, email_verified: true, ...bad }
      forge = replace
      const res = await signIn(provider)
      assert.equal(res.statusCode, 422, `${name}: ${res.body}`)
      assert.deepEqual(res.json(), { message: 'The sign-in provider refused the login.' }, name)
      assert.equal((await usersWith(email)).length, 0, `${name}: no user created`)
    }
    forge = null
  })
}

test('an unreachable key set is a 502, and creates nobody', async () => {
  const down = await build(undefined, {
    PROVIDER_3_CLIENT_ID: 'provider_3-client',
    PROVIDER_3_AUTHORIZE_URL: `${idp.issuer.url}/authorize`,
    PROVIDER_3_TOKEN_URL: `${idp.issuer.url}/token`,
    PROVIDER_3_JWKS_URL: 'http://127.0.0.1:1/jwks',
    PROVIDER_3_ISSUER: idp.issuer.url!,
  })
  try {
    claims = { sub: 'apple-down', email: 'apple-down@example.com', email_verified: true }
    forge = null
    const login = await signIn('provider_3', down)
    assert.equal(login.statusCode, 502)
    assert.deepEqual(login.json(), { message: 'The sign-in provider could not be reached.' })
    const users = await down.ctx.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'apple-down@example.com')
      .execute()
    assert.equal(users.length, 0)
  } finally {
    await down.close()
  }
})
