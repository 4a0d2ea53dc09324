import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { createRemoteJWKSet, jwtVerify } from 'jose'
import type { Static } from 'typebox'
import type { SocialProviderConfig } from '../../../config.ts'
import type { AppContext } from '../../../lib/context.ts'
import { AppError, Forbidden, NotFound, Unprocessable } from '../../../lib/errors.ts'
import * as repo from '../repository.ts'
import type { SocialCallbackFields } from '../schemas.ts'
import { INVALID_CREDENTIALS } from './users.ts'

// Social login: provider_1..3 are OAuth 2.0 / OpenID Connect clients (authorization code flow with
// PKCE). `state` is signed with APP_KEY and carries a nonce; the PKCE verifier is derived from that
// nonce with the key, so nothing is kept on the server between the redirect and the callback. The
// state is bound to the browser that started the sign-in: it carries the hash of a random value
// sent to that browser as a cookie (oauthCookieName), and a callback without that cookie is refused,
// so a state (a callback URL) cannot be replayed in another browser (login CSRF).
// Google and Apple identify the user by their ID token, verified with jose against the provider's
// published keys (PROVIDER_n_JWKS_URL, PROVIDER_n_ISSUER); Facebook has no ID token and is asked
// through its userinfo endpoint with the access token.

export const PROVIDERS = ['provider_1', 'provider_2', 'provider_3'] as const
export type ProviderKey = (typeof PROVIDERS)[number]
const STATE_MINUTES = 10

export const INVALID_STATE = 'Invalid or expired login state.'

export function providerConfig(ctx: AppContext, provider: string): SocialProviderConfig & { key: ProviderKey } {
  if (!(PROVIDERS as readonly string[]).includes(provider)) throw new NotFound()
  const cfg = ctx.config.social[provider as ProviderKey]
  // Without a key set (and issuer) to verify ID tokens, or a userinfo endpoint, there is no trusted identity.
  if (!cfg.clientId || !((cfg.jwksUrl && cfg.issuer) || cfg.userinfoUrl)) {
    // An unconfigured provider does not exist here: 404, as an unknown one.
    throw new NotFound()
  }
  return { ...cfg, key: provider as ProviderKey }
}

const b64 = (buf: Buffer | string) => Buffer.from(buf).toString('base64url')
const hmac = (key: string, data: string) => createHmac('sha256', key).update(data).digest()

function pkceVerifier(appKey: string, nonce: string): string {
  return b64(hmac(appKey, `pkce|${nonce}`))
}

/** The cookie that binds a provider's sign-in to the browser that started it. */
export const oauthCookieName = (provider: ProviderKey) => `courtside_oauth_${provider}`
export const OAUTH_COOKIE_SECONDS = STATE_MINUTES * 60

const bindingHash = (binding: string) => b64(createHash('sha256').update(`oauth-binding|${binding}`).digest())

/**
 * The provider's authorization URL, and the value of the cookie the browser must send back with
 * the callback (its hash is in the signed state).
 */
export function authorizationUrl(
  ctx: AppContext,
  provider: string,
): { url: string; provider: ProviderKey; binding: string } {
  const cfg = providerConfig(ctx, provider)
  const nonce = b64(randomBytes(16))
  const binding = b64(randomBytes(24))
  const payload = b64(
    JSON.stringify({
      p: cfg.key,
      n: nonce,
      b: bindingHash(binding),
      e: ctx.clock.now().getTime() + STATE_MINUTES * 60_000,
    }),
  )
  const state = `${payload}.${b64(hmac(ctx.config.appKey, `state|${payload}`))}`
  const challenge = b64(createHash('sha256').update(pkceVerifier(ctx.config.appKey, nonce)).digest())
  const url = new URL(cfg.authorizeUrl)
  url.searchParams.set('response_type', 'code')
  url.searchParams.set('client_id', cfg.clientId!)
  url.searchParams.set('redirect_uri', cfg.redirectUrl!)
  url.searchParams.set('scope', cfg.scope)
  url.searchParams.set('state', state)
  url.searchParams.set('code_challenge', challenge)
  url.searchParams.set('code_challenge_method', 'S256')
  if (cfg.scope.split(' ').includes('openid')) url.searchParams.set('nonce', nonce)
  // Apple sends name/email only with a form POST back to the callback.
  if (cfg.name === 'apple') url.searchParams.set('response_mode', 'form_post')
  return { url: url.toString(), provider: cfg.key, binding }
}

