import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
  preSerializationHookHandler,
  RouteOptions,
} from 'fastify'
import { requestLocale, translate } from './i18n/index.ts'

// A success answer's `message` in the language of the request (docs/languages.md): routes and
// services write the contract's English ("OTP sent successfully.", "Password updated
// successfully."), and one preSerialization hook writes it in the token user's language, else the
// Accept-Language one, through the catalogue (translate()), as the error handler does for errors.
//
// Only a route whose success answer declares a top-level `message` gets the hook (decided once, when
// the route is added): the hot reads (availability, venue list and show, /health) have no hook at
// all, and on a route that has it an English request costs a property read and one locale check.

/** A success answer's `message` translated for a reader of another language; English unchanged. */
const successInLanguage: preSerializationHookHandler = (
  req: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: HookHandlerDoneFunction & ((err: Error | null, value?: unknown) => void),
) => {
  // Error bodies are the error handler's (src/lib/errors.ts): already in the request's language.
  if (reply.statusCode >= 400 || payload === null || typeof payload !== 'object') return done(null, payload)
  const message = (payload as { message?: unknown }).message
  if (typeof message !== 'string') return done(null, payload)
  const locale = requestLocale(req)
  if (locale === 'en') return done(null, payload)
  done(null, { ...(payload as object), message: translate(locale, message) })
}

type Schema = Record<string, unknown> | undefined

/** Whether a response schema (TypeBox or `{content: {'application/json': {schema}}}`) has a top-level `message`. */
function declaresMessage(schema: Schema): boolean {
  if (!schema || typeof schema !== 'object') return false
  const properties = schema.properties as Record<string, unknown> | undefined
  if (properties && Object.hasOwn(properties, 'message')) return true
  for (const branch of ['anyOf', 'oneOf', 'allOf'] as const) {
    const list = schema[branch]
    if (Array.isArray(list) && list.some((s) => declaresMessage(s as Schema))) return true
  }
  const json = (schema.content as Record<string, { schema?: Schema }> | undefined)?.['application/json']
  return declaresMessage(json?.schema)
}

/** Whether the route's success answers (2xx) may carry a `message`. */
export function answersWithMessage(route: Pick<RouteOptions, 'schema'>): boolean {
  const responses = route.schema?.response as Record<string, Schema> | undefined
  if (!responses) return false
  return Object.entries(responses).some(([status, schema]) => /^2/.test(status) && declaresMessage(schema))
}

/** Adds the hook to every route added after this whose success answer has a `message`. */
export function registerAnswerLanguage(app: FastifyInstance) {
  app.addHook('onRoute', (route) => {
    if (!answersWithMessage(route)) return
    const own = route.preSerialization
    route.preSerialization = own == null ? [successInLanguage] : [...[own].flat(), successInLanguage]
  })
}
