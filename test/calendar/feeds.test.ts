import assert from 'node:assert/strict'
import { request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { addDays } from '../../src/lib/time.ts'
import { book, fixedSlot, world } from '../bookings/helpers.ts'
import { build } from '../helpers/app.ts'
import {
  createIndoorGame,
  createUser,
  createVenue,
  daysAfter,
  daysFromFixedNow,
  FIXED_NOW,
} from '../helpers/factories.ts'
import { insertBooking } from '../payments/helpers.ts'
import { fetchFeed, parseFeed, pathOf } from './helpers.ts'

// Calendar feeds (src/modules/calendar, docs/calendar.md) in the default zone, Asia/Kathmandu.

let app: App
before(async () => {
  app = await build(undefined, {}, { clock: new ManualClock(FIXED_NOW) })
})
after(() => app.close())

const URL_SHAPE = /^http:\/\/localhost:8000\/api\/calendar\/[A-Za-z0-9_-]{43}\.ics$/

const myFeed = async (user: { headers: Record<string, string> }, on: App = app) => {
  const res = await on.inject({ method: 'GET', url: '/api/calendar/feed', headers: user.headers })
  assert.equal(res.statusCode, 200, res.body)
  return res.json().data.url as string
}

test('GET /api/calendar/feed: {data: {url}}, the same URL every time, 401 without a token', async () => {
  const user = await createUser(app)
  const url = await myFeed(user)
  assert.match(url, URL_SHAPE)
  assert.equal(await myFeed(user), url)
  assert.notEqual(await myFeed(await createUser(app)), url)
  assert.equal((await app.inject({ method: 'GET', url: '/api/calendar/feed' })).statusCode, 401)
  assert.equal((await app.inject({ method: 'POST', url: '/api/calendar/feed/rotate' })).statusCode, 401)
})

test('concurrent first requests for a feed agree on one URL', async () => {
  const user = await createUser(app)
  const urls = await Promise.all(Array.from({ length: 10 }, () => myFeed(user)))
  assert.equal(new Set(urls).size, 1)
})

test("a user's feed: their court and indoor bookings from 30 days back, one valid VEVENT each", async (t) => {
  // The app's clock stands at noon of a fixed day (the one daysFromFixedNow counts from): the
  // window's first day (30 days back) is the same when the bookings are written and when the feed
  // is read, and the real date and hour play no part.
  const clock = new ManualClock(FIXED_NOW)
  const clocked = await build(t, {}, { clock })
  clock.set(clocked.ctx.zone.instant(daysFromFixedNow(0), '12:00'))
  const w = await world(clocked)
  const game = await createIndoorGame(clocked, w.venue.id, { name: 'PS5, Station; 1' })
  const courtRes = await book(clocked, w.customer, fixedSlot(w.court.id, 3, '18:00', '19:00'))
  assert.equal(courtRes.statusCode, 201, courtRes.body)
  const indoorRes = await clocked.inject({
    method: 'POST',
    url: '/api/indoor-game-bookings',
    headers: w.customer.headers,
    payload: { indoor_game_id: game.id, date: daysFromFixedNow(4), start_time: '10:00', end_time: '11:00' },
  })
  assert.equal(indoorRes.statusCode, 201, indoorRes.body)
  const recent = await insertBooking(clocked, {
    userId: w.customer.id,
    venueId: w.venue.id,
    courtId: w.court.id,
    total: 1000,
    date: addDays(daysFromFixedNow(0), -30),
    status: 'completed',
  })
  await insertBooking(clocked, {
    userId: w.customer.id,
    venueId: w.venue.id,
    courtId: w.court.id,
    total: 1000,
    date: addDays(daysFromFixedNow(0), -31),
    status: 'completed',
  })
  // Someone else's booking is not in this feed.
  const stranger = await createUser(clocked)
  assert.equal((await book(clocked, stranger, fixedSlot(w.court.id, 3, '20:00', '21:00'))).statusCode, 201)

  const res = await fetchFeed(clocked, await myFeed(w.customer, clocked))
  assert.equal(res.statusCode, 200)
  assert.equal(res.headers['content-type'], 'text/calendar; charset=utf-8')
  assert.match(String(res.headers.etag), /^"[A-Za-z0-9_-]+"$/)
  const feed = parseFeed(res.body)
  assert.deepEqual(feed.zones, ['Asia/Kathmandu'])
  assert.equal(feed.events.length, 3)
  const court = feed.events.find((e) => e.uid === `court-booking-${courtRes.json().data.id}@localhost`)
  assert.ok(court, JSON.stringify(feed.events.map((e) => e.uid)))
  assert.equal(court.summary, `${w.court.name} at ${w.venue.name}`)
  assert.ok(court.location.startsWith(`${w.court.name}, ${w.venue.name}`))
  assert.equal(court.status, 'TENTATIVE')
  assert.equal(court.tzid, 'Asia/Kathmandu')
  assert.equal(court.startLocal, `${daysFromFixedNow(3)}T18:00:00`)
  // Kathmandu is UTC+05:45 all year.
  assert.equal(court.start.toISOString(), `${daysFromFixedNow(3)}T12:15:00.000Z`)
  assert.equal(court.end.getTime() - court.start.getTime(), 3600_000)
  const indoor = feed.events.find((e) => e.uid === `indoor-booking-${indoorRes.json().data.id}@localhost`)
  assert.ok(indoor)
  // Commas and semicolons in names survive escaping.
  assert.equal(indoor.summary, `PS5, Station; 1 at ${w.venue.name}`)
  const old = feed.events.find((e) => e.uid === `court-booking-${recent.id}@localhost`)
  assert.equal(old?.status, 'CONFIRMED')
})

test('ETag and 304; a cancelled booking is CANCELLED in the next fetch with a higher SEQUENCE', async (t) => {
  // System clock on purpose: LAST-MODIFIED (updated_at) is stamped by the database's now() on create, the app's clock on cancel.
  const own = await build(t)
  const w = await world(own)
  const created = await book(own, w.customer, {
    court_id: w.court.id,
    date: daysAfter(own.ctx.clock.now(), 5),
    start_time: '09:00',
    end_time: '10:00',
  })
  const id = created.json().data.id
  const url = await myFeed(w.customer, own)
  const first = await fetchFeed(own, url)
  const etag = String(first.headers.etag)
  const before = parseFeed(first.body).events[0]
  assert.equal(before.status, 'TENTATIVE')

  const same = await fetchFeed(own, url, { 'if-none-match': etag })
  assert.equal(same.statusCode, 304)
  assert.equal(same.body, '')
  assert.equal(same.headers.etag, etag)
  assert.equal((await fetchFeed(own, url, { 'if-none-match': `"other", W/${etag}` })).statusCode, 304)
  assert.equal((await fetchFeed(own, url, { 'if-none-match': '"stale"' })).statusCode, 200)

  const cancel = await own.inject({
    method: 'PATCH',
    url: `/api/bookings/${id}/cancel`,
    headers: w.customer.headers,
    payload: { reason: 'Rain' },
  })
  assert.equal(cancel.statusCode, 200, cancel.body)
  const next = await fetchFeed(own, url, { 'if-none-match': etag })
  assert.equal(next.statusCode, 200)
  assert.notEqual(next.headers.etag, etag)
  const after = parseFeed(next.body).events[0]
  assert.equal(after.uid, before.uid)
  assert.equal(after.status, 'CANCELLED')
  assert.ok(after.sequence > before.sequence, `${after.sequence} > ${before.sequence}`)
  assert.ok(after.lastModified >= before.lastModified)
})

test('a 304 is bodyless: no body, no JSON content type, no content-length of a serialized null', async (t) => {
  const own = await build(t, {}, { clock: new ManualClock(FIXED_NOW) })
  const w = await world(own)
  await book(own, w.customer, fixedSlot(w.court.id, 5, '09:00', '10:00'))
  const res = await own.inject({ method: 'GET', url: '/api/calendar/feed', headers: w.customer.headers })
  const path = pathOf(res.json().data.url)
  const etag = String((await own.inject({ method: 'GET', url: path })).headers.etag)

  const injected = await own.inject({ method: 'GET', url: path, headers: { 'if-none-match': etag } })
  assert.equal(injected.statusCode, 304)
  assert.equal(injected.rawPayload.length, 0)
  assert.equal(injected.headers['content-type'], undefined)
  assert.equal(injected.headers['content-length'], undefined)
  assert.equal(injected.headers.etag, etag)

  // On the wire, as a calendar app sees it.
  await own.listen({ port: 0, host: '127.0.0.1' })
  const { port } = own.server.address() as AddressInfo
  const wire = await new Promise<{ status?: number; headers: Record<string, unknown>; body: Buffer }>(
    (resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path, headers: { 'if-none-match': etag }, agent: false }, (r) => {
        const chunks: Buffer[] = []
        r.on('data', (c: Buffer) => chunks.push(c))
        r.on('end', () => resolve({ status: r.statusCode, headers: r.headers, body: Buffer.concat(chunks) }))
      })
      req.on('error', reject)
      req.end()
    },
  )
  assert.equal(wire.status, 304)
  assert.equal(wire.body.length, 0)
  assert.doesNotMatch(String(wire.headers['content-type'] ?? ''), /json/)
  assert.equal(wire.headers['content-type'], undefined)
  assert.notEqual(wire.headers['content-length'], '4')
  assert.equal(wire.headers['content-length'], undefined)
  assert.equal(wire.headers.etag, etag)
  assert.equal(wire.headers['cache-control'], 'private, no-cache')
})