/**
 * The nonce of a state this service signed for this provider, that has not expired and whose
 * binding cookie came with it; 422 otherwise.
 */
function checkState(
  ctx: AppContext,
  provider: ProviderKey,
  state: string | undefined,
  binding: string | undefined,
): string {
  const [payload, sig, extra] = (state ?? '').split('.')
  if (!payload || !sig || extra !== undefined) throw new Unprocessable(INVALID_STATE)
  const expected = hmac(ctx.config.appKey, `state|${payload}`)
  const given = Buffer.from(sig, 'base64url')
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new Unprocessable(INVALID_STATE)
  let data: { p?: string; n?: string; b?: string; e?: number }
  try {
    data = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'))
  } catch {
    throw new Unprocessable(INVALID_STATE)
  }
  if (
    data.p !== provider ||
    typeof data.n !== 'string' ||
    typeof data.e !== 'number' ||
    data.e < ctx.clock.now().getTime() ||
    typeof data.b !== 'string' ||
    !binding ||
    !timingSafeEqual(Buffer.from(bindingHash(binding)), Buffer.from(data.b.padEnd(43).slice(0, 43)))
  ) {
    throw new Unprocessable(INVALID_STATE)
  }
  return data.n
}

interface ProviderProfile {
  id: string
  email: string | null
  emailVerified: boolean
  name: string | null
}

async function call(url: string, init: RequestInit): Promise<Record<string, unknown>> {
  let res: Response
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) })
  } catch {
    throw new AppError(502, 'The sign-in provider could not be reached.')
  }
  const body = (await res.json().catch(() => null)) as Record<string, unknown> | null
  if (!res.ok || !body || typeof body !== 'object') {
    throw new Unprocessable(REFUSED)
  }
  return body
}

const REFUSED = 'The sign-in provider refused the login.'

/** One key set per URL: jose caches the keys and refetches on an unknown kid (key rotation). */
const keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>()
/** jose errors that mean "this token is not valid" rather than "the key set could not be fetched". */
const INVALID_TOKEN = new Set([
  'ERR_JWT_EXPIRED',
  'ERR_JWT_CLAIM_VALIDATION_FAILED',
  'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
  'ERR_JWKS_NO_MATCHING_KEY',
  'ERR_JWKS_MULTIPLE_MATCHING_KEYS',
  'ERR_JWS_INVALID',
  'ERR_JWT_INVALID',
  'ERR_JOSE_ALG_NOT_ALLOWED',
  'ERR_JOSE_NOT_SUPPORTED',
])

/**
 * The claims of an ID token whose signature verifies against the provider's published keys and
 * whose issuer, audience (our client id) and expiry are right (OIDC Core 3.1.3.7); 422 otherwise.
 */
async function verifiedIdToken(cfg: SocialProviderConfig, token: unknown): Promise<Record<string, unknown>> {
  if (typeof token !== 'string') throw new Unprocessable(REFUSED)
  let keys = keySets.get(cfg.jwksUrl)
  if (!keys) {
    keys = createRemoteJWKSet(new URL(cfg.jwksUrl), { timeoutDuration: 10_000 })
    keySets.set(cfg.jwksUrl, keys)
  }
  try {
    const { payload } = await jwtVerify(token, keys, {
      issuer: cfg.issuer,
      audience: cfg.clientId!,
      algorithms: ['RS256'],
      clockTolerance: 60,
    })
    return payload
  } catch (err) {
    if (INVALID_TOKEN.has((err as { code?: string }).code ?? '')) throw new Unprocessable(REFUSED)
    throw new AppError(502, 'The sign-in provider could not be reached.')
  }
}

