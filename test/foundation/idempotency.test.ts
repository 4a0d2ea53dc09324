import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import Fastify from 'fastify'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { registerErrorHandler } from '../../src/lib/errors.ts'
import {
  IDEMPOTENCY_LEASE_MS,
  idempotentRoutes,
  KEY_IN_PROGRESS_MESSAGE,
  KEY_REUSED_MESSAGE,
  requestHash,
} from '../../src/lib/idempotency.ts'
import { fixedSlot, world } from '../bookings/helpers.ts'
import { build } from '../helpers/app.ts'
import { createUser, daysFromFixedNow, FIXED_NOW, type TestUser } from '../helpers/factories.ts'
import { scene } from '../indoor-bookings/helpers.ts'
import { insertBooking, ledger } from '../payments/helpers.ts'

// Idempotency-Key on the money and booking POSTs (src/lib/idempotency.ts, docs/idempotency.md).

// A fixed start; dates are counted from its day (fixedSlot, daysFromFixedNow), never from the real date.
const clock = new ManualClock(FIXED_NOW)
let app: App
before(async () => {
  app = await build(undefined, {}, { clock })
})
after(() => app.close())

const post = (url: string, user: TestUser, payload: Record<string, unknown>, key?: string) =>
  app.inject({
    method: 'POST',
    url,
    headers: key === undefined ? user.headers : { ...user.headers, 'idempotency-key': key },
    payload,
  })

const bookingsOf = (courtId: number) =>
  app.ctx.db.selectFrom('bookings').select(['id', 'status']).where('court_id', '=', courtId).execute()

let n = 0
const newKey = () => `key-${process.pid}-${++n}-${Math.random().toString(36).slice(2)}`

test('a retried booking replays the first answer (status, body, Idempotent-Replayed) and books once', async () => {
  const w = await world(app)
  const key = newKey()
  const body = fixedSlot(w.court.id, 3, '10:00', '11:00')
  const first = await post('/api/bookings', w.customer, body, key)
  assert.equal(first.statusCode, 201, first.body)
  assert.equal(first.headers['idempotent-replayed'], undefined)
  // The same body with its keys in another order is the same request.
  const reordered = Object.fromEntries(Object.entries(body).reverse())
  const again = await post('/api/bookings', w.customer, reordered, key)
  assert.equal(again.statusCode, 201)
  assert.equal(again.headers['idempotent-replayed'], 'true')
  assert.match(String(again.headers['content-type']), /^application\/json/)
  assert.equal(again.body, first.body)
  assert.equal((await bookingsOf(w.court.id)).length, 1)
})

test('without a key, a second identical booking is an ordinary 409: the header is what makes retries safe', async () => {
  const w = await world(app)
  const body = fixedSlot(w.court.id, 3, '12:00', '13:00')
  assert.equal((await post('/api/bookings', w.customer, body)).statusCode, 201)
  assert.equal((await post('/api/bookings', w.customer, body)).statusCode, 409)
})

test('the same key with a different body is 422 naming the header, and books nothing', async () => {
  const w = await world(app)
  const key = newKey()
  assert.equal(
    (await post('/api/bookings', w.customer, fixedSlot(w.court.id, 3, '14:00', '15:00'), key)).statusCode,
    201,
  )
  const other = await post('/api/bookings', w.customer, fixedSlot(w.court.id, 3, '15:00', '16:00'), key)
  assert.equal(other.statusCode, 422)
  assert.deepEqual(other.json(), { message: KEY_REUSED_MESSAGE, errors: { 'Idempotency-Key': [KEY_REUSED_MESSAGE] } })
  // The same key on another idempotent route is another request too.
  const elsewhere = await post('/api/wallet/topup', w.customer, { amount: '500.00', method: 'gateway_2' }, key)
  assert.equal(elsewhere.statusCode, 422)
  assert.equal((await bookingsOf(w.court.id)).length, 1)
})

