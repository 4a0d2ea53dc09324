import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { acceptedLocale, type Locale, requestLocale, translate } from './i18n/index.ts'
import { MONEY_MAX, MONEY_TEXT_PATTERN } from './schemas.ts'

/** Typed errors services throw; one handler (below) turns them into the contract's bodies. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly errors?: Record<string, string[]>,
  ) {
    super(message)
  }
}

export class NotFound extends AppError {
  constructor(message = 'Not found.') {
    super(404, message)
  }
}

export class Unauthenticated extends AppError {
  constructor() {
    super(401, 'Unauthenticated.')
  }
}

export class Forbidden extends AppError {
  constructor(message = 'This action is unauthorized.') {
    super(403, message)
  }
}

export class Conflict extends AppError {
  constructor(message: string) {
    super(409, message)
  }
}

export const INVALID_MESSAGE = 'The given data was invalid.'

/** A 422 validation failure. `Invalid('email', 'The email has already been taken.')` */
export class Invalid extends AppError {
  constructor(fieldOrErrors: string | Record<string, string[]>, message?: string) {
    const errors =
      typeof fieldOrErrors === 'string' ? { [fieldOrErrors]: [message ?? 'The value is invalid.'] } : fieldOrErrors
    super(422, INVALID_MESSAGE, errors)
  }
}

/** A 422 with a message only (the contract's "Invalid or expired OTP.", "Tournament registration is closed."). */
export class Unprocessable extends AppError {
  constructor(message: string, errors?: Record<string, string[]>) {
    super(422, message, errors)
  }
}

/**
 * The contract's 429 ("Too Many Attempts.") from a rule a service keeps (the OTP limits), with the
 * headers of every 429: Retry-After and X-RateLimit-Limit/-Remaining/-Reset.
 */
export class TooManyTries extends AppError {
  constructor(
    readonly limit: number,
    readonly retryAfterSeconds: number,
  ) {
    super(429, 'Too Many Attempts.')
  }
}

// --- Validation messages in Laravel's words --------------------------------------------------

interface AjvError {
  keyword: string
  instancePath: string
  params: Record<string, unknown>
  message?: string
}

const pretty = (field: string) => field.replace(/_/g, ' ')

function fieldOf(e: AjvError): string {
  const base = e.instancePath
    .split('/')
    .filter(Boolean)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.')
  if (e.keyword === 'required') {
    const missing = String(e.params.missingProperty)
    return base ? `${base}.${missing}` : missing
  }
  return base || 'body'
}

function messageFor(e: AjvError, field: string, schemaType: unknown): string {
  const f = pretty(field)
  switch (e.keyword) {
    case 'required':
      return `The ${f} field is required.`
    case 'type': {
      const t = String(e.params.type)
      if (t.includes('integer')) return `The ${f} field must be an integer.`
      if (t.includes('number')) return `The ${f} field must be a number.`
      if (t.includes('boolean')) return `The ${f} field must be true or false.`
      if (t.includes('array')) return `The ${f} field must be an array.`
      if (t.includes('object')) return `The ${f} field must be an object.`
      if (t.includes('null') && t.includes('string')) return `The ${f} field must be a string.`
      return `The ${f} field must be a string.`
    }
    case 'minLength':
      return Number(e.params.limit) === 1
        ? `The ${f} field is required.`
        : `The ${f} field must be at least ${e.params.limit} characters.`
    case 'maxLength':
      return `The ${f} field must not be greater than ${e.params.limit} characters.`
    case 'minimum':
    case 'exclusiveMinimum':
      return `The ${f} field must be at least ${e.params.limit}.`
    case 'maximum':
    case 'exclusiveMaximum':
      return `The ${f} field must not be greater than ${e.params.limit}.`
    case 'minItems':
      return `The ${f} field must have at least ${e.params.limit} items.`
    case 'maxItems':
      return `The ${f} field must not have more than ${e.params.limit} items.`
    case 'enum':
    case 'const':
    case 'anyOf':
      return `The selected ${f} is invalid.`
    case 'multipleOf':
      return `The ${f} field must be a multiple of ${e.params.multipleOf}.`
    case 'format': {
      const fmt = String(e.params.format)
      if (fmt === 'money') return `The ${f} field must have at most 2 decimal places.`
      if (fmt === 'email') return `The ${f} field must be a valid email address.`
      if (fmt === 'date' || fmt === 'local-date-time') return `The ${f} field must be a valid date.`
      if (fmt === 'uuid') return `The ${f} field must be a valid UUID.`
      if (fmt === 'uri') return `The ${f} field must be a valid URL.`
      return `The ${f} field format is invalid.`
    }
    case 'pattern':
      if (e.params.pattern === MONEY_TEXT_PATTERN) {
        return `The ${f} field must be an amount of at most ${MONEY_MAX}.00 with at most 2 decimal places.`
      }
      return schemaType === 'time' ? `The ${f} field must match the format H:i.` : `The ${f} field format is invalid.`
    default:
      return `The ${f} field is invalid.`
  }
}

// The `null` branch of a nullable field ("must be null") says nothing useful when the other
// branch said why the value is wrong (sport_id 0: "must be at least 1").
const isNullBranch = (e: AjvError) => e.keyword === 'type' && e.params.type === 'null'

