import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import fc from 'fast-check'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { build } from '../helpers/app.ts'
import { FIXED_NOW } from '../helpers/factories.ts'
import { type FuzzRequest, type Operation, requestsFor, type Schema } from './fuzz-inputs.ts'
import { type FuzzWorld, fingerprint, fuzzWorld } from './fuzz-world.ts'

// Every operation of the service's own OpenAPI document gets generated bad input (wrong types,
// nulls, NUL bytes, lone surrogates, 1 MB strings, ids like 0x10 or 2^63, impossible dates and
// times, duplicate query parameters, multipart or foreign bodies where JSON is expected), sent as
// a super_admin or as the owner of the venue the ids point at, so requests get past 401 to
// validation and the services. Each answer must be below 500; a 4xx must carry the contract's
// body and leave every watched table as it was; a request naming no real resource must be refused.
//
// FUZZ_RUNS (requests per operation, default 5) and FUZZ_SEED (default fixed) make a CI run the
// same bounded run every time; run e.g. `FUZZ_RUNS=200 FUZZ_SEED=$RANDOM npm test -- test/foundation/fuzz.test.ts`
// locally to search further.

const RUNS = Number(process.env.FUZZ_RUNS ?? 5)
const SEED = Number(process.env.FUZZ_SEED ?? 20261123)

/** Operations not fuzzed, each with the reason. */
const EXCLUDED: Record<string, string> = {
  'POST /api/auth/logout': 'takes no input; a run would revoke the token the rest of the run signs in with',
}

/** FUZZ_REPORT=1: list every failing request instead of stopping at the first. */
const COLLECT = Boolean(process.env.FUZZ_REPORT)
const failures: string[] = []

const CONTRACT_4XX = new Set([400, 401, 403, 404, 405, 409, 413, 415, 422, 429])

let app: App
let world: FuzzWorld
const operations: Operation[] = []

before(async () => {
  // A configured sign-in provider, so its callback gets as far as checking state and code (an
  // unconfigured one answers 503 before reading any input). Nothing here reaches its endpoints.
  app = await build(
    undefined,
    {
      PROVIDER_1_CLIENT_ID: 'fuzz-client',
      PROVIDER_1_CLIENT_SECRET: 'fuzz-secret',
      PROVIDER_1_TOKEN_URL: 'http://127.0.0.1:9/token',
      PROVIDER_1_USERINFO_URL: 'http://127.0.0.1:9/userinfo',
    },
    { clock: new ManualClock(FIXED_NOW) },
  )
  world = await fuzzWorld(app)
  const doc = (await app.inject({ method: 'GET', url: '/docs/json' })).json()
  for (const [path, item] of Object.entries(inlineRefs(doc, doc.paths) as Record<string, Record<string, Schema>>)) {
    for (const [method, op] of Object.entries(item)) {
      const params: Schema[] = op.parameters ?? []
      const content: Record<string, { schema: Schema }> = op.requestBody?.content ?? {}
      const types = Object.keys(content)
      operations.push({
        method: method.toUpperCase(),
        path,
        pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
        query: Object.fromEntries(params.filter((p) => p.in === 'query').map((p) => [p.name, p.schema])),
        body: types.length ? { types, schema: content[types[0]].schema } : undefined,
      })
    }
  }
})

after(() => app.close())

/** The document with every `$ref` (components.schemas, components.responses) replaced by what it names. */
function inlineRefs(doc: Schema, node: unknown): unknown {
  if (Array.isArray(node)) return node.map((n) => inlineRefs(doc, n))
  if (typeof node !== 'object' || node === null) return node
  const ref = (node as Schema).$ref
  if (typeof ref === 'string') {
    let target: unknown = doc
    for (const part of ref.replace(/^#\//, '').split('/')) target = (target as Schema)?.[part]
    assert.ok(target, `unresolved ${ref}`)
    return inlineRefs(doc, target)
  }
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, inlineRefs(doc, v)]))
}

