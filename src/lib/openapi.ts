import type { FastifyDynamicSwaggerOptions, SwaggerTransform } from '@fastify/swagger'
import type { TSchema } from 'typebox'
import type { Config } from '../config.ts'
import type { Clock } from './clock.ts'
import { DEMO_PASSWORD, DEMO_USERS, DEMO_VENUES } from './demo-data.ts'
import { formatKeywords, formatPatterns, Message, namedSchemas, ValidationError } from './schemas.ts'
import { addDays } from './time.ts'
import type { Zone } from './zone.ts'

// The OpenAPI document of /docs/json (docs/openapi.md). Routes declare operationId, summary, tags,
// security and their own statuses; this file adds what is the same for every route:
// - schemas marked with named() are listed once under components.schemas and referred to by $ref
//   (validation and serialization keep using the inline schema; only the document changes);
// - named enums (namedEnum) the same way, a field's own description or default next to its $ref;
// - statuses that apply to every route of a kind (429, and 400/413/415 for routes with a body,
//   422 for routes with input) as $refs to components.responses, with the bodies errors.ts sends;
//   401 only where a token is required, 422 only where there is input;
// - unions of single literals become one `enum`;
// - what generators cannot read is said the way they can: maps as additionalProperties, our own
//   formats as patterns, file fields of multipart forms as binary strings (listed once each);
// - tags with descriptions, response descriptions, and examples taken from the demo data.

type Json = Record<string, unknown>
type Operation = {
  operationId?: string
  parameters?: Json[]
  requestBody?: { content?: Record<string, Json> }
  responses?: Record<string, Json>
  security?: unknown[]
  [key: string]: unknown
}

export const TAGS: { name: string; description: string }[] = [
  { name: 'Authentication', description: 'Sign-up, sign-in (password, OTP, identity providers), device tokens.' },
  { name: 'Profile', description: 'The signed-in user’s own name, phone, password and avatar.' },
  { name: 'Notifications', description: 'The in-app inbox and push-notification device tokens.' },
  { name: 'Venues', description: 'The public venue catalogue: search, nearby venues, one venue.' },
  { name: 'Venue management', description: 'Owners and managers create and edit their venues and photos.' },
  { name: 'Venue verification', description: 'An owner asks for verification; a super_admin approves or rejects.' },
  { name: 'Venue staff', description: 'Managers and staff assigned to a venue by its owner.' },
  { name: 'Venue holidays', description: 'Dates on which a venue’s holiday pricing rules apply.' },
  { name: 'Catalogues', description: 'Amenities and sports, public lists and their super_admin management.' },
  { name: 'Courts', description: 'Courts of a venue with their weekly schedules, pricing rules and blocks.' },
  { name: 'Indoor games', description: 'Indoor game stations (PlayStation, carrom, table tennis…) of a venue.' },
  { name: 'Bookings', description: 'A customer’s court bookings: book a slot, list, cancel.' },
  {
    name: 'Split payment',
    description:
      'A pending booking split into equal shares, each paid through its own link; the organizer settles the rest.',
  },
  {
    name: 'Matches',
    description:
      'Open matches: a booking opened to other players, one share each; join, leave, results and levels per sport.',
  },
  {
    name: 'Bookings (venue staff)',
    description:
      'Court bookings at the desk: list a venue’s bookings, book walk-ins, move states, charge, take payment.',
  },
  {
    name: 'Waitlist',
    description: 'Waiting for a taken court slot: when it frees, the first in line is offered it for a few minutes.',
  },
  {
    name: 'Calendar',
    description:
      'Secret iCalendar (RFC 5545) feed URLs of a customer’s or a venue’s bookings, and the feeds themselves.',
  },
  {
    name: 'Front desk',
    description:
      'The staff console’s day board of a venue (every court and game’s slots, bookings, blocks, totals) and its live change events.',
  },
  { name: 'Indoor game bookings', description: 'Bookings of indoor game stations, by customers and at the desk.' },
  { name: 'Payments', description: 'Paying for bookings by wallet, cash or a gateway; gateway callbacks; refunds.' },
  { name: 'Wallet', description: 'The customer wallet: balance, ledger and top-ups through a gateway.' },
  { name: 'Coupons', description: 'Discount coupons of a venue or of the whole platform.' },
  { name: 'Reviews', description: 'Venue reviews, replies by venue staff and approval.' },
  { name: 'Tournaments', description: 'Tournaments at a venue: teams, fixtures, results and standings.' },
  {
    name: 'Webhooks',
    description:
      'Signed (Standard Webhooks) event deliveries to a venue’s own systems: endpoints, events, delivery attempts.',
  },
  {
    name: 'Ledger',
    description: 'The double-entry ledger of every movement of money: the trial balance (super_admin).',
  },
  {
    name: 'Payouts',
    description:
      'What a venue is owed and how it was paid: commission rates, statements (JSON or CSV), payouts and payout details.',
  },
  {
    name: 'Receipts',
    description:
      'Receipts and credit notes of booking payments, numbered per venue and Nepali fiscal year, with VAT when the venue is registered; JSON or PDF.',
  },
  {
    name: 'Reports',
    description:
      'A venue’s business over a range of days (bookings, revenue agreeing with the ledger, occupancy, customers), CSV exports, and the desk’s daily cash-up.',
  },
  { name: 'Platform administration', description: 'Users and roles, and payments to look into, for super_admin.' },
  { name: 'Operations', description: 'Liveness and readiness probes (not rate-limited).' },
]

