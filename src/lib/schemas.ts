import { type TSchema, Type } from 'typebox'

// Shared TypeBox pieces. Every route declares its request and response shapes with these.

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()])

export const Money = Type.String({ description: 'NPR amount with two decimals, e.g. "250.00"', examples: ['250.00'] })
export const DateTime = Type.String({ description: 'YYYY-MM-DD HH:mm:ss, venue time zone' })
export const DateOnly = Type.String({ description: 'YYYY-MM-DD' })

/** Request date: YYYY-MM-DD (calendar validity is checked in the service). */
export const DateInput = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD' })
/** Request time of day: HH:mm, 24-hour. */
export const TimeInput = Type.String({ pattern: '^([01]\\d|2[0-3]):[0-5]\\d$', description: 'HH:mm (24-hour)' })
/** Venue hours in requests: HH:mm or HH:mm:ss. */
export const ClockInput = Type.String({
  pattern: '^([01]\\d|2[0-3]):[0-5]\\d(:[0-5]\\d)?$',
  description: 'HH:mm:ss or HH:mm',
})
/** A money amount in a request: a number or numeric string, at most two decimals. */
export const MoneyInput = Type.Union([Type.Number({ minimum: 0 }), Type.String({ pattern: '^\\d+(\\.\\d{1,2})?$' })])

export const IdParam = Type.Integer({ minimum: 1, maximum: 9007199254740991 })

export const Message = Type.Object({ message: Type.String() })
export const ValidationError = Type.Object({
  message: Type.String(),
  errors: Type.Record(Type.String(), Type.Array(Type.String())),
})

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
export const UnprocessableError = Type.Object({
  message: Type.String(),
  errors: Type.Optional(Type.Record(Type.String(), Type.Array(Type.String()))),
})

/** Standard error responses to list in a route's schema.response (for the OpenAPI document). */
export const errorResponses = {
  401: Message,
  403: Message,
  404: Message,
  422: UnprocessableError,
}
