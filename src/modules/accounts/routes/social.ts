import type { FastifyReply } from 'fastify'
import { type Static, Type } from 'typebox'
import { issueToken } from '../../../lib/auth.ts'
import { documentedParams } from '../../../lib/openapi.ts'
import type { Routes } from '../../../lib/route.ts'
import { errorResponses, Message, namedEnum } from '../../../lib/schemas.ts'
import { Refused, SocialCallbackFields, TokenResponse } from '../schemas.ts'
import {
  authorizationUrl,
  completeSocialLogin,
  OAUTH_COOKIE_SECONDS,
  oauthCookieName,
  PROVIDERS,
  type ProviderKey,
} from '../service/social.ts'
import { deviceName, userResourceOf } from '../service/users.ts'

const tags = ['Authentication']
const providerDoc = `One of ${PROVIDERS.join(', ')} (Google, Facebook, Apple)`
const ProviderParams = Type.Object({ provider: Type.String({ description: providerDoc }) })
// Validation takes any provider (an unknown one is the service's 404); the document lists the three.
const SocialProviderEnum = namedEnum('SocialProvider', PROVIDERS)
const documented = documentedParams(
  Type.Object({ provider: { ...SocialProviderEnum.response, description: providerDoc } }),
)
const CallbackFields = SocialCallbackFields

/** The value of cookie `name` in a Cookie header. */
function cookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=')
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim()
  }
  return undefined
}

const socialRoutes: Routes = async (app) => {
  const { ctx } = app
  // Over HTTPS the cookie must also come with Apple's cross-site form POST (SameSite=None; Secure);
  // plain HTTP (development) keeps Lax, which the top-level GET redirects of the others carry.
  const secure = ctx.config.appUrl.startsWith('https:')
  const bindingCookie = (provider: ProviderKey, value: string, maxAge: number) =>
    `${oauthCookieName(provider)}=${value}; Path=/api/auth/social/${provider}; Max-Age=${maxAge}; HttpOnly; ` +
    (secure ? 'Secure; SameSite=None' : 'SameSite=Lax')

  // Apple answers with a form POST (response_mode=form_post); only this plugin parses forms.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))))
  })

  app.get(
    '/auth/social/:provider',
    {
      config: documented,
      schema: {
        tags,
        operationId: 'getSocialRedirect',
        security: [],
        summary: 'The identity provider URL to send the user’s browser to',
        description:
          'An OAuth 2.0 / OpenID Connect authorization URL with a signed state (valid 10 minutes) and PKCE. ' +
          'The answer sets an HttpOnly cookie (`courtside_oauth_<provider>`, path /api/auth/social/<provider>) ' +
          'that the state is bound to: the callback is refused (422) in a browser that did not start the sign-in, ' +
          'so call this from the browser that will follow the URL. A provider that is not configured is 404.',
        params: ProviderParams,
        response: { 200: Type.Object({ url: Type.String() }), ...errorResponses },
      },
    },
    async (req, reply) => {
      const { url, provider, binding } = authorizationUrl(ctx, req.params.provider)
      reply.header('set-cookie', bindingCookie(provider, binding, OAUTH_COOKIE_SECONDS))
      reply.header('cache-control', 'no-store')
      return { url }
    },
  )

  const callback = async (
    req: { params: Static<typeof ProviderParams>; headers: { 'user-agent'?: string; cookie?: string } },
    reply: FastifyReply,
    fields: Static<typeof CallbackFields>,
  ) => {
    const provider = req.params.provider
    const known = (PROVIDERS as readonly string[]).includes(provider)
    const binding = known ? cookie(req.headers.cookie, oauthCookieName(provider as ProviderKey)) : undefined
    // The binding is used up whatever the outcome.
    if (binding) reply.header('set-cookie', bindingCookie(provider as ProviderKey, '', 0))
    const userId = await completeSocialLogin(ctx, provider, fields, binding)
    const token = await issueToken(ctx.db, userId, deviceName(req.headers['user-agent']))
    return { token, data: await userResourceOf(ctx, userId) }
  }
  const callbackSchema = (method: string, operationId: string) => ({
    tags,
    operationId,
    security: [],
    summary: `Called by the identity provider (${method}), not by the client: signs in and answers like login`,
    description:
      'Query (or form) fields code and state, or error. A bad or expired state, a state without the cookie set ' +
      'when this browser started the sign-in, or a refused code: 422. ' +
      'The first login creates a customer; later ones find the user by provider id, then by verified email.',
    params: ProviderParams,
    response: { 200: TokenResponse, 502: Message, ...errorResponses, 422: Refused },
  })

  app.get(
    '/auth/social/:provider/callback',
    { config: documented, schema: { ...callbackSchema('GET', 'socialCallback'), querystring: CallbackFields } },
    (req, reply) => callback(req, reply, req.query),
  )
  app.post(
    '/auth/social/:provider/callback',
    {
      config: documented,
      schema: {
        ...callbackSchema('form POST', 'socialCallbackPost'),
        consumes: ['application/x-www-form-urlencoded'],
        body: CallbackFields,
      },
    },
    (req, reply) => callback(req, reply, req.body),
  )
}
export default socialRoutes