function assertContractError(req: FuzzRequest, status: number, body: string) {
  const where = `${req.method} ${req.url.slice(0, 200)} (${req.spoiled}) -> ${status} ${body.slice(0, 300)}`
  assert.ok(CONTRACT_4XX.has(status), `status outside the contract: ${where}`)
  const json = JSON.parse(body) as Record<string, unknown>
  assert.equal(typeof json.message, 'string', `no message: ${where}`)
  for (const key of Object.keys(json)) assert.ok(key === 'message' || key === 'errors', `extra key ${key}: ${where}`)
  if (json.errors !== undefined) {
    assert.ok(json.errors && typeof json.errors === 'object' && !Array.isArray(json.errors), `errors shape: ${where}`)
    for (const [field, list] of Object.entries(json.errors)) {
      assert.ok(Array.isArray(list) && list.every((m) => typeof m === 'string'), `errors.${field}: ${where}`)
    }
  }
}

test('bad input to every operation of the OpenAPI document is refused cleanly and changes nothing', async (t) => {
  const tokens = [world.admin.token, world.owner.token]
  const stats = { requests: 0, covered: 0, fiveXx: 0, byStatus: new Map<number, number>() }
  const notFuzzed: string[] = []
  assert.ok(operations.length > 100, `only ${operations.length} operations in the document`)

  // The data as it stands before the next request: recomputed after a request that was accepted.
  let current = await fingerprint(app)
  async function check(req: FuzzRequest) {
    const res = await app.inject({
      method: req.method as 'GET',
      url: req.url,
      headers: req.headers,
      payload: req.payload,
    })
    stats.requests++
    stats.byStatus.set(res.statusCode, (stats.byStatus.get(res.statusCode) ?? 0) + 1)
    if (res.statusCode >= 500) stats.fiveXx++
    const where = `${req.method} ${req.url.slice(0, 200)} (${req.spoiled} ${req.detail})`
    assert.ok(res.statusCode < 500, `${where} -> ${res.statusCode} ${res.body.slice(0, 300)}`)
    if (req.spoiled === 'path') assert.ok(res.statusCode >= 400, `${where} accepted a bad id: ${res.statusCode}`)
    const after = await fingerprint(app)
    const changed = after !== current
    current = after
    if (res.statusCode >= 400) {
      assertContractError(req, res.statusCode, res.body)
      assert.ok(!changed, `${where} -> ${res.statusCode} changed data`)
    }
  }

  for (const [index, op] of operations.entries()) {
    const name = `${op.method} ${op.path}`
    if (EXCLUDED[name]) {
      notFuzzed.push(`${name}: ${EXCLUDED[name]}`)
      continue
    }
    const arb = requestsFor(op, world.ids, tokens, world.date)
    if (!arb) {
      // Nothing declared to spoil: still called with junk query and body, which must be ignored.
      const res = await app.inject({
        method: op.method,
        url: `${op.path}?junk=%00&junk=%ED%A0%80`,
        headers: { authorization: `Bearer ${world.admin.token}`, 'content-type': 'text/plain' },
        payload: op.method === 'GET' ? undefined : '\u0000',
      })
      stats.requests++
      stats.covered++
      stats.byStatus.set(res.statusCode, (stats.byStatus.get(res.statusCode) ?? 0) + 1)
      if (res.statusCode >= 500) stats.fiveXx++
      assert.ok(res.statusCode < 500, `${name} with junk -> ${res.statusCode} ${res.body}`)
      current = await fingerprint(app)
      continue
    }
    stats.covered++
    await fc.assert(
      fc.asyncProperty(arb, async (req) => {
        if (!COLLECT) return check(req)
        await check(req).catch((e: Error) => failures.push(e.message.split('\n')[0]))
      }),
      { seed: SEED + index, numRuns: RUNS, endOnFailure: !process.env.FUZZ_SHRINK },
    )
  }
  const statuses = [...stats.byStatus.entries()].sort(([a], [b]) => a - b).map(([s, n]) => `${s}:${n}`)
  t.diagnostic(
    `fuzz: ${stats.requests} requests, ${stats.covered}/${operations.length} operations, 5xx: ${stats.fiveXx}, ` +
      `runs ${RUNS}, seed ${SEED}; statuses ${statuses.join(' ')}`,
  )
  for (const line of notFuzzed) t.diagnostic(`not fuzzed: ${line}`)
  for (const line of failures) t.diagnostic(`FAILED ${line}`)
  assert.deepEqual(failures, [])
  assert.equal(stats.fiveXx, 0)
})
