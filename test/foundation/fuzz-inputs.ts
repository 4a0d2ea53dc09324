import fc from 'fast-check'

// Generated bad input for the fuzz test (fuzz.test.ts), driven by the service's own OpenAPI
// document: an operation's declared path, query and body parts, each spoiled in turn.

// biome-ignore lint/suspicious/noExplicitAny: OpenAPI schema objects are open-ended JSON.
export type Schema = Record<string, any>

export interface Operation {
  method: string
  path: string
  pathParams: string[]
  query: Record<string, Schema>
  body?: { types: string[]; schema: Schema }
}

export interface FuzzRequest {
  method: string
  url: string
  headers: Record<string, string>
  payload?: string | Buffer
  /** What was spoiled ('path' means the request names no real resource: it must be refused). */
  /** The spoiled part in short, for failure messages. */
  detail: string
  spoiled: 'path' | 'query' | 'duplicate-query' | 'body-field' | 'body-shape' | 'multipart' | 'content-type'
}

const MB = 1_000_000

/** Text the database or the parsers may choke on. */
export const BAD_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  '\u202e\u0000',
  '0x10',
  '1e3',
  '-1',
  '1.5',
  '9223372036854775808',
  '18446744073709551616',
  '1e21',
  '1e308',
  'NaN',
  'Infinity',
  '2027-13-01',
  '2027-02-30',
  '2026-02-29',
  '0000-00-00',
  '2027-01-01 25:00',
  '2027-02-30 10:00',
  '24:00',
  '23:60',
  '25:00',
  '10:00:61',
  "' OR 1=1 --",
  '%00',
  '../../etc/passwd',
  '😀'.repeat(300),
]

/** A bad path id: none of these may ever resolve to a resource. */
export const BAD_IDS = [
  '0',
  '-1',
  '0x10',
  '1e3',
  '1.5',
  '+1',
  '%201',
  '9223372036854775808',
  '9223372036854775807',
  '2147483648',
  '99999999999999999999',
  'abc',
  '%00',
  '1%00',
  '%ED%A0%80',
  '%F0%9F',
  'null',
  'NaN',
  '1;DROP%20TABLE%20users',
  '%E2%80%AE',
  'x'.repeat(5000),
]

const badJson: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...BAD_STRINGS) },
  {
    weight: 3,
    arbitrary: fc.constantFrom<unknown>(
      null,
      true,
      false,
      0,
      -1,
      -0.5,
      1.5,
      2 ** 63,
      1e21,
      1e308,
      -1e308,
      Number.MAX_SAFE_INTEGER + 2,
      [],
      [null],
      [1, 2, 3],
      {},
      { a: { b: { c: [] } } },
    ),
  },
  { weight: 1, arbitrary: fc.constant('x'.repeat(MB)) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.double()) },
)

const badText: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...BAD_STRINGS) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.constant('x'.repeat(20_000)) },
)

const IMPOSSIBLE_DATES = ['2027-13-01', '2027-02-30', '2026-02-29', '2027-04-31', '2027-00-10', '2027-02-30 10:00']
const IMPOSSIBLE_TIMES = ['24:00', '23:60', '25:00', '10:00:61', '7:5', '10:00 ']
const HUGE_NUMBERS: unknown[] = [
  1e21,
  1e308,
  2 ** 63,
  -1,
  '1e21',
  '1e308',
  '9223372036854775808',
  '0x10',
  '10000000.01',
]
const HOSTILE_TEXT = ['\u0000', 'a\u0000b', '\ud800', 'x\udfffy', 'x'.repeat(MB)]

function typesOf(schema: Schema | undefined): Schema[] {
  if (!schema) return []
  const branches: Schema[] | undefined = schema.anyOf ?? schema.oneOf
  return branches ? branches.flatMap(typesOf) : [schema]
}

/** Values aimed at what a field is: impossible dates for dates, huge numbers for amounts and ids. */
export function targeted(name: string, schema: Schema | undefined): unknown[] {
  const kinds = typesOf(schema)
  const pool: unknown[] = [...HOSTILE_TEXT]
  if (kinds.some((k) => k.format === 'date' || k.format === 'local-date-time') || /date|_at$/.test(name)) {
    pool.push(...IMPOSSIBLE_DATES)
  }
  if (kinds.some((k) => typeof k.pattern === 'string' && k.pattern.includes(':[0-5]'))) pool.push(...IMPOSSIBLE_TIMES)
  if (kinds.some((k) => k.type === 'number' || k.type === 'integer')) pool.push(...HUGE_NUMBERS)
  return pool
}

/** Percent-encoding that also writes lone surrogates (as the invalid UTF-8 they would be). */
export function enc(s: string): string {
  let out = ''
  for (const ch of s) {
    const c = ch.codePointAt(0) ?? 0
    out += c >= 0xd800 && c <= 0xdfff ? '%ED%A0%80' : encodeURIComponent(ch)
  }
  return out
}

/**
 * A well-formed value for a schema, so that only the chosen part of a request is wrong. `date`: the
 * value for date fields, a near day counted from the app's clock (FuzzWorld.date), not the machine's.
 */