/** Error bodies written by src/lib/errors.ts, as listed in components.schemas. */
const ERROR_BODIES = { Message, ValidationError }
const MESSAGE_REF = { $ref: '#/components/schemas/Message' }
const VALIDATION_REF = { $ref: '#/components/schemas/ValidationError' }

const jsonBody = (description: string, schema: Json, example: Json) => ({
  description,
  content: { 'application/json': { schema, example } },
})

/** Statuses that apply to whole kinds of routes, answered by the error handler (src/lib/errors.ts). */
export const COMMON_RESPONSES: Record<string, Json> = {
  BadRequest: jsonBody('The body is not valid JSON, or is empty with a JSON content type.', MESSAGE_REF, {
    message: 'The request body is not valid JSON.',
  }),
  PayloadTooLarge: jsonBody('The body is larger than the route accepts (1 MB for JSON).', MESSAGE_REF, {
    message: 'The request is too large.',
  }),
  UnsupportedMediaType: jsonBody('The route does not read bodies of this content type.', MESSAGE_REF, {
    message: 'Unsupported media type.',
  }),
  ValidationFailed: jsonBody('A parameter or body field is invalid; `errors` names each field.', VALIDATION_REF, {
    message: 'The given data was invalid.',
    errors: { date: ['The date field must be a valid date.'] },
  }),
  TooManyRequests: {
    ...jsonBody('Rate limit reached (60 requests a minute unless the route says otherwise).', MESSAGE_REF, {
      message: 'Too Many Attempts.',
    }),
    headers: {
      'retry-after': { description: 'Seconds until the limit resets.', schema: { type: 'integer' } },
    },
  },
}

const STATUS_TEXT: Record<string, string> = {
  '200': 'OK',
  '201': 'Created',
  '302': 'Redirect to the return_url given at initiation.',
  '400': 'Bad request.',
  '401': 'Not signed in: no bearer token, or an unknown, expired or revoked one.',
  '403': 'Signed in, but this action is not allowed for the caller.',
  '404': 'No such resource, or not visible to the caller.',
  '409': 'Conflicts with the current state of the resource.',
  '413': 'The request is too large.',
  '422': 'A field is invalid (`errors` names each), or the action is refused in this state.',
  '429': 'Rate limit reached.',
  '502': 'An upstream service (payment gateway or identity provider) failed.',
  '503': 'Not available now.',
}

/** Paths the rate limiter never counts (src/lib/rate-limit.ts, FREE_PATH). */
const NOT_RATE_LIMITED = /^\/(health|ready|metrics|docs)(\/|$)/
const BODY_METHODS = new Set(['post', 'put', 'patch'])

