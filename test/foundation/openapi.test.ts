import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { Type } from 'typebox'
import type { App } from '../../src/app.ts'
import { DEMO_VENUES } from '../../src/cli/seed-data.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { openapiOptions } from '../../src/lib/openapi.ts'
import { formatPatterns, isLocalDateTime, named } from '../../src/lib/schemas.ts'
import { build } from '../helpers/app.ts'

// The OpenAPI document of /docs/json is one a client generator can use (docs/openapi.md): every
// operation is named, described, tagged and declares its security; every status a route can
// answer is documented with its body; resources are named components; examples are real.
// A route added without one of these fails here, named by method and path.

// biome-ignore lint/suspicious/noExplicitAny: OpenAPI objects are open-ended JSON.
type Json = Record<string, any>
let app: App
let doc: Json
// 2026-11-24 10:00 in Kathmandu: "tomorrow" in the examples is 2026-11-25.
const clock = new ManualClock('2026-11-24T04:15:00Z')

before(async () => {
  app = await build(undefined, {}, { clock })
  doc = (await app.inject({ method: 'GET', url: '/docs/json' })).json()
})
after(() => app.close())

function operations(): { name: string; method: string; path: string; op: Json }[] {
  const list = []
  for (const [path, item] of Object.entries(doc.paths as Json)) {
    for (const [method, op] of Object.entries(item as Json))
      list.push({ name: `${method.toUpperCase()} ${path}`, method, path, op })
  }
  return list
}

