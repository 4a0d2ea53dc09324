import { type Static, Type } from 'typebox'
import { issueToken } from '../../../lib/auth.ts'
import { documentedParams } from '../../../lib/openapi.ts'
import type { Routes } from '../../../lib/route.ts'
import { errorResponses, Message, namedEnum } from '../../../lib/schemas.ts'
import { Refused, SocialCallbackFields, TokenResponse } from '../schemas.ts'
import { authorizationUrl, completeSocialLogin, PROVIDERS } from '../service/social.ts'
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

const socialRoutes: Routes = async (app) => {
  const { ctx } = app

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
        description: 'An OAuth 2.0 / OpenID Connect authorization URL with a signed state (valid 10 minutes) and PKCE.',
        params: ProviderParams,
        response: { 200: Type.Object({ url: Type.String() }), 503: Message, ...errorResponses },
      },
    },
    async (req) => ({ url: authorizationUrl(ctx, req.params.provider) }),
  )

  const callback = async (
    req: { params: Static<typeof ProviderParams>; headers: { 'user-agent'?: string } },
    fields: Static<typeof CallbackFields>,
  ) => {
    const userId = await completeSocialLogin(ctx, req.params.provider, fields)
    const token = await issueToken(ctx.db, userId, deviceName(req.headers['user-agent']))
    return { token, data: await userResourceOf(ctx, userId) }
  }
  const callbackSchema = (method: string, operationId: string) => ({
    tags,
    operationId,
    security: [],
    summary: `Called by the identity provider (${method}), not by the client: signs in and answers like login`,
    description:
      'Query (or form) fields code and state, or error. A bad or expired state, or a refused code: 422. ' +
      'The first login creates a customer; later ones find the user by provider id, then by verified email.',
    params: ProviderParams,
    response: { 200: TokenResponse, 502: Message, 503: Message, ...errorResponses, 422: Refused },
  })

  app.get(
    '/auth/social/:provider/callback',
    { config: documented, schema: { ...callbackSchema('GET', 'socialCallback'), querystring: CallbackFields } },
    (req) => callback(req, req.query),
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
    (req) => callback(req, req.body),
  )
}
export default socialRoutes