export function plausible(
  name: string,
  schema: Schema | undefined,
  ids: Record<string, string>,
  date: string,
): unknown {
  if (!schema) return 'text'
  const idKey = name.replace(/_id$/, '')
  if (name.endsWith('_id') && ids[idKey]) return Number(ids[idKey])
  if (schema.enum) return schema.enum[0]
  if (schema.const !== undefined) return schema.const
  const branches = schema.anyOf ?? schema.oneOf
  if (branches) return plausible(name, branches.find((b: Schema) => b.type !== 'null') ?? branches[0], ids, date)
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type
  switch (type) {
    case 'integer':
    case 'number':
      return Math.max(1, Number(schema.minimum ?? 1))
    case 'boolean':
      return true
    case 'array':
      return []
    case 'object':
      return {}
    default:
      if (schema.format === 'date' || schema.format === 'local-date-time') return date
      if (schema.format === 'email') return 'someone@example.com'
      if (typeof schema.pattern === 'string' && schema.pattern.includes(':[0-5]')) return '10:00'
      return 'text'
  }
}

/** The n-th value of a pool, round and round (n is generated, so fast-check replays the choice). */
const pick = (pool: unknown[], n: number) => pool[n % pool.length]

function multipartBody(fields: Array<[string, string]>) {
  const boundary = '----fuzz7MA4YWxkTrZu0gW'
  const parts = fields.map(
    ([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k.replace(/"/g, '')}"\r\n\r\n${v}\r\n`,
  )
  return {
    payload: Buffer.from(`${parts.join('')}--${boundary}--\r\n`),
    contentType: `multipart/form-data; boundary=${boundary}`,
  }
}

/** Requests for one operation, each with exactly one part spoiled. */
export function requestsFor(
  op: Operation,
  ids: Record<string, string>,
  tokens: string[],
  /** The plausible date for date fields: a near future day by the app's clock. */
  date: string,
): fc.Arbitrary<FuzzRequest> | undefined {
  const spoilable: FuzzRequest['spoiled'][] = []
  if (op.pathParams.length) spoilable.push('path')
  const queryNames = Object.keys(op.query)
  if (queryNames.length) spoilable.push('query', 'duplicate-query')
  const bodyProps: Record<string, Schema> = op.body?.schema?.properties ?? {}
  const bodyNames = Object.keys(bodyProps)
  if (op.body) spoilable.push('body-shape', 'multipart', 'content-type')
  if (bodyNames.length) spoilable.push('body-field')
  if (!spoilable.length) return undefined

  const realPath = (spoilName?: string, bad?: string) =>
    op.path.replace(/\{(\w+)\}/g, (_, name: string) =>
      name === spoilName ? (bad ?? '') : enc(ids[name] ?? (name === 'id' ? '1' : 'unknown')),
    )
  const fullBody = () =>
    Object.fromEntries(bodyNames.map((n) => [n, plausible(n, bodyProps[n], ids, date)])) as Record<string, unknown>

  return fc
    .record({
      spoiled: fc.constantFrom(...spoilable),
      token: fc.constantFrom(...tokens),
      pathParam: op.pathParams.length ? fc.constantFrom(...op.pathParams) : fc.constant(undefined),
      badId: fc.constantFrom(...BAD_IDS),
      queryParam: queryNames.length ? fc.constantFrom(...queryNames) : fc.constant(''),
      bodyField: bodyNames.length ? fc.constantFrom(...bodyNames) : fc.constant(''),
      badValue: badJson,
      badText,
      aimed: fc.boolean(),
      aimedValue: fc.integer({ min: 0, max: 1_000_000 }),
      shape: fc.constantFrom<unknown>(null, [], 'text', 42, true, [{}], 'x'.repeat(MB)),
      foreignType: fc.constantFrom('text/plain', 'application/xml', 'application/x-www-form-urlencoded'),
    })
    .map((g): FuzzRequest => {
      const headers: Record<string, string> = { authorization: `Bearer ${g.token}` }
      let path = realPath()
      let query = ''
      let payload: string | Buffer | undefined
      let detail = ''
      if (op.body) {
        headers['content-type'] = 'application/json'
        payload = JSON.stringify(fullBody())
      }
      switch (g.spoiled) {
        case 'path':
          path = realPath(g.pathParam, g.badId)
          break
        case 'query':
          query = `${g.queryParam}=${enc(g.aimed ? String(pick(targeted(g.queryParam, op.query[g.queryParam]), g.aimedValue)) : g.badText)}`
          break
        case 'duplicate-query': {
          const good = plausible(g.queryParam, op.query[g.queryParam], ids, date)
          query = `${g.queryParam}=${enc(String(good))}&${g.queryParam}=${enc(g.badText)}`
          break
        }
        case 'body-field': {
          const value = g.aimed ? pick(targeted(g.bodyField, bodyProps[g.bodyField]), g.aimedValue) : g.badValue
          payload = JSON.stringify({ ...fullBody(), [g.bodyField]: value })
          detail = `${g.bodyField}=${JSON.stringify(value)?.slice(0, 40)}`
          break
        }
        case 'body-shape':
          payload = JSON.stringify(g.shape)
          break
        case 'multipart': {
          const form = multipartBody(bodyNames.map((n) => [n, n === g.bodyField ? g.badText : 'text']))
          detail = `${g.bodyField}=${JSON.stringify(g.badText).slice(0, 40)}`
          payload = form.payload
          headers['content-type'] = form.contentType
          break
        }
        case 'content-type':
          headers['content-type'] = g.foreignType
          payload = 'a=1&b=%00'
          break
      }
      return { method: op.method, url: query ? `${path}?${query}` : path, headers, payload, spoiled: g.spoiled, detail }
    })
}