function resolve(node: Json): Json {
  if (typeof node?.$ref !== 'string') return node
  const parts = node.$ref.replace(/^#\//, '').split('/')
  let at: Json | undefined = doc
  for (const p of parts) at = at?.[p]
  assert.ok(at, `unresolved ${node.$ref}`)
  return resolve(at)
}

const PROBES = new Set(['GET /health', 'GET /ready'])

test('every operation has a unique camelCase operationId, a summary, known tags and a security declaration', () => {
  const ops = operations()
  assert.ok(ops.length > 100, `only ${ops.length} operations`)
  const tagNames = new Map((doc.tags as Json[]).map((t) => [t.name, t.description]))
  const problems: string[] = []
  const seen = new Map<string, string>()
  for (const { name, op } of ops) {
    if (typeof op.operationId !== 'string' || !/^[a-z][a-zA-Z0-9]*$/.test(op.operationId)) {
      problems.push(`${name}: operationId ${JSON.stringify(op.operationId)} is missing or not camelCase`)
    } else if (seen.has(op.operationId)) {
      problems.push(`${name}: operationId ${op.operationId} is also used by ${seen.get(op.operationId)}`)
    } else seen.set(op.operationId, name)
    if (typeof op.summary !== 'string' || op.summary.trim() === '') problems.push(`${name}: no summary`)
    if (!Array.isArray(op.tags) || op.tags.length === 0) problems.push(`${name}: no tags`)
    for (const tag of op.tags ?? [])
      if (!tagNames.get(tag)) problems.push(`${name}: tag "${tag}" has no description in TAGS (src/lib/openapi.ts)`)
    if (!Array.isArray(op.security))
      problems.push(`${name}: no security (security: [] for a public route, [{ bearer: [] }] otherwise)`)
    else if (op.security.length > 0 && !op.responses?.['401'])
      problems.push(`${name}: signed-in route without a 401 response`)
  }
  assert.deepEqual(problems, [])
})

test('every operation documents the statuses every route of its kind can answer, each with a JSON error body', () => {
  const problems: string[] = []
  for (const { name, method, op } of operations()) {
    const statuses = Object.keys(op.responses ?? {})
    const need: string[] = []
    if (!PROBES.has(name)) need.push('429')
    if (['post', 'put', 'patch'].includes(method)) need.push('400', '413', '415')
    if ((op.parameters?.length ?? 0) > 0 || op.requestBody) need.push('422')
    // A path names a resource that may not exist; a signed-in route may refuse the caller.
    if ((op.parameters ?? []).some((p: Json) => p.in === 'path')) need.push('404')
    if (op.security?.length > 0) need.push('403')
    for (const s of need) if (!statuses.includes(s)) problems.push(`${name}: no ${s} response`)
    for (const s of statuses) {
      const response = resolve(op.responses[s])
      if (typeof response.description !== 'string' || response.description === 'Default Response') {
        problems.push(`${name} ${s}: no description`)
      }
      if (Number(s) < 400) continue
      const schema = response.content?.['application/json']?.schema
      if (!schema) {
        problems.push(`${name} ${s}: no JSON body`)
        continue
      }
      const body = resolve(schema)
      if (body.properties?.message?.type !== 'string' || !body.required?.includes('message')) {
        problems.push(`${name} ${s}: the body is not an error body with a message`)
      }
    }
  }
  assert.deepEqual(problems, [])
})

test('resources are named components referred to by $ref, every $ref resolves, and values of a kind are enums', () => {
  const schemas = doc.components.schemas as Json
  for (const name of [
    'User',
    'Venue',
    'Court',
    'Booking',
    'IndoorGameBooking',
    'Review',
    'WalletTransaction',
    'Tournament',
    'Fixture',
    'Standing',
    'Notification',
    'Payment',
    'Message',
    'ValidationError',
  ]) {
    assert.ok(schemas[name], `components.schemas.${name}`)
  }
  const text = JSON.stringify(doc.paths)
  assert.match(text, /"#\/components\/schemas\/Booking"/)
  const inline: string[] = []
  const refs = new Set<string>()
  const walk = (node: unknown, where: string) => {
    if (Array.isArray(node)) {
      for (const [i, n] of node.entries()) walk(n, `${where}/${i}`)
      return
    }
    if (typeof node !== 'object' || node === null) return
    const o = node as Json
    if (typeof o.$ref === 'string') refs.add(o.$ref)
    if (typeof o.title === 'string' && schemas[o.title] && !where.startsWith('#/components/schemas/'))
      inline.push(where)
    for (const [k, v] of Object.entries(o)) walk(v, `${where}/${k}`)
  }
  walk(doc.paths, '#/paths')
  walk(doc.components, '#/components')
  assert.deepEqual(inline, [], 'a named schema is inlined instead of referred to')
  for (const ref of refs) resolve({ $ref: ref })

  assert.deepEqual(resolve(schemas.Booking.properties.status).enum, [
    'pending',
    'confirmed',
    'playing',
    'completed',
    'cancelled',
    'no_show',
  ])
  assert.deepEqual(resolve(schemas.Payment.properties.method).enum, [
    'gateway_1',
    'gateway_2',
    'gateway_3',
    'wallet',
    'cash',
  ])
  assert.deepEqual(resolve(schemas.StaffMember.properties.role).enum, ['manager', 'staff'])
  assert.deepEqual(schemas.WalletTransaction.properties.type.enum, ['topup', 'debit', 'credit'])

  // One path parameter name per position: /api/venues/{venue} and /api/venues/{slug} would be two paths.
  const shapes = new Map<string, string>()
  for (const path of Object.keys(doc.paths)) {
    const shape = path.replace(/\{[^}]+\}/g, '{}')
    assert.ok(!shapes.has(shape), `${path} and ${shapes.get(shape)} differ only by parameter names`)
    shapes.set(shape, path)
  }
})