/** Examples from the demo data (src/lib/demo-data.ts), as ids are after `npm run seed` on an empty database. */
function demoExamples(clock: Clock, zone: Zone) {
  const venue = DEMO_VENUES[0]
  const court = venue.courts[0]
  const tomorrow = addDays(zone.today(clock.now()), 1)
  // 18:00–19:00 lies on Court A's 60-minute grid every day (06:00–21:00, Saturdays 07:00–22:00).
  const slot = { start_time: '18:00', end_time: '19:00' }
  if (court.slot_minutes !== 60 || venue.opening_time > '18:00' || venue.closing_time < '19:00') {
    throw new Error('The demo court no longer has the 18:00–19:00 slot the OpenAPI examples use')
  }
  const customer = DEMO_USERS.find((u) => u.role === 'customer')
  if (!customer) throw new Error('The demo data has no customer for the OpenAPI examples')
  const pathParams: Record<string, unknown> = { venue: venue.slug, court: 1, indoorGame: 1, tournament: 1 }
  const queryParams: Record<string, unknown> = { date: tomorrow }
  const bodies: Record<string, Json> = {
    createBooking: { court_id: 1, date: tomorrow, ...slot, payment_method: 'cash' },
    createDeskBooking: { court_id: 1, date: tomorrow, ...slot, type: 'walkin', customer_name: customer.name },
    createIndoorGameBooking: { indoor_game_id: 1, date: tomorrow, ...slot, players_count: 2 },
    login: { email: customer.email, password: DEMO_PASSWORD, device_name: 'Pixel 8' },
    // A team for the demo tournament (tournament 1), captained by the demo customer.
    registerTeam: { name: 'Koteshwor United', captain_name: customer.name, contact_phone: customer.phone },
  }
  return { pathParams, queryParams, bodies }
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)

/** `anyOf: [{type: 'string', enum: ['a']}, {type: 'string', enum: ['b']}]` → `{type: 'string', enum: ['a', 'b']}`. */
function collapseLiterals(node: Json): Json {
  const anyOf = node.anyOf
  if (!Array.isArray(anyOf) || anyOf.length < 2) return node
  const literal = (s: unknown) =>
    isObject(s) &&
    Object.keys(s).every((k) => k === 'type' || k === 'enum') &&
    Array.isArray(s.enum) &&
    s.enum.length === 1 &&
    typeof s.type === 'string'
  if (!anyOf.every(literal)) return node
  const types = new Set(anyOf.map((s) => (s as Json).type))
  if (types.size !== 1) return node
  const { anyOf: _, ...rest } = node
  return { type: [...types][0], enum: anyOf.map((s) => ((s as Json).enum as unknown[])[0]), ...rest }
}

/** TypeBox's Record of string keys: `patternProperties` with one catch-all pattern. */
const ANY_KEY = new Set(['^.*$', '^(.*)$', '^(.*)'])

/**
 * A schema as the document shows it, where validation reads something generators do not:
 * - a map (`Type.Record`, `patternProperties: {'^.*$': X}`) is `additionalProperties: X`, so a
 *   generated client types it as a map (Ajv and the serializer keep the pattern; same meaning);
 * - our own formats (`local-date-time`) are a `pattern` of the same shape (formatPatterns), and
 *   our number format `money` is `multipleOf: 0.01` (formatKeywords);
 * - a file field of a multipart form (FileInput) is `type: string, format: binary`.
 */
function documented(node: Json): Json {
  const patterns = node.patternProperties
  if (isObject(patterns) && node.additionalProperties === undefined) {
    const keys = Object.keys(patterns)
    if (keys.length === 1 && ANY_KEY.has(keys[0])) {
      const { patternProperties: _, ...rest } = node
      return { ...rest, additionalProperties: patterns[keys[0]] }
    }
  }
  if (typeof node.format === 'string' && node.format in formatPatterns) {
    const { format, ...rest } = node
    return { ...rest, pattern: formatPatterns[format as keyof typeof formatPatterns] }
  }
  if (typeof node.format === 'string' && node.format in formatKeywords) {
    const { format, ...rest } = node
    return { ...rest, ...formatKeywords[format as keyof typeof formatKeywords] }
  }
  if (node.contentMediaType === 'application/octet-stream' && node.type === undefined) {
    const { contentMediaType: _, ...rest } = node
    return { type: 'string', format: 'binary', ...rest }
  }
  return node
}

