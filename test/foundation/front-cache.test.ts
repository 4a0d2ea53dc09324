import assert from 'node:assert/strict'
import type { AddressInfo } from 'node:net'
import { test } from 'node:test'
import type { App } from '../../src/app.ts'
import { cacheTags } from '../../src/lib/cache-tags.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { book, fixedSlot, world } from '../bookings/helpers.ts'
import { build, heardAll } from '../helpers/app.ts'
import { createCourt, daysFromFixedNow, FIXED_NOW } from '../helpers/factories.ts'
import { parsePrometheus, sampleValue } from '../helpers/prometheus.ts'
import { rateLimitEnv } from '../helpers/rate-limit.ts'

// The front cache (src/lib/front-cache.ts): a guest's GET of a cached public read answered before
// routing from the whole answer the same URL got last time. Over a real socket: app.inject() calls
// Fastify's handler directly, past the server the front cache sits in.

const AVAILABILITY_ROUTE = '/api/courts/:court/availability'

interface Served {
  status: number
  headers: Record<string, string>
  body: string
}

async function listening(app: App) {
  await app.listen({ port: 0, host: '127.0.0.1' })
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
  return async (path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Served> => {
    const res = await fetch(base + path, { method, headers })
    return { status: res.status, headers: Object.fromEntries(res.headers), body: await res.text() }
  }
}

/** Runs `request`; true when the front cache answered it. */
async function fromFront(app: App, request: () => Promise<unknown>) {
  const before = app.ctx.front.hits
  await request()
  return app.ctx.front.hits === before + 1
}

/** Until the cache has heard of a change (a NOTIFY round trip), the answer may still be the old one. */
async function eventually(check: () => Promise<boolean>) {
  for (let i = 0; i < 100; i++) {
    if (await check()) return
    await new Promise((r) => setTimeout(r, 20))
  }
  assert.fail('the answer did not change')
}

const withoutOwn = (h: Record<string, string>) => {
  const { date: _date, 'x-request-id': _id, ...rest } = h
  return rest
}

test('a guest read is answered before routing once kept, with the same bytes and headers', async (t) => {
  const app = await build(t, { CACHE_TTL_MS: '30000' }, { clock: new ManualClock(new Date(FIXED_NOW)) })
  const get = await listening(app)
  const w = await world(app)
  await heardAll(app)
  const url = `/api/courts/${w.court.id}/availability?date=${daysFromFixedNow(2)}`

  const loaded = await get(url) // a read-cache miss: a promise, not kept
  let viaFastify: Served | undefined
  assert.equal(await fromFront(app, async () => (viaFastify = await get(url))), false, 'a hit through Fastify keeps it')
  let front: Served | undefined
  assert.equal(await fromFront(app, async () => (front = await get(url))), true)
  assert.ok(viaFastify && front)
  assert.equal(front.status, 200)
  assert.equal(front.body, loaded.body)
  assert.equal(front.body, viaFastify.body)
  assert.deepEqual(withoutOwn(front.headers), withoutOwn(viaFastify.headers))
  assert.equal(front.headers['cache-control'], 'public, max-age=0, s-maxage=5')
  assert.equal(front.headers['x-frame-options'], 'DENY')
  assert.match(front.headers['x-request-id'], /^[0-9a-f-]{36}$/)
  assert.notEqual(front.headers['x-request-id'], viaFastify.headers['x-request-id'])
  const named = await get(url, { 'x-request-id': 'probe-42' })
  assert.equal(named.headers['x-request-id'], 'probe-42', 'a given request id is answered')

  // The venue, a venue page of the catalogue and a venue list too.
  for (const path of [`/api/venues/${w.venue.slug}`, '/api/venues?per_page=5', '/api/venues?city=Kathmandu']) {
    const first = await get(path)
    assert.equal(first.status, 200, path)
    await get(path)
    let kept: Served | undefined
    assert.equal(await fromFront(app, async () => (kept = await get(path))), true, path)
    assert.equal(kept?.body, first.body, path)
  }

  // What the front cache answered is in the request histogram and counted in /metrics.
  const metrics = parsePrometheus((await get('/metrics')).body)
  const count = sampleValue(metrics, 'http_request_duration_seconds', 'http_request_duration_seconds_count', {
    method: 'GET',
    route: AVAILABILITY_ROUTE,
    status: '200',
  })
  assert.equal(count, 4)
  assert.equal(sampleValue(metrics, 'front_cache_hits_total', 'front_cache_hits_total'), app.ctx.front.hits)
})

test('an invalidation drops the kept answer at once; a booking shows on the next reads', async (t) => {
  const app = await build(t, { CACHE_TTL_MS: '30000' }, { clock: new ManualClock(new Date(FIXED_NOW)) })
  const get = await listening(app)
  const w = await world(app)
  const court = await createCourt(app, w.venue.id, { slot_minutes: 60, price_per_hour: 100000 })
  await heardAll(app)
  const url = `/api/courts/${court.id}/availability?date=${daysFromFixedNow(2)}`
  await get(url)
  await get(url)
  assert.equal(await fromFront(app, () => get(url)), true)

  // Within the same instance, with no NOTIFY round trip: the tag of the day drops the kept answer too.
  app.ctx.cache.invalidate(cacheTags.court(court.id))
  assert.equal(await fromFront(app, () => get(url)), false)

  await get(url)
  assert.equal(await fromFront(app, () => get(url)), true)
  const booked = await book(app, w.customer, fixedSlot(court.id, 2, '10:00', '11:00'))
  assert.equal(booked.statusCode, 201, booked.body)
  const ten = (s: Served) =>
    (JSON.parse(s.body).slots as { start_time: string; is_available: boolean }[]).find((x) => x.start_time === '10:00')
  await eventually(async () => ten(await get(url))?.is_available === false)
  // From then on every read says so, whichever way it is answered.
  for (let i = 0; i < 3; i++) assert.equal(ten(await get(url))?.is_available, false)
  assert.equal(await fromFront(app, () => get(url)), true)

  // The venue's page: an owner's edit reaches guests, and the old page is not served again.
  const show = `/api/venues/${w.venue.slug}`
  await get(show)
  await get(show)
  assert.equal(await fromFront(app, () => get(show)), true)
  const edit = await app.inject({
    method: 'PATCH',
    url: `/api/venues/${w.venue.id}`,
    headers: w.owner.headers,
    payload: { description: 'Floodlit, with changing rooms.' },
  })
  assert.equal(edit.statusCode, 200, edit.body)
  await eventually(async () => JSON.parse((await get(show)).body).data.description === 'Floodlit, with changing rooms.')
  for (let i = 0; i < 3; i++) {
    assert.equal(JSON.parse((await get(show)).body).data.description, 'Floodlit, with changing rooms.')
  }
})

test("today's kept availability goes when its next slot starts, though the day is still cached", async (t) => {
  // A TTL of two hours: the cached day outlives the slot start, so only the answer's own expiry can drop it.
  const clock = new ManualClock(new Date(FIXED_NOW))
  clock.advance(60_000) // 09:01 in Kathmandu: the next slot starts at 10:00
  const app = await build(t, { CACHE_TTL_MS: String(2 * 3600_000) }, { clock })
  const get = await listening(app)
  const w = await world(app)
  const court = await createCourt(app, w.venue.id, { slot_minutes: 60, price_per_hour: 100000 })
  await heardAll(app)
  const url = `/api/courts/${court.id}/availability?date=${daysFromFixedNow(0)}`
  const slotAt = (s: Served, start: string) =>
    (JSON.parse(s.body).slots as { start_time: string; is_available: boolean }[]).find((x) => x.start_time === start)
  await get(url)
  await get(url)
  let before: Served | undefined
  assert.equal(await fromFront(app, async () => (before = await get(url))), true)
  assert.ok(before)
  assert.equal(slotAt(before, '10:00')?.is_available, true)

  clock.advance(60 * 60_000) // 10:01: the 10:00 slot has started
  let after: Served | undefined
  assert.equal(await fromFront(app, async () => (after = await get(url))), false)
  assert.ok(after)
  assert.equal(slotAt(after, '10:00')?.is_available, false)
  assert.equal(slotAt(after, '11:00')?.is_available, true)
})

test('past midnight a kept day is 422 like any past date, not its old answer', async (t) => {
  // 23:50 in Kathmandu: every slot of the day has started, so only the day's end can drop its answer.
  const clock = new ManualClock(new Date('2026-03-10T18:05:00Z'))
  const app = await build(t, { CACHE_TTL_MS: String(2 * 3600_000) }, { clock })
  const get = await listening(app)
  const w = await world(app)
  await heardAll(app)
  const url = `/api/courts/${w.court.id}/availability?date=2026-03-10`
  await get(url)
  await get(url)
  assert.equal(await fromFront(app, () => get(url)), true)
  clock.advance(20 * 60_000) // 00:10 on the 11th
  let past: Served | undefined
  assert.equal(await fromFront(app, async () => (past = await get(url))), false)
  assert.equal(past?.status, 422)
})

test("only one spelling of a URL is kept: no extra query keys, no percent-encoding, no leading zeros; a GET with a body type is Fastify's", async (t) => {
  const app = await build(t, { CACHE_TTL_MS: '30000' }, { clock: new ManualClock(new Date(FIXED_NOW)) })
  const get = await listening(app)
  const w = await world(app)
  await heardAll(app)
  const date = daysFromFixedNow(2)
  const plain = `/api/courts/${w.court.id}/availability?date=${date}`
  for (const url of [
    `${plain}&_=1764000000`,
    `${plain}&date=${date}`,
    `/api/courts/${w.court.id}/availability?date=${date.replace('-', '%2D')}`,
    `/api/courts/00${w.court.id}/availability?date=${date}`,
  ]) {
    const answers = [await get(url), await get(url)]
    assert.equal(await fromFront(app, () => get(url)), false, url)
    assert.ok(
      answers.every((a) => a.status === answers[0].status),
      url,
    )
  }
  // The court's id written with leading zeros is the same court: answered, never kept.
  assert.equal((await get(`/api/courts/00${w.court.id}/availability?date=${date}`)).status, 200)
  await get(plain)
  await get(plain)
  assert.equal(await fromFront(app, () => get(plain)), true)
  // A value that only starts with a zero is its one spelling, and kept.
  const near = '/api/venues?lat=0.5&lng=85.32&radius=500'
  assert.equal((await get(near)).status, 200)
  await get(near)
  assert.equal(await fromFront(app, () => get(near)), true, near)
  let typed: Served | undefined
  assert.equal(
    await fromFront(app, async () => (typed = await get(plain, { 'content-type': 'multipart/form-data; boundary=x' }))),
    false,
  )
  assert.notEqual(typed?.status, undefined)
})

test('signed-in, conditional and HEAD requests take the full path; so does every request once shutdown has begun', async (t) => {
  const opsState = { draining: false }
  const app = await build(t, { CACHE_TTL_MS: '30000' }, { clock: new ManualClock(new Date(FIXED_NOW)), opsState })
  const get = await listening(app)
  const w = await world(app)
  await heardAll(app)
  const url = `/api/courts/${w.court.id}/availability?date=${daysFromFixedNow(3)}`
  await get(url)
  const guest = await get(url)
  assert.equal(await fromFront(app, () => get(url)), true)

  let signedIn: Served | undefined
  assert.equal(await fromFront(app, async () => (signedIn = await get(url, w.customer.headers))), false)
  assert.equal(signedIn?.headers['cache-control'], 'private, no-cache')
  assert.equal(signedIn?.body, guest.body)

  let conditional: Served | undefined
  assert.equal(
    await fromFront(app, async () => (conditional = await get(url, { 'if-none-match': guest.headers.etag }))),
    false,
  )
  assert.equal(conditional?.status, 304)

  let head: Served | undefined
  assert.equal(await fromFront(app, async () => (head = await get(url, {}, 'HEAD'))), false)
  assert.equal(head?.status, 200)
  assert.equal(head?.body, '')

  opsState.draining = true
  let draining: Served | undefined
  assert.equal(await fromFront(app, async () => (draining = await get(url))), false)
  assert.equal(draining?.status, 200)
})

test('with rate limiting on, answers from the front count against the address and the limit refuses with 429', async (t) => {
  const app = await build(
    t,
    // In Redis when the run has REDIS_URL (CI's PostgreSQL run): the count then takes a round trip.
    rateLimitEnv({ CACHE_TTL_MS: '30000', RATE_LIMIT_DEFAULT: '5' }),
    { clock: new ManualClock(new Date(FIXED_NOW)) },
  )
  const get = await listening(app)
  const w = await world(app)
  await heardAll(app)
  const url = `/api/courts/${w.court.id}/availability?date=${daysFromFixedNow(2)}`
  const remaining: string[] = []
  let fronted = 0
  for (let i = 0; i < 5; i++) {
    const before = app.ctx.front.hits
    const res = await get(url)
    assert.equal(res.status, 200)
    assert.equal(res.headers['x-ratelimit-limit'], '5')
    remaining.push(res.headers['x-ratelimit-remaining'])
    fronted += app.ctx.front.hits - before
  }
  assert.deepEqual(remaining, ['4', '3', '2', '1', '0'], 'one count per request, whichever way it was answered')
  assert.equal(fronted, 3)
  const refused = await get(url)
  assert.equal(refused.status, 429)
  assert.deepEqual(JSON.parse(refused.body), { message: 'Too Many Attempts.' })
})

test('the log line of an answer from the front is the same as through Fastify', async (t) => {
  const lines: Record<string, unknown>[] = []
  const app = await build(
    t,
    { CACHE_TTL_MS: '30000', LOG_LEVEL: 'info' },
    { clock: new ManualClock(new Date(FIXED_NOW)), logStream: { write: (l) => lines.push(JSON.parse(l)) } },
  )
  const get = await listening(app)
  const w = await world(app)
  await heardAll(app)
  const url = `/api/courts/${w.court.id}/availability?date=${daysFromFixedNow(2)}`
  await get(url)
  await get(url)
  assert.equal(await fromFront(app, () => get(url, { 'x-request-id': 'front-1' })), true)
  const line = lines.find((l) => l.reqId === 'front-1')
  assert.ok(line, 'a log line for the request')
  assert.equal(line.msg, 'request')
  assert.equal(line.method, 'GET')
  assert.equal(line.route, AVAILABILITY_ROUTE)
  assert.equal(line.status, 200)
  assert.equal(typeof line.ms, 'number')
  const viaFastify = lines.find((l) => l.msg === 'request' && l.route === AVAILABILITY_ROUTE && l.reqId !== 'front-1')
  assert.deepEqual(Object.keys(line), Object.keys(viaFastify ?? {}))
})

test('behind a trusted proxy the front counts the forwarded client, as the limit itself does', async (t) => {
  const app = await build(
    t,
    rateLimitEnv({ CACHE_TTL_MS: '30000', RATE_LIMIT_DEFAULT: '4', TRUST_PROXY: '127.0.0.1' }),
    { clock: new ManualClock(new Date(FIXED_NOW)) },
  )
  const get = await listening(app)
  const w = await world(app)
  await heardAll(app)
  const url = `/api/courts/${w.court.id}/availability?date=${daysFromFixedNow(2)}`
  const from = (client: string) => get(url, { 'x-forwarded-for': client })
  const left = async (client: string) => (await from(client)).headers['x-ratelimit-remaining']
  assert.deepEqual([await left('203.0.113.7'), await left('203.0.113.7')], ['3', '2'])
  let fronted: Served | undefined
  assert.equal(await fromFront(app, async () => (fronted = await from('203.0.113.7'))), true)
  assert.equal(fronted?.headers['x-ratelimit-remaining'], '1')
  assert.equal(await left('198.51.100.9'), '3', 'another client behind the proxy has a bucket of its own')
  assert.equal(await left('203.0.113.7'), '0')
  assert.equal((await from('203.0.113.7')).status, 429)
})