test('examples come from the demo data: a real court, tomorrow in the venue zone, a range on its grid', () => {
  const create = doc.paths['/api/bookings'].post
  const example = create.requestBody.content['application/json'].example
  const court = DEMO_VENUES[0].courts[0]
  assert.deepEqual(example, {
    court_id: 1,
    date: '2026-11-25',
    start_time: '18:00',
    end_time: '19:00',
    payment_method: 'cash',
  })
  const [h1, m1] = example.start_time.split(':').map(Number)
  const [h2, m2] = example.end_time.split(':').map(Number)
  assert.equal(h2 * 60 + m2 - (h1 * 60 + m1), court.slot_minutes)
  assert.ok(example.start_time >= DEMO_VENUES[0].opening_time && example.end_time <= DEMO_VENUES[0].closing_time)

  const availability = doc.paths['/api/courts/{court}/availability'].get.parameters as Json[]
  assert.equal(availability.find((p) => p.name === 'date')?.example, '2026-11-25')
  assert.equal(availability.find((p) => p.name === 'court')?.example, '1')
  const venue = doc.paths['/api/venues/{venue}'].get.parameters as Json[]
  assert.equal(venue.find((p) => p.name === 'venue')?.example, DEMO_VENUES[0].slug)
  // No generated placeholder survives: no id at 2^53 - 1 and no impossible date as an example.
  const examples = JSON.stringify(doc).match(/"example":("[^"]*"|\d+)/g) ?? []
  for (const e of examples) assert.doesNotMatch(e, /9007199254740991|"\d{4}-(1[3-9]|[2-9]\d)-/)
})

test('two different schemas under one name fail the document build instead of picking one', () => {
  const options = openapiOptions({ config: app.ctx.config, clock, zone: app.ctx.zone })
  const a = named('ClashTest', Type.Object({ id: Type.Integer() }))
  const b = named('ClashTest', Type.Object({ id: Type.String() }))
  const response = (schema: unknown) => ({ 200: { description: 'OK', content: { 'application/json': { schema } } } })
  const openapiObject = {
    openapi: '3.1.0',
    components: {},
    paths: {
      '/a': { get: { operationId: 'a', responses: response(JSON.parse(JSON.stringify(a))) } },
      '/b': { get: { operationId: 'b', responses: response(JSON.parse(JSON.stringify(b))) } },
    },
  }
  assert.throws(
    () => options.transformObject?.({ openapiObject } as never),
    /two different schemas are named "ClashTest"/,
  )
})

// What a generator no one here wrote needs (docs/openapi.md, "Generated clients"; CI also runs
// @hey-api/openapi-ts and orval on the document with `npm run check:clients`).

/** Every schema node of the document with its JSON pointer (examples left out). */
function schemaNodes(): { where: string; node: Json }[] {
  const found: { where: string; node: Json }[] = []
  const walk = (node: unknown, where: string) => {
    if (Array.isArray(node)) {
      for (const [i, n] of node.entries()) walk(n, `${where}/${i}`)
      return
    }
    if (typeof node !== 'object' || node === null) return
    found.push({ where, node: node as Json })
    for (const [k, v] of Object.entries(node)) if (k !== 'example' && k !== 'examples') walk(v, `${where}/${k}`)
  }
  walk(doc, '#')
  return found
}

const refTo = (name: string) => `#/components/schemas/${name}`
/** The $ref of a field, looking through a nullable anyOf. */
function refOf(field: Json | undefined): string | undefined {
  if (typeof field?.$ref === 'string') return field.$ref
  return (field?.anyOf as Json[] | undefined)?.find((s) => typeof s.$ref === 'string')?.$ref
}

test('shared enums are named components, referred to by $ref wherever a field holds one', () => {
  const schemas = doc.components.schemas as Json
  const enums: Record<string, string[]> = {
    BookingStatus: ['pending', 'confirmed', 'playing', 'completed', 'cancelled', 'no_show'],
    BookingType: ['online', 'offline', 'walkin'],
    PaymentMethod: ['gateway_1', 'gateway_2', 'gateway_3', 'wallet', 'cash'],
    PaymentStatus: ['initiated', 'completed', 'failed', 'refunded', 'partially_refunded'],
    CouponType: ['percent', 'fixed'],
    DeskBookingType: ['offline', 'walkin'],
    DeskPaymentMethod: ['cash', 'gateway_1', 'gateway_2', 'gateway_3'],
    BookingStatusChange: ['playing', 'completed', 'no_show', 'cancelled'],
    BookingKind: ['court', 'indoor'],
    BoardKind: ['court', 'indoor_game'],
    IndoorGameType: ['playstation', 'chess', 'ludo', 'cards', 'uno', 'table_tennis', 'carrom', 'other'],
    SocialProvider: ['provider_1', 'provider_2', 'provider_3'],
    UserRole: ['customer', 'venue_owner', 'manager', 'staff', 'super_admin'],
    WebhookEvent: (schemas.WebhookEvent?.enum as string[]) ?? [],
  }
  for (const [name, values] of Object.entries(enums)) {
    assert.deepEqual(schemas[name]?.enum, values, `components.schemas.${name}`)
    assert.equal(schemas[name].description, undefined, `${name}: a field's description belongs to the field`)
  }

  const uses: [string, Json | undefined, string][] = [
    ['Booking.status', schemas.Booking.properties.status, 'BookingStatus'],
    ['Booking.type', schemas.Booking.properties.type, 'BookingType'],
    ['Booking.payment_method', schemas.Booking.properties.payment_method, 'PaymentMethod'],
    ['BookingSeries.type', schemas.BookingSeries.properties.type, 'BookingType'],
    ['IndoorGameBooking.status', schemas.IndoorGameBooking.properties.status, 'BookingStatus'],
    ['IndoorGameBooking.type', schemas.IndoorGameBooking.properties.type, 'BookingType'],
    ['BookingPayment.method', schemas.BookingPayment.properties.method, 'PaymentMethod'],
    ['BookingPayment.status', schemas.BookingPayment.properties.status, 'PaymentStatus'],
    ['Payment.method', schemas.Payment.properties.method, 'PaymentMethod'],
    ['Payment.status', schemas.Payment.properties.status, 'PaymentStatus'],
    ['Coupon.type', schemas.Coupon.properties.type, 'CouponType'],
    ['CouponUsage.type', schemas.CouponUsage.properties.type, 'CouponType'],
    ['BoardBooking.status', schemas.BoardBooking.properties.status, 'BookingStatus'],
    ['BoardBooking.booking_type', schemas.BoardBooking.properties.booking_type, 'BookingType'],
    ['BoardBooking.payment_method', schemas.BoardBooking.properties.payment_method, 'PaymentMethod'],
    ['BoardBooking.kind', schemas.BoardBooking.properties.kind, 'BoardKind'],
    ['BoardColumn.kind', schemas.BoardColumn.properties.kind, 'BoardKind'],
    ['User.roles[]', schemas.User.properties.roles.items, 'UserRole'],
  ]
  const body = (path: string, method: string) =>
    doc.paths[path][method].requestBody.content['application/json'].schema.properties as Json
  const param = (path: string, name: string) =>
    (doc.paths[path].get.parameters as Json[]).find((p) => p.name === name)?.schema
  uses.push(
    ['createBooking payment_method', body('/api/bookings', 'post').payment_method, 'PaymentMethod'],
    ['createDeskBooking type', body('/api/venues/{venue}/bookings', 'post').type, 'DeskBookingType'],
    ['initiatePayment method', body('/api/payments/initiate', 'post').method, 'PaymentMethod'],
    ['initiatePayment booking_type', body('/api/payments/initiate', 'post').booking_type, 'BookingKind'],
    ['createCoupon type', body('/api/venues/{venue}/coupons', 'post').type, 'CouponType'],
    ['listBookings ?status', param('/api/bookings', 'status'), 'BookingStatus'],
    ['getSocialRedirect {provider}', param('/api/auth/social/{provider}', 'provider'), 'SocialProvider'],
  )
  for (const [field, schema, name] of uses) assert.equal(refOf(schema), refTo(name), field)
  // A field's own description or default stays on the field, beside the $ref.
  assert.deepEqual(body('/api/payments/initiate', 'post').booking_type, {
    $ref: refTo('BookingKind'),
    default: 'court',
  })
  assert.match(String(schemas.BoardBooking.properties.booking_type.description), /online, offline or walkin/)
})

test('no enum is written out twice: one used in two places is a component', () => {
  const schemas = doc.components.schemas as Json
  const named = new Map<string, string>()
  for (const [name, schema] of Object.entries(schemas)) {
    if (Array.isArray(schema.enum)) named.set(JSON.stringify([...schema.enum].sort()), name)
  }
  const inline = new Map<string, string[]>()
  for (const { where, node } of schemaNodes()) {
    if (!Array.isArray(node.enum) || node.enum.length < 2) continue
    if (/^#\/components\/schemas\/[^/]+$/.test(where)) continue
    const key = JSON.stringify([...node.enum].sort())
    inline.set(key, [...(inline.get(key) ?? []), where])
  }
  const problems: string[] = []
  for (const [key, places] of inline) {
    if (named.has(key)) problems.push(`${places.join(', ')}: the values of ${named.get(key)}, written out`)
    else if (places.length > 1) problems.push(`${key} is written out at ${places.join(', ')}`)
  }
  assert.deepEqual(problems, [])
})

test('multipart file fields are binary strings, each listed once; JSON bodies list none', () => {
  let files = 0
  const problems: string[] = []
  for (const { name, op } of operations()) {
    const content = (op.requestBody?.content ?? {}) as Json
    for (const [type, media] of Object.entries(content)) {
      const properties = (resolve(media.schema).properties ?? {}) as Json
      for (const [field, raw] of Object.entries(properties)) {
        const schema = resolve(raw)
        const binary = schema.format === 'binary' || schema.items?.format === 'binary'
        if (type === 'multipart/form-data') {
          if (!schema.type && !schema.anyOf && !schema.$ref) problems.push(`${name} ${field}: untyped`)
          if (binary) files++
          if (schema.format === 'binary' && schema.type !== 'string') problems.push(`${name} ${field}: not a string`)
          if (schema.items?.format === 'binary' && (schema.type !== 'array' || schema.items.type !== 'string'))
            problems.push(`${name} ${field}: not an array of strings`)
          if (binary && properties[`${field}[]`]) problems.push(`${name}: ${field} and ${field}[] both listed`)
        } else if (binary) problems.push(`${name} ${type} ${field}: a file in a body that cannot carry one`)
      }
    }
  }
  assert.deepEqual(problems, [])
  // avatar, image; thumbnail and gallery[] of createVenue and updateVenue (PUT, PATCH); images[] of both review routes.
  assert.equal(files, 10)
  const venue = doc.paths['/api/venues'].post.requestBody.content['multipart/form-data'].schema.properties
  assert.deepEqual(venue['gallery[]'].items, { type: 'string', format: 'binary' })
  assert.equal(venue.gallery, undefined)
  assert.deepEqual(venue.thumbnail.format, 'binary')
})

test('maps are additionalProperties, formats are ones generators know (ours are patterns)', () => {
  const schemas = doc.components.schemas as Json
  assert.deepEqual(schemas.ValidationError.properties.errors, {
    type: 'object',
    additionalProperties: { type: 'array', items: { type: 'string' } },
  })
  const known = new Set(['date', 'date-time', 'email', 'uuid', 'uri', 'binary'])
  for (const { where, node } of schemaNodes()) {
    assert.equal(node.patternProperties, undefined, `${where}: patternProperties`)
    if (typeof node.format === 'string') assert.ok(known.has(node.format), `${where}: format ${node.format}`)
  }
  const startsAt =
    doc.paths['/api/venues/{venue}/coupons'].post.requestBody.content['application/json'].schema.properties.starts_at
      .anyOf[0]
  assert.equal(startsAt.pattern, formatPatterns['local-date-time'])
  assert.equal(startsAt.format, undefined)
  // The pattern is the format's shape; the format (which Ajv keeps checking) also refuses days that do not exist.
  const pattern = new RegExp(formatPatterns['local-date-time'])
  for (const s of ['2026-11-25', '2026-11-25 18:00', '2026-11-25 18:00:59', '2027-02-28 00:00'])
    assert.ok(pattern.test(s) && isLocalDateTime(s), s)
  for (const s of ['2026-11-25T18:00', '2026-13-01', '2026-11-25 24:00', '26-11-25', '2026-11-25 18:00:60', ''])
    assert.ok(!pattern.test(s) && !isLocalDateTime(s), s)
})

test('401 only where a token is required, 422 only where there is input', () => {
  const problems: string[] = []
  let publicOps = 0
  let noInput = 0
  for (const { name, op } of operations()) {
    const statuses = Object.keys(op.responses ?? {})
    if (Array.isArray(op.security) && op.security.length === 0) {
      publicOps++
      if (statuses.includes('401')) problems.push(`${name}: public, but lists 401`)
    }
    if ((op.parameters?.length ?? 0) === 0 && !op.requestBody) {
      noInput++
      if (statuses.includes('422')) problems.push(`${name}: takes no input, but lists 422`)
    }
  }
  assert.deepEqual(problems, [])
  assert.ok(publicOps > 10 && noInput > 10, `${publicOps} public operations, ${noInput} without input`)
  assert.ok(doc.paths['/api/auth/login'].post.responses['422'], 'login takes input: 422 stays')
  assert.ok(doc.paths['/api/auth/me'].get.responses['401'], 'getMe needs a token: 401 stays')
})