async function fetchProfile(
  cfg: SocialProviderConfig,
  code: string,
  verifier: string,
  nonce: string,
): Promise<ProviderProfile> {
  const tokens = await call(cfg.tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: cfg.redirectUrl!,
      client_id: cfg.clientId!,
      client_secret: cfg.clientSecret ?? '',
      code_verifier: verifier,
    }),
  })
  let info: Record<string, unknown>
  if (cfg.jwksUrl && cfg.issuer) {
    // Google and Apple: the verified ID token is the identity (its email and email_verified too).
    info = await verifiedIdToken(cfg, tokens.id_token)
    if (info.nonce !== nonce) throw new Unprocessable(INVALID_STATE)
  } else {
    if (typeof tokens.access_token !== 'string') throw new Unprocessable(REFUSED)
    info = await call(cfg.userinfoUrl, {
      headers: { authorization: `Bearer ${tokens.access_token}`, accept: 'application/json' },
    })
  }
  const id = info.sub ?? info.id
  if ((typeof id !== 'string' && typeof id !== 'number') || String(id) === '') {
    throw new Unprocessable('The sign-in provider did not identify the user.')
  }
  const email = typeof info.email === 'string' && info.email.includes('@') ? info.email.trim() : null
  const name = typeof info.name === 'string' && info.name.trim() ? info.name.trim() : null
  return {
    id: String(id),
    email,
    emailVerified: email !== null && (info.email_verified === true || info.email_verified === 'true'),
    name,
  }
}

/** Completes a login: the linked user, else the user with that verified email, else a new customer. */
export async function completeSocialLogin(
  ctx: AppContext,
  provider: string,
  query: Static<typeof SocialCallbackFields>,
  binding: string | undefined,
): Promise<number> {
  const cfg = providerConfig(ctx, provider)
  const nonce = checkState(ctx, cfg.key, query.state, binding)
  if (query.error || !query.code) throw new Unprocessable('The sign-in was cancelled or refused by the provider.')
  const profile = await fetchProfile(cfg, query.code, pkceVerifier(ctx.config.appKey, nonce), nonce)

  const userId = await linkOrCreate(ctx, cfg.key, profile).catch((err: { code?: string }) => {
    // Two first logins of the same person at once: the loser finds what the winner created.
    if (err?.code === '23505') return linkOrCreate(ctx, cfg.key, profile)
    throw err
  })
  const user = await repo.findUser(ctx.db, userId)
  if (!user?.is_active) throw new Forbidden(INVALID_CREDENTIALS)
  return userId
}

function linkOrCreate(ctx: AppContext, provider: ProviderKey, profile: ProviderProfile): Promise<number> {
  return ctx.db.transaction().execute(async (trx) => {
    const linked = await repo.linkedUserId(trx, provider, profile.id)
    if (linked !== undefined) return linked
    const link = (userId: number) => repo.linkSocialAccount(trx, userId, provider, profile.id)
    if (!profile.email) throw new Unprocessable('The sign-in provider did not share an email address.')
    const existing = await repo.userIdByEmail(trx, profile.email)
    if (existing !== undefined) {
      if (!profile.emailVerified) {
        throw new Unprocessable('An account with this email already exists. Sign in with your password first.')
      }
      await link(existing)
      await repo.markVerified(trx, existing, 'email_verified_at', ctx.clock.now())
      return existing
    }
    const userId = await repo.insertUser(trx, {
      name: (profile.name ?? profile.email.split('@')[0]).slice(0, 255),
      email: profile.email,
      password_hash: null,
      email_verified_at: profile.emailVerified ? ctx.clock.now() : null,
    })
    await repo.assignRole(trx, userId, 'customer')
    await link(userId)
    return userId
  })
}