test('a key still being processed is 409; after its lease (a crashed process) a retry takes it over', async () => {
  const w = await world(app)
  const key = newKey()
  const body = fixedSlot(w.court.id, 4, '10:00', '11:00')
  const now = clock.now()
  await app.ctx.db
    .insertInto('idempotency_keys')
    .values({
      user_id: w.customer.id,
      key,
      request_hash: requestHash('POST', '/api/bookings', body),
      claim: 'crashed-process',
      locked_until: new Date(now.getTime() + IDEMPOTENCY_LEASE_MS),
      created_at: now,
      expires_at: new Date(now.getTime() + 24 * 3600_000),
    })
    .execute()
  const busy = await post('/api/bookings', w.customer, body, key)
  assert.equal(busy.statusCode, 409)
  assert.deepEqual(busy.json(), { message: KEY_IN_PROGRESS_MESSAGE })
  assert.equal((await bookingsOf(w.court.id)).length, 0)

  clock.advance(IDEMPOTENCY_LEASE_MS + 1000)
  const taken = await post('/api/bookings', w.customer, body, key)
  assert.equal(taken.statusCode, 201, taken.body)
  assert.equal(taken.headers['idempotent-replayed'], undefined)
  const replay = await post('/api/bookings', w.customer, body, key)
  assert.equal(replay.headers['idempotent-replayed'], 'true')
  assert.equal((await bookingsOf(w.court.id)).length, 1)
})

test('two users may use the same key independently', async () => {
  const w = await world(app)
  const other = await createUser(app)
  const key = newKey()
  const a = await post('/api/bookings', w.customer, fixedSlot(w.court.id, 5, '10:00', '11:00'), key)
  const b = await post('/api/bookings', other, fixedSlot(w.court.id, 5, '11:00', '12:00'), key)
  assert.equal(a.statusCode, 201)
  assert.equal(b.statusCode, 201)
  assert.equal(b.headers['idempotent-replayed'], undefined)
  assert.notEqual(a.json().data.id, b.json().data.id)
  assert.equal((await bookingsOf(w.court.id)).length, 2)
})

test('a refusal (4xx) is stored and replayed; a key expires after 24 hours and is pruned', async () => {
  const w = await world(app)
  const other = await createUser(app)
  const key = newKey()
  const body = fixedSlot(w.court.id, 6, '10:00', '11:00')
  // Someone else holds the slot: the keyed request is refused with 409, and that answer is kept.
  assert.equal((await post('/api/bookings', other, body)).statusCode, 201)
  const refused = await post('/api/bookings', w.customer, body, key)
  assert.equal(refused.statusCode, 409)
  const replay = await post('/api/bookings', w.customer, body, key)
  assert.equal(replay.statusCode, 409)
  assert.equal(replay.headers['idempotent-replayed'], 'true')
  assert.equal(replay.body, refused.body)

  // 24 hours later the key is free again and the request runs afresh: the other customer's unpaid
  // hold has run out meanwhile, so this time it books.
  clock.advance(24 * 3600_000 + 1000)
  const fresh = await post('/api/bookings', w.customer, body, key)
  assert.equal(fresh.statusCode, 201, fresh.body)
  assert.equal(fresh.headers['idempotent-replayed'], undefined)

  // The prune job deletes keys whose 24 hours are over.
  const stale = newKey()
  const before = clock.now()
  await app.ctx.db
    .insertInto('idempotency_keys')
    .values({
      user_id: w.customer.id,
      key: stale,
      request_hash: 'x',
      claim: 'c',
      status: 'completed',
      response_status: 201,
      response_body: '{}',
      locked_until: before,
      created_at: new Date(before.getTime() - 25 * 3600_000),
      expires_at: new Date(before.getTime() - 3600_000),
    })
    .execute()
  await app.ctx.jobs.runDue()
  const left = await app.ctx.db
    .selectFrom('idempotency_keys')
    .select('key')
    .where('user_id', '=', w.customer.id)
    .execute()
  assert.ok(!left.some((r) => r.key === stale), JSON.stringify(left))
  assert.ok(left.some((r) => r.key === key))
})