/** Keywords that say something about one field, not about a named enum's values. */
const FIELD_ANNOTATIONS = ['description', 'default', 'examples', 'deprecated', 'readOnly', 'writeOnly']

/** JSON with the keys of every object sorted: equal schemas compare equal whatever their key order. */
function canonical(node: unknown): string {
  if (Array.isArray(node)) return `[${node.map(canonical).join(',')}]`
  if (!isObject(node)) return JSON.stringify(node)
  const keys = Object.keys(node).sort()
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(node[k])}`).join(',')}}`
}

/**
 * Replaces every schema marked by named() with a $ref to components.schemas[name] (deepest first,
 * so a Booking inside a Payment is a $ref inside the Payment component). Two different schemas
 * under one name are an error: the document must not pick one of them silently. A named enum's
 * component is its values; the description or default of the field that holds it stays on the
 * field, next to the $ref (OpenAPI 3.1 allows keywords beside a $ref).
 */
function hoist(node: unknown, components: Record<string, Json>, names: ReadonlySet<string>): unknown {
  if (Array.isArray(node)) return node.map((n) => hoist(n, components, names))
  if (!isObject(node)) return node
  let copy: Json = {}
  for (const [k, v] of Object.entries(node)) copy[k] = k === 'example' ? v : hoist(v, components, names)
  copy = documented(collapseLiterals(copy))
  const name = copy.title
  if (typeof name !== 'string' || !names.has(name)) return copy
  const onField: Json = {}
  if (Array.isArray(copy.enum)) {
    for (const k of FIELD_ANNOTATIONS) {
      if (k in copy) onField[k] = copy[k]
      delete copy[k]
    }
  }
  const existing = components[name]
  if (existing && canonical(existing) !== canonical(copy)) {
    throw new Error(`OpenAPI: two different schemas are named "${name}" (named() in src/lib/schemas.ts)`)
  }
  components[name] ??= copy
  return { $ref: `#/components/schemas/${name}`, ...onField }
}

/**
 * File fields of request bodies (already `format: binary`, see documented()). In a multipart form a
 * field named `x[]` takes several files (the part repeated), so it is an array of them; the server
 * also reads `x` for it, which the document leaves out so that each field is listed once. A JSON
 * body cannot carry files, so its schema lists none.
 */
function documentFiles(op: Operation) {
  const content = op.requestBody?.content
  if (!content) return
  for (const [type, media] of Object.entries(content)) {
    const schema = media.schema
    if (!isObject(schema) || !isObject(schema.properties)) continue
    const props = schema.properties as Record<string, Json>
    const isFile = (key: string) => isObject(props[key]) && props[key].format === 'binary'
    const files = Object.keys(props).filter(isFile)
    if (files.length === 0) continue
    const drop = new Set(type === 'multipart/form-data' ? files.filter((f) => isFile(`${f}[]`)) : files)
    const properties: Record<string, Json> = {}
    for (const [key, prop] of Object.entries(props)) {
      if (drop.has(key)) continue
      if (!key.endsWith('[]') || !isFile(key)) {
        properties[key] = prop
        continue
      }
      const { description, ...file } = prop
      const alias = key.slice(0, -2)
      const said = typeof description === 'string' ? [description.replace(/([^.])$/, '$1.')] : []
      const also = drop.has(alias) ? [`Also accepted as \`${alias}\`.`] : []
      const text = [...said, ...also].join(' ')
      properties[key] = { type: 'array', items: file, ...(text ? { description: text } : {}) }
    }
    const required = Array.isArray(schema.required) ? schema.required.filter((r) => !drop.has(String(r))) : undefined
    media.schema = { ...schema, properties, ...(required ? { required } : {}) }
  }
}

