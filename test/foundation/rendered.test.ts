import assert from 'node:assert/strict'
import { test } from 'node:test'
import Fastify from 'fastify'
import { NotFound, registerErrorHandler } from '../../src/lib/errors.ts'
import { ownBytes, renderedAnswer } from '../../src/lib/rendered.ts'

// renderedAnswer (src/lib/rendered.ts): a value the read cache holds is encoded once and sent within
// the handler's own call; a promise (a miss) is awaited as an async handler's answer would be.

const Body = {
  type: 'object',
  properties: { data: { type: 'object', properties: { n: { type: 'number' } } } },
} as const

function appWith(source: () => { n: number } | Promise<{ n: number }>) {
  const app = Fastify()
  registerErrorHandler(app)
  const returned: unknown[] = []
  let built = 0
  app.get('/x', { schema: { response: { 200: Body } } }, (_req, reply) => {
    const answer = renderedAnswer(reply, source(), '', (s) => {
      built++
      return { data: s }
    })
    returned.push(answer)
    return answer
  })
  return { app, returned, built: () => built }
}

test('a held value is answered as bytes within the handler call, encoded once per object', async () => {
  const held = { n: 1 }
  const { app, returned, built } = appWith(() => held)
  for (let i = 0; i < 3; i++) {
    const res = await app.inject('/x')
    assert.equal(res.statusCode, 200)
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8')
    assert.deepEqual(res.json(), { data: { n: 1 } })
  }
  assert.ok(
    returned.every((r) => Buffer.isBuffer(r)),
    'no promise',
  )
  assert.equal(returned[0], returned[2], 'the same bytes')
  assert.equal(built(), 1)
  // Held for as long as the cache holds the value: in memory of its own, not a slice of Node's
  // shared buffer pool (which would keep a whole 8 KB slab alive for it).
  const bytes = returned[0] as Buffer
  assert.equal(bytes.byteOffset, 0)
  assert.equal(bytes.buffer.byteLength, bytes.length)
})

test('ownBytes: the UTF-8 of a string, in memory of its own', () => {
  const text = '{"name":"Kathmandu Futsal ✓","price":"1500.00"}'
  const pooled = Buffer.from('x')
  assert.notEqual(pooled.buffer.byteLength, pooled.length, 'small Buffer.from() is a pool slice')
  const bytes = ownBytes(text)
  assert.equal(bytes.toString('utf8'), text)
  assert.equal(bytes.length, Buffer.byteLength(text))
  assert.equal(bytes.buffer.byteLength, bytes.length)
})

test('a promise is awaited; a rejected one is the error handler’s answer', async () => {
  let fail = false
  const { app, returned } = appWith(() => (fail ? Promise.reject(new Error('boom')) : Promise.resolve({ n: 2 })))
  const res = await app.inject('/x')
  assert.deepEqual(res.json(), { data: { n: 2 } })
  assert.ok(returned[0] instanceof Promise)
  fail = true
  const failed = await app.inject('/x')
  assert.equal(failed.statusCode, 500)
})

test('a service that throws at once (say a 404 on a malformed id) is the error handler’s answer', async () => {
  const { app } = appWith(() => {
    throw new NotFound()
  })
  const res = await app.inject('/x')
  assert.equal(res.statusCode, 404)
  assert.deepEqual(res.json(), { message: 'Not found.' })
})

test('one object rendered by two routes and two variants keeps each answer; the slot on it is invisible', async () => {
  const held = { n: 3 }
  const app = Fastify()
  registerErrorHandler(app)
  let built = 0
  const Other = { type: 'object', properties: { other: { type: 'object', properties: { n: { type: 'number' } } } } }
  app.get('/a', { schema: { response: { 200: Body } } }, (req, reply) =>
    renderedAnswer(reply, held, req.url, (s) => {
      built++
      return { data: s }
    }),
  )
  app.get('/b', { schema: { response: { 200: Other } } }, (_req, reply) =>
    renderedAnswer(reply, held, '', (s) => {
      built++
      return { other: s }
    }),
  )
  // Alternating, so the last answer kept on the object is never the one asked for next.
  for (let i = 0; i < 2; i++) {
    assert.deepEqual((await app.inject('/a?p=1')).json(), { data: { n: 3 } })
    assert.deepEqual((await app.inject('/b')).json(), { other: { n: 3 } })
    assert.deepEqual((await app.inject('/a?p=2')).json(), { data: { n: 3 } })
  }
  assert.equal(built, 3, 'one encoding per route and variant')
  const symbols = Object.getOwnPropertySymbols(held)
  assert.equal(symbols.length, 1, 'the last answer is kept on the object')
  assert.ok(!Object.prototype.propertyIsEnumerable.call(held, symbols[0]), 'and is not enumerable')
  assert.equal(Object.getOwnPropertySymbols({ ...held }).length, 0, 'so a spread does not copy it')
})

test('a frozen object keeps its answers all the same', async () => {
  const frozen = Object.freeze({ n: 4 })
  const later = { n: 5 }
  const app = Fastify()
  registerErrorHandler(app)
  let built = 0
  app.get('/f', { schema: { response: { 200: Body } } }, (req, reply) =>
    renderedAnswer(reply, (req.query as { which?: string }).which === 'later' ? later : frozen, req.url, (s) => {
      built++
      return { data: s }
    }),
  )
  for (let i = 0; i < 2; i++) {
    assert.deepEqual((await app.inject('/f?a')).json(), { data: { n: 4 } })
    assert.deepEqual((await app.inject('/f?b')).json(), { data: { n: 4 } })
  }
  assert.equal(built, 2, 'a frozen object: one encoding per variant, kept in the WeakMap')
  // Frozen after its first answer: a second variant is kept too, and both are served again.
  assert.deepEqual((await app.inject('/f?which=later')).json(), { data: { n: 5 } })
  Object.freeze(later)
  for (let i = 0; i < 2; i++) {
    assert.deepEqual((await app.inject('/f?which=later&x')).json(), { data: { n: 5 } })
    assert.deepEqual((await app.inject('/f?which=later')).json(), { data: { n: 5 } })
  }
  assert.equal(built, 4)
})