test('SEQUENCE grows with each change of a booking', async () => {
  const w = await world(app)
  const b = await insertBooking(app, {
    userId: w.customer.id,
    venueId: w.venue.id,
    courtId: w.court.id,
    total: 1000,
    date: daysFromFixedNow(6),
  })
  const url = await myFeed(w.customer)
  const seq = async () => parseFeed((await fetchFeed(app, url)).body).events[0].sequence
  const s0 = await seq()
  await app.ctx.db.updateTable('bookings').set({ status: 'confirmed' }).where('id', '=', b.id).execute()
  const s1 = await seq()
  await app.ctx.db
    .updateTable('bookings')
    .set({ start_time: '10:30', end_time: '11:30' })
    .where('id', '=', b.id)
    .execute()
  const s2 = await seq()
  // Bookkeeping that a calendar does not show (a reminder sent) changes no SEQUENCE.
  await app.ctx.db
    .updateTable('bookings')
    .set({ reminder_sent_at: app.ctx.clock.now() })
    .where('id', '=', b.id)
    .execute()
  const s3 = await seq()
  assert.ok(s0 < s1 && s1 < s2, `${s0} ${s1} ${s2}`)
  assert.equal(s3, s2)
})

test('rotate: a new URL, the old one is 404 at once; racing rotations leave exactly one working URL', async () => {
  const user = await createUser(app)
  const old = await myFeed(user)
  assert.equal((await fetchFeed(app, old)).statusCode, 200)
  const res = await app.inject({ method: 'POST', url: '/api/calendar/feed/rotate', headers: user.headers })
  assert.equal(res.statusCode, 200)
  const fresh = res.json().data.url
  assert.match(fresh, URL_SHAPE)
  assert.notEqual(fresh, old)
  const gone = await fetchFeed(app, old)
  assert.equal(gone.statusCode, 404)
  assert.deepEqual(gone.json(), { message: 'Not found.' })
  assert.equal((await fetchFeed(app, fresh)).statusCode, 200)
  assert.equal(await myFeed(user), fresh)

  const raced = await Promise.all(
    Array.from({ length: 8 }, () =>
      app.inject({ method: 'POST', url: '/api/calendar/feed/rotate', headers: user.headers }),
    ),
  )
  const urls = raced.map((r) => r.json().data.url as string)
  assert.equal(new Set(urls).size, 8)
  const codes = await Promise.all(urls.map(async (u) => (await fetchFeed(app, u)).statusCode))
  assert.equal(codes.filter((c) => c === 200).length, 1, codes.join(','))
  assert.equal(await myFeed(user), urls[codes.indexOf(200)])
})