test('an invalid key is 422 naming the header; a valid one of 255 characters is accepted', async () => {
  const w = await world(app)
  for (const bad of ['', 'has space', 'x'.repeat(256), 'naïve']) {
    const res = await post('/api/bookings', w.customer, fixedSlot(w.court.id, 7, '10:00', '11:00'), bad)
    assert.equal(res.statusCode, 422, `${JSON.stringify(bad)}: ${res.body}`)
    assert.deepEqual(Object.keys(res.json().errors), ['Idempotency-Key'])
  }
  assert.equal((await bookingsOf(w.court.id)).length, 0)
  const ok = await post('/api/bookings', w.customer, fixedSlot(w.court.id, 7, '10:00', '11:00'), 'k'.repeat(255))
  assert.equal(ok.statusCode, 201, ok.body)
  // An unauthenticated request is 401 whatever its key.
  const anon = await app.inject({
    method: 'POST',
    url: '/api/bookings',
    headers: { 'idempotency-key': 'bad key' },
    payload: {},
  })
  assert.equal(anon.statusCode, 401)
})

test('50 concurrent retries of one keyed booking create exactly one booking', async () => {
  const w = await world(app)
  const key = newKey()
  const body = fixedSlot(w.court.id, 8, '10:00', '11:00')
  const results = await Promise.all(Array.from({ length: 50 }, () => post('/api/bookings', w.customer, body, key)))
  const codes = results.map((r) => r.statusCode)
  for (const c of codes) assert.ok(c === 201 || c === 409, codes.join(','))
  const originals = results.filter((r) => r.statusCode === 201 && r.headers['idempotent-replayed'] === undefined)
  assert.equal(originals.length, 1, codes.join(','))
  for (const r of results.filter((x) => x.statusCode === 409))
    assert.deepEqual(r.json(), { message: KEY_IN_PROGRESS_MESSAGE })
  for (const r of results.filter((x) => x.statusCode === 201)) assert.equal(r.body, originals[0].body)
  const rows = await bookingsOf(w.court.id)
  assert.equal(rows.length, 1)
  // After the race every retry is a replay of that one booking.
  const late = await post('/api/bookings', w.customer, body, key)
  assert.equal(late.statusCode, 201)
  assert.equal(late.headers['idempotent-replayed'], 'true')
  assert.equal(late.json().data.id, rows[0].id)
})

test('an indoor booking retried with its key is booked once', async () => {
  const s = await scene(app)
  const key = newKey()
  const body = { indoor_game_id: s.game.id, date: daysFromFixedNow(3), start_time: '10:00', end_time: '11:00' }
  const results = await Promise.all(
    Array.from({ length: 10 }, () => post('/api/indoor-game-bookings', s.customer, body, key)),
  )
  for (const r of results) assert.ok([201, 409].includes(r.statusCode), r.body)
  const rows = await app.ctx.db
    .selectFrom('indoor_game_bookings')
    .select('id')
    .where('indoor_game_id', '=', s.game.id)
    .execute()
  assert.equal(rows.length, 1)
})

test('a recurring series retried with its key books its weeks once', async () => {
  const w = await world(app)
  const key = newKey()
  const body = {
    court_id: w.court.id,
    start_date: daysFromFixedNow(5),
    weeks: 3,
    start_time: '10:00',
    end_time: '11:00',
  }
  const results = await Promise.all(
    Array.from({ length: 10 }, () => post('/api/bookings/series', w.customer, body, key)),
  )
  for (const r of results) assert.ok([201, 409].includes(r.statusCode), r.body)
  const created = results.filter((r) => r.statusCode === 201)
  assert.ok(created.length >= 1)
  const replay = await post('/api/bookings/series', w.customer, body, key)
  assert.equal(replay.statusCode, 201)
  assert.equal(replay.headers['idempotent-replayed'], 'true')
  assert.equal(replay.json().data.id, created[0].json().data.id)
  assert.equal(replay.json().data.occurrences.length, 3)
  assert.equal((await bookingsOf(w.court.id)).length, 3)
  const series = await app.ctx.db.selectFrom('booking_series').select('id').where('court_id', '=', w.court.id).execute()
  assert.equal(series.length, 1)
  // The same key for another series is refused, not booked.
  const other = await post('/api/bookings/series', w.customer, { ...body, weeks: 4 }, key)
  assert.equal(other.statusCode, 422)
  assert.equal((await bookingsOf(w.court.id)).length, 3)
})

