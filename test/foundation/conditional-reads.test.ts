import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { book, fixedSlot, world } from '../bookings/helpers.ts'
import { build } from '../helpers/app.ts'
import { createCourt, daysFromFixedNow, FIXED_NOW } from '../helpers/factories.ts'

// The public reads that send ETag and Cache-Control (src/lib/rendered.ts): 304 for a current
// If-None-Match, a new ETag once the answer changes, public for guests and private when signed in.

let app: App
before(async () => {
  // With the read cache on, as in production: a change must reach the ETag through its invalidation.
  app = await build(undefined, { CACHE_TTL_MS: '30000' }, { clock: new ManualClock(new Date(FIXED_NOW)) })
})
after(() => app.close())

const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers })

/** Until the cache has heard of a change (a NOTIFY round trip), the answer may still be the old one. */
async function eventually(check: () => Promise<boolean>) {
  for (let i = 0; i < 100; i++) {
    if (await check()) return
    await new Promise((r) => setTimeout(r, 20))
  }
  assert.fail('the answer did not change')
}

test('availability: ETag, 304 for a current one in any of its forms, 200 with a new one after a booking', async () => {
  const w = await world(app)
  const court = await createCourt(app, w.venue.id, { slot_minutes: 60, price_per_hour: 100000 })
  const url = `/api/courts/${court.id}/availability?date=${daysFromFixedNow(2)}`
  const first = await get(url)
  assert.equal(first.statusCode, 200)
  const etag = first.headers.etag as string
  assert.match(etag, /^"[\w-]{22}"$/)
  assert.equal(first.headers['cache-control'], 'public, max-age=0, s-maxage=5')
  assert.equal(first.headers.vary, 'Authorization')
  assert.equal((await get(url)).headers.etag, etag, 'the same answer, the same ETag')

  for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
    const res = await get(url, { 'if-none-match': ifNoneMatch })
    assert.equal(res.statusCode, 304, ifNoneMatch)
    assert.equal(res.body, '')
    assert.equal(res.headers.etag, etag)
    // The length of the 200 it stands for (RFC 9110 8.6), never a misleading 0.
    assert.equal(res.headers['content-length'], String(Buffer.byteLength(first.body)))
  }
  assert.equal((await get(url, { 'if-none-match': '"stale"' })).statusCode, 200)
  // HEAD too: 304, no body, the length of the 200.
  const head = await app.inject({ method: 'HEAD', url, headers: { 'if-none-match': etag } })
  assert.equal(head.statusCode, 304)
  assert.equal(head.body, '')
  assert.equal(head.headers['content-length'], String(Buffer.byteLength(first.body)))

  // A booking changes the grid: the old ETag no longer matches, and the new answer shows the slot taken.
  const booked = await book(app, w.customer, fixedSlot(court.id, 2, '10:00', '11:00'))
  assert.equal(booked.statusCode, 201, booked.body)
  await eventually(async () => (await get(url, { 'if-none-match': etag })).statusCode === 200)
  const after = await get(url, { 'if-none-match': etag })
  assert.notEqual(after.headers.etag, etag)
  const ten = after.json().slots.find((s: { start_time: string }) => s.start_time === '10:00')
  assert.equal(ten.is_available, false)
})

test('venue show and list: 304 for guests and signed-in users, private when signed in', async () => {
  const w = await world(app)
  const show = `/api/venues/${w.venue.slug}`
  const guest = await get(show)
  assert.equal(guest.statusCode, 200)
  assert.equal(guest.headers['cache-control'], 'public, max-age=0, s-maxage=30, stale-while-revalidate=30')
  assert.equal(guest.headers.vary, 'Authorization')
  const notModified = await get(show, { 'if-none-match': guest.headers.etag as string })
  assert.equal(notModified.statusCode, 304)

  const signedIn = await get(show, w.customer.headers)
  assert.equal(signedIn.statusCode, 200)
  assert.equal(signedIn.headers['cache-control'], 'private, no-cache')
  assert.equal(signedIn.headers.vary, 'Authorization')
  const again = await get(show, { ...w.customer.headers, 'if-none-match': signedIn.headers.etag as string })
  assert.equal(again.statusCode, 304)

  const list = '/api/venues?per_page=5'
  const page = await get(list)
  assert.equal(page.statusCode, 200)
  assert.ok(page.headers.etag)
  assert.equal((await get(list, { 'if-none-match': page.headers.etag as string })).statusCode, 304)

  // The owner's edit reaches the ETag.
  const edit = await app.inject({
    method: 'PATCH',
    url: show,
    headers: w.owner.headers,
    payload: { description: 'Floodlights until 22:00.' },
  })
  assert.equal(edit.statusCode, 200, edit.body)
  await eventually(async () => (await get(show, { 'if-none-match': guest.headers.etag as string })).statusCode === 200)
  assert.equal((await get(show)).json().data.description, 'Floodlights until 22:00.')
})

test('refusals and misses carry no validator', async () => {
  const missing = await get('/api/venues/no-such-venue')
  assert.equal(missing.statusCode, 404)
  assert.equal(missing.headers.etag, undefined)
  assert.equal(missing.headers['cache-control'], undefined)
  const invalid = await get('/api/courts/1/availability?date=tomorrow')
  assert.equal(invalid.statusCode, 422)
  assert.equal(invalid.headers.etag, undefined)
})