test('unknown, malformed and over-long secrets are 404', async () => {
  for (const path of [
    `/api/calendar/${'A'.repeat(43)}.ics`,
    '/api/calendar/x.ics',
    '/api/calendar/%00.ics',
    `/api/calendar/${'a'.repeat(200)}.ics`,
    '/api/calendar/feed.ics',
  ]) {
    const res = await app.inject({ method: 'GET', url: path })
    assert.equal(res.statusCode, 404, `${path}: ${res.body}`)
  }
})

test("a venue's feed: owner, manager and staff each have their own URL with every booking of the venue", async () => {
  const w = await world(app)
  const other = await createUser(app)
  const a = await book(app, w.customer, fixedSlot(w.court.id, 3, '10:00', '11:00'))
  const b = await book(app, other, fixedSlot(w.court.id, 3, '11:00', '12:00'))
  assert.equal(a.statusCode, 201)
  assert.equal(b.statusCode, 201)
  // Another venue's booking stays out.
  const elsewhere = await world(app)
  assert.equal(
    (await book(app, elsewhere.customer, fixedSlot(elsewhere.court.id, 3, '10:00', '11:00'))).statusCode,
    201,
  )

  const urlFor = (headers: Record<string, string>, venue: string | number = w.venue.id) =>
    app.inject({ method: 'GET', url: `/api/venues/${venue}/calendar/feed`, headers })
  const urls = await Promise.all([w.owner, w.manager, w.staff].map((u) => urlFor(u.headers)))
  for (const r of urls) assert.equal(r.statusCode, 200, r.body)
  const url = urls[0].json().data.url
  for (const r of urls) assert.match(r.json().data.url, URL_SHAPE)
  // One feed per membership (it dies with it), the same URL every time for its member.
  assert.equal(new Set(urls.map((r) => r.json().data.url)).size, 3)
  assert.equal((await urlFor(w.owner.headers, w.venue.slug)).json().data.url, url)
  assert.equal((await urlFor(w.staff.headers)).json().data.url, urls[2].json().data.url)
  assert.notEqual(url, await myFeed(w.owner))

  for (const r of urls) {
    const feed = parseFeed((await fetchFeed(app, r.json().data.url)).body)
    assert.deepEqual(
      feed.events.map((e) => e.uid).sort(),
      [`court-booking-${a.json().data.id}@localhost`, `court-booking-${b.json().data.id}@localhost`].sort(),
    )
    for (const e of feed.events) {
      assert.equal(e.summary, `${w.court.name} at ${w.venue.name}`)
      assert.ok(e.location.includes(w.court.name))
      assert.match(e.description, /Customer: /)
    }
  }
})

