import { type TSchema, Type } from 'typebox'
import { isValidDate } from './time.ts'

// Shared TypeBox pieces. Every route declares its request and response shapes with these.

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()])

export const Money = Type.String({ description: 'NPR amount with two decimals, e.g. "250.00"', examples: ['250.00'] })
export const DateTime = Type.String({ description: 'YYYY-MM-DD HH:mm:ss, venue time zone' })
/** An instant with its offset (ISO 8601), for routes outside the contract read by machines elsewhere (webhooks). */
export const DateTimeOffset = Type.String({
  description: 'ISO 8601 on the venue time zone with its offset, e.g. 2026-11-24T15:00:01+05:45',
})
export const DateOnly = Type.String({ description: 'YYYY-MM-DD' })

/**
 * Request date: a real calendar day as YYYY-MM-DD in the years DATE_YEARS. The `date` format is our
 * own (isRequestDate, put over ajv-formats' in both Ajv instances: src/lib/validation.ts): the month
 * and the day of that month, leap years included, so 2027-02-30 and 2027-13-01 are 422 at
 * validation and never reach a service, the database or `new Date` (which would roll 2027-02-30
 * over to March 2); nor does a year the Nepali calendar, Intl or the reports cannot handle (0999).
 */
export const DateInput = Type.String({ format: 'date', description: 'YYYY-MM-DD (years 1900–2200)' })

/** The years a request date may name: wide enough for any booking, report or statement. */
export const DATE_YEARS = { min: 1900, max: 2200 } as const

const REQUEST_DATE = /^(\d{4})-\d{2}-\d{2}$/

/** Whether `s` is a request date: YYYY-MM-DD, a real calendar day, in DATE_YEARS. */
export function isRequestDate(s: string): boolean {
  const m = REQUEST_DATE.exec(s)
  if (m === null) return false
  const year = Number(m[1])
  return year >= DATE_YEARS.min && year <= DATE_YEARS.max && isValidDate(s)
}

const LOCAL_DATE_TIME = /^(\d{4}-\d{2}-\d{2})(?: ([01]\d|2[0-3]):[0-5]\d(?::[0-5]\d)?)?$/

/** Whether `s` is "YYYY-MM-DD" or "YYYY-MM-DD HH:mm[:ss]" naming a real calendar day and time. */
export function isLocalDateTime(s: string): boolean {
  const m = LOCAL_DATE_TIME.exec(s)
  return m !== null && isRequestDate(m[1])
}

/**
 * Whether a JSON number is an amount with at most two decimals: the number nearest to some whole
 * number of paisa. `10.01` is; `10.005` (which `toPaisa` would round to 10.01) and `10.001` are not.
 * Exact where `multipleOf: 0.01` is not (10.01 / 0.01 is 1000.9999999999999 in binary floating point).
 */
export function isMoneyNumber(n: number): boolean {
  return Number.isFinite(n) && Number(n.toFixed(2)) === n
}

/**
 * Formats of our own, given to both Ajv instances (src/lib/validation.ts): `local-date-time` for
 * text, `money` for numbers (a number format applies to numbers only). `date` replaces ajv-formats'
 * own after that plugin is added (validation.ts).
 */
export const customFormats = {
  date: isRequestDate,
  'local-date-time': isLocalDateTime,
  money: { type: 'number' as const, validate: isMoneyNumber },
}

/**
 * What the OpenAPI document says instead of each of our own text formats, whose names no client
 * generator knows: a `pattern` of the same shape (src/lib/openapi.ts). Ajv keeps validating with
 * the format itself (which also refuses days that do not exist, such as 2027-02-30).
 */
export const formatPatterns: Record<'local-date-time', string> = {
  'local-date-time': '^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])( ([01]\\d|2[0-3]):[0-5]\\d(:[0-5]\\d)?)?$',
}

/** What the OpenAPI document says instead of each of our own number formats (src/lib/openapi.ts). */
export const formatKeywords: Record<'money', Record<string, unknown>> = {
  money: { multipleOf: 0.01 },
}

/** Request venue-local date with an optional time: YYYY-MM-DD or YYYY-MM-DD HH:mm[:ss]. */
export const DateTimeInput = Type.String({
  format: 'local-date-time',
  description: 'YYYY-MM-DD or YYYY-MM-DD HH:mm[:ss], venue time',
})
/** Request time of day: HH:mm, 24-hour. */
export const TimeInput = Type.String({ pattern: '^([01]\\d|2[0-3]):[0-5]\\d$', description: 'HH:mm (24-hour)' })
/** Venue hours in requests: HH:mm or HH:mm:ss. */
export const ClockInput = Type.String({
  pattern: '^([01]\\d|2[0-3]):[0-5]\\d(:[0-5]\\d)?$',
  description: 'HH:mm:ss or HH:mm',
})
/** The largest amount any request may carry, NPR (beyond any price, fee or top-up we expect). */
export const MONEY_MAX = 10_000_000
/** The text form of a request's money amount: up to 7 integer digits and 2 decimals, or 10000000.00. */
export const MONEY_TEXT_PATTERN = '^(\\d{1,7}(\\.\\d{1,2})?|10000000(\\.00?)?)$'
/**
 * A money amount in a request, the one definition every money field uses (prices, fees, coupons'
 * values, top-ups, charges, desk payments, refunds): a number or numeric string, at most two
 * decimals, at most MONEY_MAX. More decimals are a 422 on the field at validation, never rounded
 * (`10.005` is not 10.01): the number form by our `money` format (`isMoneyNumber`), the text form by
 * its pattern. The bound keeps 1e21 or 1e308 away from the money converter (`toPaisa`) and bigint
 * columns; the string form spells the same bound (up to 7 integer digits, or 10000000.00).
 */
