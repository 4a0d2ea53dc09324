import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { build } from '../helpers/app.ts'
import { createCourt, createUser, createVenue, daysFromFixedNow, FIXED_NOW } from '../helpers/factories.ts'
import { rateLimitEnv } from '../helpers/rate-limit.ts'
import { insertBooking } from '../payments/helpers.ts'

// The default budget counts API work only (docs/deployment.md, "What is counted"): the web app's own
// files never spend it, however many a phone fetches, and the in-process payment sandbox's calls to
// the service itself are not charged to anyone.

const LIMIT = 5
let app: App
let web: string

before(async () => {
  // A built web app as `npm run build` writes it: the shell, a hashed script, an icon, the manifest
  // and the service worker.
  web = mkdtempSync(join(tmpdir(), 'courtside-web-'))
  mkdirSync(join(web, 'assets'))
  writeFileSync(join(web, 'index.html'), '<!doctype html><title>Courtside</title>')
  writeFileSync(join(web, 'assets/index-abc123.js'), 'console.log(1)')
  writeFileSync(join(web, 'assets/index-abc123.css'), 'body{}')
  writeFileSync(join(web, 'icon-192.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]))
  writeFileSync(join(web, 'manifest.webmanifest'), '{}')
  writeFileSync(join(web, 'sw.js'), 'self.addEventListener("fetch", () => {})')
  app = await build(undefined, rateLimitEnv({ RATE_LIMIT_DEFAULT: String(LIMIT), WEB_DIR: web }), {
    clock: new ManualClock(FIXED_NOW),
  })
})
after(async () => {
  await app.close()
  rmSync(web, { recursive: true, force: true })
})

test("the web app's files never spend the budget; the API and unknown paths do", async () => {
  const from = { remoteAddress: '10.9.0.1' }
  const files = [
    '/',
    '/assets/index-abc123.js',
    '/assets/index-abc123.css',
    '/icon-192.png',
    '/manifest.webmanifest',
    '/sw.js',
  ]
  for (let round = 0; round < 4; round++) {
    for (const url of files) {
      const res = await app.inject({ method: 'GET', url, ...from })
      assert.equal(res.statusCode, 200, `${url}, round ${round + 1}: ${res.statusCode}`)
      assert.equal(res.headers['x-ratelimit-limit'], undefined, url)
    }
  }
  // 24 files later, the address still has its whole budget for the API.
  const api = await app.inject({ method: 'GET', url: '/api/amenities', ...from })
  assert.equal(api.statusCode, 200)
  assert.equal(api.headers['x-ratelimit-remaining'], String(LIMIT - 1))
  // An unknown path is counted like the API.
  const unknown = await app.inject({ method: 'GET', url: '/api/no-such-thing', ...from })
  assert.equal(unknown.statusCode, 404)
  assert.equal(unknown.headers['x-ratelimit-remaining'], String(LIMIT - 2))
  for (let i = 0; i < LIMIT - 2; i++) await app.inject({ method: 'GET', url: '/api/amenities', ...from })
  assert.equal((await app.inject({ method: 'GET', url: '/api/amenities', ...from })).statusCode, 429)
  // Files are still served to the address the API refuses.
  assert.equal((await app.inject({ method: 'GET', url: '/assets/index-abc123.js', ...from })).statusCode, 200)
})

test("the sandbox gateway's calls to the service itself are not counted", async () => {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const venue = await createVenue(app, owner.id)
  const court = await createCourt(app, venue.id)
  // Each customer initiates within their own budget; the sandbox answers each initiation through the
  // service (Khalti's initiate: a call of the service to itself), 3 × LIMIT of them in all.
  for (let c = 0; c < 3; c++) {
    const customer = await createUser(app)
    for (let i = 0; i < LIMIT - 1; i++) {
      const booking = await insertBooking(app, {
        userId: customer.id,
        venueId: venue.id,
        courtId: court.id,
        total: 100000,
        date: daysFromFixedNow(2 + c),
        start: `${String(8 + i).padStart(2, '0')}:00`,
        end: `${String(9 + i).padStart(2, '0')}:00`,
      })
      const res = await app.inject({
        method: 'POST',
        url: '/api/payments/initiate',
        headers: customer.headers,
        payload: { booking_id: booking.id, method: 'gateway_2' },
      })
      assert.equal(res.statusCode, 201, `customer ${c + 1}, initiation ${i + 1}: ${res.body}`)
    }
  }
})

test('the header that marks a call to itself cannot be forged by a client', async () => {
  const from = { remoteAddress: '10.9.0.2' }
  for (let i = 0; i < LIMIT; i++) {
    const res = await app.inject({
      method: 'GET',
      url: '/api/amenities',
      headers: { 'x-courtside-internal': 'guess' },
      ...from,
    })
    assert.equal(res.statusCode, 200)
  }
  const refused = await app.inject({
    method: 'GET',
    url: '/api/amenities',
    headers: { 'x-courtside-internal': 'guess' },
    ...from,
  })
  assert.equal(refused.statusCode, 429)
})
