import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import Fastify from 'fastify'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { frameworkErrors } from '../../src/lib/errors.ts'
import { build } from '../helpers/app.ts'
import { FIXED_NOW } from '../helpers/factories.ts'
import { rateLimitEnv } from '../helpers/rate-limit.ts'

// Errors raised before or around any route (issue 50; docs/languages.md): the router's 404s, the
// body parser's 400/413/415, the rate limiter's 429. With Accept-Language: ne each is the same
// status and shape with a Nepali message; without it the contract's English, byte for byte.

let app: App
let limited: App
before(async () => {
  const clock = new ManualClock(FIXED_NOW)
  app = await build(undefined, {}, { clock })
  limited = await build(undefined, rateLimitEnv({ RATE_LIMIT_LOGIN: '1' }), { clock })
})
after(async () => {
  await app.close()
  await limited.close()
})

const NE = { 'accept-language': 'ne' }

interface Case {
  name: string
  request: { method: 'GET' | 'POST'; url: string; headers?: Record<string, string>; payload?: string }
  status: number
  english: string
  nepali: string
}

const login = { method: 'POST' as const, url: '/api/auth/login' }
const CASES: Case[] = [
  {
    name: 'unknown route',
    request: { method: 'GET', url: '/api/no-such-thing' },
    status: 404,
    english: 'Not found.',
    nepali: 'भेटिएन।',
  },
  {
    name: 'path segment that is not UTF-8 (frameworkErrors)',
    request: { method: 'GET', url: '/api/venues/%ED%A0%80' },
    status: 404,
    english: 'Not found.',
    nepali: 'भेटिएन।',
  },
  {
    name: 'path parameter longer than any id or slug (frameworkErrors)',
    request: { method: 'GET', url: `/api/venues/${'a'.repeat(200)}` },
    status: 404,
    english: 'Not found.',
    nepali: 'भेटिएन।',
  },
  {
    name: 'malformed JSON',
    request: { ...login, headers: { 'content-type': 'application/json' }, payload: '{"email":' },
    status: 400,
    english: 'The request body is not valid JSON.',
    nepali: 'अनुरोधको मुख्य भाग मान्य JSON होइन।',
  },
  {
    name: 'unsupported media type',
    request: { ...login, headers: { 'content-type': 'text/xml' }, payload: '<login/>' },
    status: 415,
    english: 'Unsupported media type.',
    nepali: 'यो सामग्रीको प्रकार समर्थित छैन।',
  },
  {
    name: 'body too large',
    request: {
      ...login,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'x'.repeat(1024 * 1024 + 10) }),
    },
    status: 413,
    english: 'The request is too large.',
    nepali: 'अनुरोध धेरै ठूलो छ।',
  },
  {
    name: 'body shorter than its Content-Length',
    request: { ...login, headers: { 'content-type': 'application/json', 'content-length': '50' }, payload: '{}' },
    status: 400,
    english: 'Request body size did not match Content-Length',
    nepali: 'अनुरोधको मुख्य भागको आकार Content-Length सँग मिलेन।',
  },
]

for (const c of CASES) {
  test(`${c.name}: ${c.status}, Nepali with Accept-Language ne, the exact English without`, async () => {
    const english = await app.inject(c.request)
    assert.equal(english.statusCode, c.status, english.body)
    assert.equal(english.body, JSON.stringify({ message: c.english }))
    const nepali = await app.inject({ ...c.request, headers: { ...c.request.headers, ...NE } })
    assert.equal(nepali.statusCode, c.status, nepali.body)
    assert.match(String(nepali.headers['content-type']), /^application\/json/)
    assert.deepEqual(nepali.json(), { message: c.nepali })
  })
}

test("the rate limiter's 429 is in Nepali with its Retry-After; English without the header", async () => {
  const attempt = (headers: Record<string, string>) =>
    limited.inject({ ...login, headers, payload: { email: 'nobody@example.com', password: 'wrong-password' } })
  const first = await attempt(NE)
  assert.notEqual(first.statusCode, 429, first.body)
  const nepali = await attempt(NE)
  assert.equal(nepali.statusCode, 429, nepali.body)
  assert.deepEqual(nepali.json(), { message: 'धेरै पटक प्रयास भयो। केही बेरपछि फेरि प्रयास गर्नुहोस्।' })
  assert.ok(Number(nepali.headers['retry-after']) > 0)
  const english = await attempt({})
  assert.equal(english.statusCode, 429, english.body)
  assert.equal(english.body, '{"message":"Too Many Attempts."}')
})

test('a router error frameworkErrors knows no better name for is "Bad request.", in Nepali with the header', async (t) => {
  // A route constraint whose value cannot be derived: the router's FST_ERR_ASYNC_CONSTRAINT.
  // An asynchronous strategy (deriveConstraint takes `done`), which Fastify's types do not describe.
  const tenant = {
    name: 'tenant',
    storage() {
      const routes = new Map<unknown, unknown>()
      return { get: (k: unknown) => routes.get(k) ?? null, set: (k: unknown, v: unknown) => routes.set(k, v) }
    },
    deriveConstraint: (_req: unknown, _ctx: unknown, done: (err: Error | null, value?: string) => void) =>
      done(new Error('no tenant')),
    mustMatchWhenDerived: false,
    validate() {},
  }
  const router = Fastify({ frameworkErrors, constraints: { tenant: tenant as never } })
  t.after(() => router.close())
  router.get('/x', { constraints: { tenant: 'a' } }, async () => ({ ok: true }))
  const english = await router.inject({ method: 'GET', url: '/x' })
  assert.equal(english.statusCode, 400, english.body)
  assert.equal(english.body, '{"message":"Bad request."}')
  const nepali = await router.inject({ method: 'GET', url: '/x', headers: NE })
  assert.equal(nepali.statusCode, 400, nepali.body)
  assert.deepEqual(nepali.json(), { message: 'अनुरोध मिलेन।' })
})