export const MoneyInput = Type.Union([
  Type.Number({ minimum: 0, maximum: MONEY_MAX, format: 'money' }),
  Type.String({ pattern: MONEY_TEXT_PATTERN }),
])

// The example is an id that exists after `npm run seed` on an empty database (the first venue, court, game…).
export const IdParam = Type.Integer({ minimum: 1, maximum: 9007199254740991, examples: [1] })

/** Names given with named(), read by the OpenAPI document builder (src/lib/openapi.ts). */
export const namedSchemas = new Set<string>()

/**
 * A named resource schema (Booking, Venue, Webhook…): the OpenAPI document lists it once under
 * components.schemas[name] and every route that answers it refers to it with $ref. Validation and
 * serialization see the same schema (the name is only its `title`); only the document changes.
 * One name, one shape: two different schemas with the same name fail the document build.
 */
export function named<T extends TSchema>(name: string, schema: T): T {
  namedSchemas.add(name)
  return { ...schema, title: name }
}

/** The body of every error but a validation failure, and of plain acknowledgements. */
export const Message = named('Message', Type.Object({ message: Type.String() }))
/** A 422 validation failure: `errors` maps each field to its messages. */
export const ValidationError = named(
  'ValidationError',
  Type.Object({
    message: Type.String(),
    errors: Type.Record(Type.String(), Type.Array(Type.String())),
  }),
)

export const PageQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1 })),
  per_page: Type.Optional(Type.Integer({ minimum: 1 })),
})

export const Links = Type.Object({
  first: Nullable(Type.String()),
  last: Nullable(Type.String()),
  prev: Nullable(Type.String()),
  next: Nullable(Type.String()),
})

export const Meta = Type.Object({
  current_page: Type.Integer(),
  from: Nullable(Type.Integer()),
  last_page: Type.Integer(),
  path: Type.String(),
  per_page: Type.Integer(),
  to: Nullable(Type.Integer()),
  total: Type.Integer(),
})

export const Paginated = <T extends TSchema>(item: T) =>
  Type.Object({ data: Type.Array(item), links: Links, meta: Meta })

export const Data = <T extends TSchema>(item: T) => Type.Object({ data: item })

/** A 422 body: validation failures carry `errors`; a refused action (e.g. "already paid") may not. */
export const UnprocessableError = named(
  'UnprocessableError',
  Type.Object({
    message: Type.String(),
    errors: Type.Optional(Type.Record(Type.String(), Type.Array(Type.String()))),
  }),
)

/**
 * 304 of a conditional GET (src/lib/rendered.ts): no body. Listed by the reads that send an ETag, with
 * `conditionalReads` in their description.
 */
export const NotModified = Type.Null({
  description: 'Not Modified: the ETag named in If-None-Match is still current; no body.',
})

/** What a read that answers conditionally says about it, appended to its description. */
export const conditionalReads =
  ' Answers carry an ETag: a request with If-None-Match naming it is answered 304 with no body while ' +
  'the answer is unchanged. A guest answer is `Cache-Control: public, max-age=0, s-maxage=N` (a CDN in ' +
  'front may serve it N seconds; browsers revalidate), a signed-in one `private, no-cache`; both vary by Authorization.'

/** Standard error responses to list in a route's schema.response (for the OpenAPI document). */
export const errorResponses = {
  401: Message,
  403: Message,
  404: Message,
  422: UnprocessableError,
}

/**
 * A string that is one of `values` in a response: the document lists them as an `enum`. The
 * TypeScript type stays `string` (rows carry plain strings) and serialization writes the string
 * as it is, so a value added to the database before the schema can never break a response.
 */
export const Enum = (values: readonly string[], options: { description?: string } = {}) =>
  Type.Unsafe<string>({ type: 'string', enum: [...values], ...options })

/**
 * A named enum (PaymentMethod, BookingStatus…): the document lists its values once, as
 * components.schemas[name], and every field holding one refers to it by $ref, so a generated
 * client has one type for it (docs/openapi.md). Use `response` in response schemas (as Enum: a
 * plain string in TypeScript and in serialization) and `request` in request schemas (a union of
 * literals, validated and typed as before). A field's own description or default is written on
 * the field, `{ ...PaymentMethodEnum.request, description: '…' }`; the document keeps it next to
 * the $ref, not in the component.
 */
export function namedEnum<const V extends readonly string[]>(name: string, values: V) {
  return {
    name,
    values,
    response: named(name, Enum(values)),
    // Typed as the union of the values (TypeBox types a union over a mapped array as never).
    request: named(name, Type.Unsafe<V[number]>(Type.Union(values.map((v) => Type.Literal(v))))),
  }
}

/** Whether money owed was paid: a tournament team's fee, a share of a split booking. */
export const PaidStatusEnum = namedEnum('PaidStatus', ['unpaid', 'paid', 'refunded'])

/** A yes/no query parameter as the contract writes them: 1 or true, 0 or false. */
export const QueryFlagEnum = namedEnum('QueryFlag', ['1', '0', 'true', 'false'])
export const QueryFlag = (description: string) => ({ ...QueryFlagEnum.request, description })

/**
 * A file field of a multipart form: an Upload (src/lib/uploads.ts) checked by content in the
 * service, so validation takes any value. `contentMediaType` is only an annotation for Ajv; the
 * document shows the field as `type: string, format: binary`, and a field named `x[]` as an array
 * of them (src/lib/openapi.ts).
 */
export const FileInput = (description: string) =>
  Type.Unsafe<unknown>({ description, contentMediaType: 'application/octet-stream' })

/** Whether a QueryFlag was sent as on (1 or true). */
export const flagOn = (value: string | undefined) => value === '1' || value === 'true'