function addCommonResponses(path: string, method: string, op: Operation) {
  const responses = op.responses ?? {}
  op.responses = responses
  const add = (status: string, name: string) => {
    if (!responses[status]) responses[status] = { $ref: `#/components/responses/${name}` }
  }
  const hasInput = (op.parameters?.length ?? 0) > 0 || op.requestBody !== undefined
  if (BODY_METHODS.has(method)) {
    add('400', 'BadRequest')
    add('413', 'PayloadTooLarge')
    add('415', 'UnsupportedMediaType')
  }
  // Routes spread errorResponses (401, 403, 404, 422) whatever they take; a public route never
  // refuses a missing token (auth.optional only identifies), and one without parameters or a body
  // has nothing to be invalid.
  if (Array.isArray(op.security) && op.security.length === 0) delete responses['401']
  if (hasInput) add('422', 'ValidationFailed')
  else delete responses['422']
  if (!NOT_RATE_LIMITED.test(path)) add('429', 'TooManyRequests')
  for (const [status, response] of Object.entries(responses)) {
    if (response.description === 'Default Response' || response.description === undefined) {
      if (response.$ref === undefined) response.description = STATUS_TEXT[status] ?? 'Response'
    }
  }
}

function addExamples(op: Operation, examples: ReturnType<typeof demoExamples>) {
  for (const p of op.parameters ?? []) {
    const table = p.in === 'path' ? examples.pathParams : p.in === 'query' ? examples.queryParams : {}
    const name = String(p.name)
    if (!(name in table)) continue
    // A path id is declared as a string (a slug is accepted in its place) or as an integer.
    const type = isObject(p.schema) ? p.schema.type : undefined
    p.example = type === 'string' ? String(table[name]) : table[name]
  }
  const body = op.operationId ? examples.bodies[op.operationId] : undefined
  const media = op.requestBody?.content?.['application/json']
  if (body && media) media.example = body
}

/**
 * Route config for a route whose document shows other path parameters than validation reads,
 * `config: documentedParams(P)`: a parameter the route refuses itself (an unknown identity provider
 * is the service's 404, not a validation 422) can still be an enum in the document.
 */
export function documentedParams(params: TSchema): { swaggerTransform: SwaggerTransform } {
  return { swaggerTransform: ({ schema, url }) => ({ schema: { ...schema, params }, url }) }
}

export interface DocumentContext {
  config: Config
  clock: Clock
  zone: Zone
}

/** Options of @fastify/swagger for the app's document. */
export function openapiOptions({ config, clock, zone }: DocumentContext): FastifyDynamicSwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Courtside API',
        version: '1.0.0',
        description:
          'Booking service for sports venues. Money is NPR as two-decimal strings; times are venue-local ' +
          `(${config.timezone}). Examples use the demo data of \`npm run seed\` on an empty database. ` +
          'Error messages (`message`, `errors`) are in English; with `Accept-Language: ne`, or the token of a ' +
          'user whose `locale` is "ne", they are in Nepali with the same shape and keys (docs/languages.md).',
      },
      servers: [{ url: config.appUrl }],
      tags: TAGS,
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    transformObject: (input) => {
      // The app's document is OpenAPI 3.1 (`openapi` above); a Swagger 2 one is never asked for.
      if (!('openapiObject' in input)) return input.swaggerObject
      const doc: Json = input.openapiObject
      const components = isObject(doc.components) ? doc.components : {}
      const schemas: Record<string, Json> = isObject(components.schemas)
        ? (components.schemas as Record<string, Json>)
        : {}
      const paths = hoist(doc.paths, schemas, namedSchemas) as Record<string, Record<string, Operation>>
      // The error bodies of components.responses, when no route happened to answer them inline.
      for (const schema of Object.values(ERROR_BODIES)) hoist(JSON.parse(JSON.stringify(schema)), schemas, namedSchemas)
      const examples = demoExamples(clock, zone)
      for (const [path, item] of Object.entries(paths)) {
        for (const [method, op] of Object.entries(item)) {
          documentFiles(op)
          addCommonResponses(path, method, op)
          addExamples(op, examples)
        }
      }
      const sorted = Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b)))
      // Object.assign keeps the input's document type for what is not replaced (`paths` and
      // `components` are built as plain JSON here).
      return Object.assign({}, input.openapiObject, {
        paths,
        components: { ...components, schemas: sorted, responses: COMMON_RESPONSES },
      })
    },
  }
}
