import { createHash } from 'node:crypto'
import { AjvCompiler } from '@fastify/ajv-compiler'
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler'
import type { FastifySchemaCompiler, FastifyServerOptions } from 'fastify'
import { customFormats } from './schemas.ts'

// Request validation with two Ajv instances built the way Fastify builds its default one (same
// plugin pool, ajv-formats included, so `format: email` keeps working):
// - JSON bodies are validated as sent: no type coercion. Coercion turned `null` into 0 for
//   `Union([Integer, Null])` (an "every day" pricing rule was stored as Sunday) and let `12345`
//   pass as a string; a wrong type must be a 422 naming the field, never a silently changed value.
// - Query strings, path parameters and headers arrive as text, so they keep coercion ("5" → 5).
//   Multipart fields are text too; `coerceFields` below coerces them before the strict check.

// Our own formats (local-date-time) join ajv-formats' ones in both instances.
const common = { allErrors: true, removeAdditional: false, useDefaults: true, formats: customFormats } as const

type RouteSchema = Parameters<FastifySchemaCompiler<unknown>>[0]
type Compile = (route: RouteSchema) => ReturnType<FastifySchemaCompiler<unknown>>

const coercingPool = AjvCompiler()
const strictPool = AjvCompiler()

type ValidatorFactory = NonNullable<
  NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>['buildValidator']
>

function compilers(externalSchemas: Parameters<typeof coercingPool>[0]) {
  // The pool's declared return type takes a bare schema; at run time (and in Fastify's own use)
  // the compiler takes the route definition, so it is typed as Fastify calls it.
  // ajv-formats is added after the options' formats and would put its own `date` back: ours (years
  // 1900–2200 too) goes on again once the instance is made.
  const onCreate = (ajv: { addFormat(name: string, format: (s: string) => boolean): unknown }) =>
    ajv.addFormat('date', customFormats.date)
  const coercing = coercingPool(externalSchemas, {
    customOptions: { ...common, coerceTypes: 'array' },
    onCreate,
  }) as unknown
  const strict = strictPool(externalSchemas, { customOptions: { ...common, coerceTypes: false }, onCreate }) as unknown
  return { coercing: coercing as Compile, strict: strict as Compile }
}

/** `schemaController.compilersFactory.buildValidator` for Fastify: strict bodies, coerced text. */
export const buildValidator = ((externalSchemas: Parameters<typeof coercingPool>[0]) => {
  const { coercing, strict } = compilers(externalSchemas)
  return (route: RouteSchema) => (route.httpPart === 'body' ? strict(route) : coercing(route))
}) as ValidatorFactory

const textCoercers = new WeakMap<object, ReturnType<Compile>>()

/**
 * Coerces text fields (a multipart form) in place to the types of a route's body schema, as a
 * query string is coerced: "5" → 5, "true" → true, one value → an array of one. Errors are left
 * to the route's own (strict) validation, which runs next on the coerced values.
 */
export function coerceFields(schema: object, fields: Record<string, unknown>): void {
  let coerce = textCoercers.get(schema)
  if (!coerce) {
    coerce = compilers({}).coercing({ schema, method: '', url: '', httpPart: 'body' })
    textCoercers.set(schema, coerce)
  }
  coerce(fields)
}

type SerializerFactory = NonNullable<
  NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>['buildSerializer']
>
type Serialize = (data: unknown) => string

const defaultSerializers = SerializerSelector()
/**
 * Compiled response serializers: per route schema object, per serializer options (JSON of them); a
 * schema a route builds anew for each app (a wrapper made in its plugin) is found by its JSON's hash.
 */
const compiledSerializers = new WeakMap<object, Map<string, Serialize>>()
const compiledByText = new Map<string, Serialize>()

/**
 * `schemaController.compilersFactory.buildSerializer` for Fastify: Fastify's own (fast-json-stringify),
 * each route schema compiled once per process. Compiling is most of what building the app costs
 * (over a thousand response schemas), which a process that builds several apps (the tests: one or
 * more per test file) paid every time; a server builds one. Every route still gets a function of its
 * own (a wrapper), since src/lib/rendered.ts tells routes apart by their serializer.
 */
export const buildSerializer = ((externalSchemas: unknown, serializerOpts: unknown) => {
  const build = defaultSerializers(externalSchemas as never, serializerOpts as never) as unknown as (route: {
    schema: object
  }) => Serialize
  const key = JSON.stringify([externalSchemas ?? null, serializerOpts ?? null])
  return (route: { schema: object }) => {
    let byOptions = compiledSerializers.get(route.schema)
    if (!byOptions) {
      byOptions = new Map()
      compiledSerializers.set(route.schema, byOptions)
    }
    let serialize = byOptions.get(key)
    if (!serialize) {
      const text = createHash('sha256').update(key).update(JSON.stringify(route.schema)).digest('base64')
      serialize = compiledByText.get(text)
      if (!serialize) {
        serialize = build(route)
        compiledByText.set(text, serialize)
      }
      byOptions.set(key, serialize)
    }
    const compiled = serialize
    return (data: unknown) => compiled(data)
  }
}) as unknown as SerializerFactory