test('a wallet payment retried with its key debits the wallet once', async () => {
  const w = await world(app)
  const user = await createUser(app, { wallet: 500000 })
  const booking = await insertBooking(app, {
    userId: user.id,
    venueId: w.venue.id,
    courtId: w.court.id,
    total: 150000,
    date: daysFromFixedNow(9),
  })
  const key = newKey()
  const body = { booking_id: booking.id, method: 'wallet' }
  const results = await Promise.all(Array.from({ length: 10 }, () => post('/api/payments/initiate', user, body, key)))
  for (const r of results) assert.ok([200, 409].includes(r.statusCode), r.body)
  const replay = await post('/api/payments/initiate', user, body, key)
  assert.equal(replay.statusCode, 200)
  assert.equal(replay.headers['idempotent-replayed'], 'true')
  const { balance, rows } = await ledger(app, user.id)
  assert.equal(balance, 500000 - 150000)
  assert.equal(rows.filter((r) => r.type === 'debit').length, 1)
})

test('a top-up retried with its key starts one pending top-up', async () => {
  const user = await createUser(app)
  const key = newKey()
  const body = { amount: '500.00', method: 'gateway_2' }
  const first = await post('/api/wallet/topup', user, body, key)
  assert.equal(first.statusCode, 201, first.body)
  const again = await post('/api/wallet/topup', user, body, key)
  assert.equal(again.statusCode, 201)
  assert.equal(again.headers['idempotent-replayed'], 'true')
  assert.equal(again.json().payment_url, first.json().payment_url)
  const { rows } = await ledger(app, user.id)
  assert.equal(rows.filter((r) => r.type === 'topup').length, 1)
})

test('the OpenAPI document shows the header on the idempotent routes only', async () => {
  const doc = (await app.inject({ method: 'GET', url: '/docs/json' })).json()
  const headerOf = (path: string, method: string) =>
    (doc.paths[path]?.[method]?.parameters ?? []).find(
      (p: { in: string; name: string }) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key',
    )
  for (const path of [
    '/api/bookings',
    '/api/indoor-game-bookings',
    '/api/bookings/series',
    '/api/payments/initiate',
    '/api/wallet/topup',
  ]) {
    const h = headerOf(path, 'post')
    assert.ok(h, path)
    assert.equal(h.required, false)
    assert.equal(h.schema.maxLength, 255)
    assert.ok(doc.paths[path].post.responses['409'], path)
  }
  assert.equal(headerOf('/api/bookings', 'get'), undefined)
})

test('a 5xx answer is not stored: the key is released and the retry runs again', async () => {
  const user = await createUser(app)
  const lab = Fastify()
  lab.decorateRequest('user', null)
  registerErrorHandler(lab)
  idempotentRoutes(lab, app.ctx)
  let runs = 0
  lab.post(
    '/flaky',
    {
      config: { idempotent: true },
      onRequest: async (req) => {
        req.user = {
          id: user.id,
          name: 'u',
          email: user.email,
          phone: null,
          is_active: true,
          roles: [],
          tokenId: 0,
          locale: 'en',
        }
      },
    },
    async (_req, reply) => {
      runs++
      if (runs === 1) throw new Error('database went away')
      return reply.code(201).send({ run: runs })
    },
  )
  await lab.ready()
  try {
    const send = () =>
      lab.inject({ method: 'POST', url: '/flaky', headers: { 'idempotency-key': 'flaky-1' }, payload: { a: 1 } })
    assert.equal((await send()).statusCode, 500)
    const second = await send()
    assert.equal(second.statusCode, 201)
    assert.deepEqual(second.json(), { run: 2 })
    const third = await send()
    assert.equal(third.headers['idempotent-replayed'], 'true')
    assert.deepEqual(third.json(), { run: 2 })
    assert.equal(runs, 2)
  } finally {
    await lab.close()
  }
})