export function validationErrors(list: AjvError[]): Record<string, string[]> {
  const errors: Record<string, string[]> = {}
  const explained = new Set(list.filter((e) => e.keyword !== 'anyOf' && !isNullBranch(e)).map(fieldOf))
  // A field of several types (a money amount: number or text) whose value has one of them but
  // breaks that branch's rule (10.005: more than 2 decimals) is explained by the rule; the other
  // branches' "must be a string" would only mislead.
  const ruleBroken = new Set(list.filter((e) => e.keyword !== 'anyOf' && e.keyword !== 'type').map(fieldOf))
  for (const e of list) {
    // anyOf (a nullable field) reports each branch; one message for the field is enough.
    if (e.keyword === 'anyOf') continue
    const field = fieldOf(e)
    if (isNullBranch(e) && explained.has(field)) continue
    if (e.keyword === 'type' && ruleBroken.has(field)) continue
    const msg = messageFor(e, field, undefined)
    const list = errors[field] ?? []
    if (!list.includes(msg)) list.push(msg)
    errors[field] = list
  }
  if (Object.keys(errors).length === 0 && list.length > 0) {
    const field = fieldOf(list[0])
    errors[field] = [messageFor(list[0], field, undefined)]
  }
  return errors
}

// --- The one place that writes error bodies -------------------------------------------------

/** SQLSTATE class 22, "data exception" (22003 out of range, 22P02 bad text form, 22021 bad byte...). */
const DATA_EXCEPTION = /^22[0-9A-Z]{3}$/

/**
 * Errors the router raises before any route or hook runs (Fastify's `frameworkErrors` option): a
 * path segment that is not valid percent-encoded UTF-8 (`%ED%A0%80`, `%F0%9F`) or longer than
 * any id or slug can be names no resource, so it is the contract's 404 rather than Fastify's own
 * 400/414 bodies.
 */
export function frameworkErrors(err: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  // No route ran, so no token was read: the language is the request's Accept-Language.
  const locale = acceptedLocale(req.headers['accept-language'])
  if (err.code === 'FST_ERR_BAD_URL' || err.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return reply.code(404).send(inLanguage({ message: 'Not found.' }, locale))
  }
  return reply.code(400).send(inLanguage({ message: 'Bad request.' }, locale))
}

/**
 * `pageFallback` answers a request no route serves when it is a page of the web app (src/lib/web.ts)
 * and says so; everything else is the contract's 404.
 */
export function registerErrorHandler(
  app: FastifyInstance,
  pageFallback: (req: FastifyRequest, reply: FastifyReply) => boolean = () => false,
) {
  app.setNotFoundHandler((req, reply) => {
    if (pageFallback(req, reply)) return
    reply.code(404).send(inLanguage({ message: 'Not found.' }, requestLocale(req)))
  })

  app.setErrorHandler((err: FastifyError & { errors?: Record<string, string[]> }, req, reply) => {
    const answer = errorAnswer(err, req, reply)
    return reply.code(answer.status).send(inLanguage(answer.body, requestLocale(req)))
  })
}

interface ErrorBody {
  message: string
  errors?: Record<string, string[]>
}

/**
 * An error body in the language of the request (src/lib/i18n): the contract's English by default,
 * the same shape and keys with every message translated for a Nepali reader.
 */
export function inLanguage(body: ErrorBody, locale: Locale): ErrorBody {
  if (locale === 'en') return body
  const out: ErrorBody = { message: translate(locale, body.message) }
  if (body.errors) {
    out.errors = Object.fromEntries(
      Object.entries(body.errors).map(([field, list]) => [field, list.map((m) => translate(locale, m))]),
    )
  }
  return out
}

/** The status and the contract's (English) body of an error. */
function errorAnswer(
  err: FastifyError & { errors?: Record<string, string[]> },
  req: FastifyRequest,
  reply: FastifyReply,
): { status: number; body: ErrorBody } {
  if (err instanceof AppError) {
    if (err instanceof TooManyTries) {
      const seconds = Math.max(1, Math.ceil(err.retryAfterSeconds))
      reply.header('retry-after', seconds)
      reply.header('x-ratelimit-limit', err.limit)
      reply.header('x-ratelimit-remaining', 0)
      reply.header('x-ratelimit-reset', seconds)
    }
    const body: ErrorBody = { message: err.message }
    if (err.errors) body.errors = err.errors
    return answer(err.statusCode, body)
  }
  if (err.validation) {
    return answer(422, { message: INVALID_MESSAGE, errors: validationErrors(err.validation as unknown as AjvError[]) })
  }
  const status = err.statusCode ?? 500
  if (status === 429) {
    return answer(429, { message: 'Too Many Attempts.' })
  }
  if (status === 413 || err.code === 'FST_REQ_FILE_TOO_LARGE' || err.code === 'FST_FILES_LIMIT') {
    return answer(413, { message: 'The request is too large.' })
  }
  if (err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || (status === 400 && err instanceof SyntaxError)) {
    return answer(400, { message: 'The request body is not valid JSON.' })
  }
  if (err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
    return answer(400, { message: 'The request body is empty but the content type is JSON.' })
  }
  if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return answer(415, { message: 'Unsupported media type.' })
  }
  if (err.code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') {
    return answer(422, { message: INVALID_MESSAGE, errors: { file: ['The request must be multipart/form-data.'] } })
  }
  // PostgreSQL's data-exception class (SQLSTATE 22xxx): a value the database refuses to hold or
  // read (a number beyond bigint, an impossible date, a NUL byte or other text it cannot store).
  // Only client input reaches the database that way, so it is a 422, logged without a stack.
  const sqlState = (err as unknown as { code?: unknown }).code
  if (typeof sqlState === 'string' && DATA_EXCEPTION.test(sqlState)) {
    req.log.info({ sqlState }, 'input refused by the database')
    return answer(422, { message: INVALID_MESSAGE, errors: { input: ['A value is out of range or malformed.'] } })
  }
  if (status >= 400 && status < 500) {
    // Framework 4xx errors carry safe, generic messages.
    return answer(status, { message: err.message })
  }
  req.log.error({ err }, 'unhandled error')
  return answer(500, { message: 'Server Error.' })
}

const answer = (status: number, body: ErrorBody) => ({ status, body })