test("a removed staff member's venue feed dies with the membership (issue 32); the others keep working", async () => {
  const w = await world(app)
  const urlOf = async (headers: Record<string, string>) =>
    (await app.inject({ method: 'GET', url: `/api/venues/${w.venue.id}/calendar/feed`, headers })).json().data.url
  const staffUrl = await urlOf(w.staff.headers)
  const managerUrl = await urlOf(w.manager.headers)
  const ownerUrl = await urlOf(w.owner.headers)
  assert.equal((await fetchFeed(app, staffUrl)).statusCode, 200)

  const removed = await app.inject({
    method: 'DELETE',
    url: `/api/venues/${w.venue.id}/staff/${w.staff.id}`,
    headers: w.owner.headers,
  })
  assert.equal(removed.statusCode, 200, removed.body)
  const gone = await fetchFeed(app, staffUrl)
  assert.equal(gone.statusCode, 404)
  assert.deepEqual(gone.json(), { message: 'Not found.' })
  assert.equal((await fetchFeed(app, managerUrl)).statusCode, 200)
  assert.equal((await fetchFeed(app, ownerUrl)).statusCode, 200)

  // A suspended manager's feed is 404, like their account.
  await app.ctx.db.updateTable('users').set({ is_active: false }).where('id', '=', w.manager.id).execute()
  assert.equal((await fetchFeed(app, managerUrl)).statusCode, 404)
  // The owner who gives the venue away loses its feed too.
  const other = await createUser(app, { roles: ['venue_owner'] })
  await app.ctx.db.updateTable('venues').set({ owner_id: other.id }).where('id', '=', w.venue.id).execute()
  assert.equal((await fetchFeed(app, ownerUrl)).statusCode, 404)
})

test('venue feeds refuse customers, other venues and anonymous callers; only owner and manager rotate', async () => {
  const w = await world(app)
  const strangerOwner = await createUser(app, { roles: ['venue_owner'] })
  await createVenue(app, strangerOwner.id)
  const get = (headers: Record<string, string> | undefined, venue: string | number = w.venue.id) =>
    app.inject({ method: 'GET', url: `/api/venues/${venue}/calendar/feed`, headers })
  const rotate = (headers: Record<string, string> | undefined) =>
    app.inject({ method: 'POST', url: `/api/venues/${w.venue.id}/calendar/feed/rotate`, headers })
  assert.equal((await get(undefined)).statusCode, 401)
  assert.equal((await get(w.customer.headers)).statusCode, 403)
  assert.equal((await get(strangerOwner.headers)).statusCode, 403)
  assert.equal((await get(w.owner.headers, 999999999)).statusCode, 404)
  assert.equal((await get(w.owner.headers, 'no-such-venue')).statusCode, 404)
  assert.equal((await rotate(undefined)).statusCode, 401)
  assert.equal((await rotate(w.staff.headers)).statusCode, 403)
  assert.equal((await rotate(w.customer.headers)).statusCode, 403)

  const staffUrl = (await get(w.staff.headers)).json().data.url
  const old = (await get(w.manager.headers)).json().data.url
  const res = await rotate(w.manager.headers)
  assert.equal(res.statusCode, 200)
  assert.equal((await fetchFeed(app, old)).statusCode, 404)
  assert.equal((await fetchFeed(app, res.json().data.url)).statusCode, 200)
  assert.equal((await get(w.manager.headers)).json().data.url, res.json().data.url)
  // A manager rotates their own feed; the staff member's stays as it was.
  assert.equal((await get(w.staff.headers)).json().data.url, staffUrl)
  assert.equal((await fetchFeed(app, staffUrl)).statusCode, 200)
})

test("a suspended user's feed and a deleted venue's feed are 404", async () => {
  const w = await world(app)
  const mine = await myFeed(w.customer)
  const venueUrl = (
    await app.inject({ method: 'GET', url: `/api/venues/${w.venue.id}/calendar/feed`, headers: w.owner.headers })
  ).json().data.url
  await app.ctx.db.updateTable('users').set({ is_active: false }).where('id', '=', w.customer.id).execute()
  await app.ctx.db.updateTable('venues').set({ deleted_at: app.ctx.clock.now() }).where('id', '=', w.venue.id).execute()
  assert.equal((await fetchFeed(app, mine)).statusCode, 404)
  assert.equal((await fetchFeed(app, venueUrl)).statusCode, 404)
})

test('the feed routes are in the OpenAPI document; the .ics route is public', async () => {
  const doc = (await app.inject({ method: 'GET', url: '/docs/json' })).json()
  const ics = doc.paths['/api/calendar/{secret}.ics']?.get
  assert.ok(
    ics,
    Object.keys(doc.paths)
      .filter((p) => p.includes('calendar'))
      .join(','),
  )
  assert.deepEqual(ics.security, [])
  assert.ok(ics.responses['200'].content['text/calendar'])
  // A 304 has no body: no content, only the validators it repeats.
  assert.equal(ics.responses['304'].content, undefined)
  assert.deepEqual(Object.keys(ics.responses['304'].headers).sort(), ['cache-control', 'etag'])
  for (const [path, method] of [
    ['/api/calendar/feed', 'get'],
    ['/api/calendar/feed/rotate', 'post'],
    ['/api/venues/{venue}/calendar/feed', 'get'],
    ['/api/venues/{venue}/calendar/feed/rotate', 'post'],
  ]) {
    const op = doc.paths[path]?.[method]
    assert.ok(op?.operationId, path)
    assert.deepEqual(op.security, [{ bearer: [] }])
  }
})
