import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { loadConfig } from '../../src/config.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { build } from '../helpers/app.ts'
import { createCourt, createUser, createVenue, daysFromFixedNow, FIXED_NOW } from '../helpers/factories.ts'
import { insertBooking, simulate } from './helpers.ts'

// Open redirect (issue 32): return_url accepted any URL and scheme and the callback redirected to
// it. Now it must be under APP_URL (http://localhost:8000 in tests) or a RETURN_URL_ALLOWLIST prefix;
// anything else is 422 on return_url, and the callback only ever redirects to an allowed place.

// The app runs on a ManualClock at FIXED_NOW (Tuesday 10 March 2026, 09:00 venue time); booking
// dates count from that day, never from the machine's date.
let app: App
before(async () => {
  app = await build(
    undefined,
    { RETURN_URL_ALLOWLIST: 'courtside://, https://m.courtside.example' },
    { clock: new ManualClock(FIXED_NOW) },
  )
})
after(() => app.close())

let day = 0
async function booking() {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const venue = await createVenue(app, owner.id)
  const court = await createCourt(app, venue.id)
  const user = await createUser(app)
  const b = await insertBooking(app, {
    userId: user.id,
    venueId: venue.id,
    courtId: court.id,
    total: 150000,
    date: daysFromFixedNow(2 + day++),
  })
  return { user, booking: b }
}

const REFUSED = [
  'https://evil.example/phish',
  'http://evil.example',
  'javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'http://localhost:8000@evil.example/',
  'http://localhost:8001/paid',
  'https://localhost:8000/paid',
  'http://localhost:8000.evil.example/',
  'https://m.courtside.example.evil.example/',
  'https://m.courtside.example@evil.example/',
  'http:\\\\evil.example',
  'courtsidex://pay',
  'file:///etc/passwd',
  'not a url',
]
const ALLOWED = [
  'http://localhost:8000/paid?x=1',
  'http://localhost:8000',
  'courtside://payments/done',
  'COURTSIDE://payments/done',
  'https://m.courtside.example/back',
  'https://m.courtside.example',
]

test('payment initiation: return_url outside APP_URL and RETURN_URL_ALLOWLIST is 422 on return_url', async () => {
  const { user, booking: b } = await booking()
  for (const url of REFUSED) {
    const res = await app.inject({
      method: 'POST',
      url: '/api/payments/initiate',
      headers: user.headers,
      payload: { booking_id: b.id, method: 'gateway_1', return_url: url },
    })
    assert.equal(res.statusCode, 422, `${url}: ${res.body}`)
    assert.deepEqual(Object.keys(res.json().errors), ['return_url'], url)
  }
  for (const url of ALLOWED) {
    const res = await app.inject({
      method: 'POST',
      url: '/api/payments/initiate',
      headers: user.headers,
      payload: { booking_id: b.id, method: 'gateway_1', return_url: url },
    })
    assert.equal(res.statusCode, 201, `${url}: ${res.body}`)
  }
})

test('wallet top-up: the same rule', async () => {
  const user = await createUser(app)
  for (const url of REFUSED) {
    const res = await app.inject({
      method: 'POST',
      url: '/api/wallet/topup',
      headers: user.headers,
      payload: { amount: 100, method: 'gateway_2', return_url: url },
    })
    assert.equal(res.statusCode, 422, `${url}: ${res.body}`)
    assert.deepEqual(Object.keys(res.json().errors), ['return_url'], url)
  }
  const ok = await app.inject({
    method: 'POST',
    url: '/api/wallet/topup',
    headers: user.headers,
    payload: { amount: 100, method: 'gateway_2', return_url: 'courtside://wallet' },
  })
  assert.equal(ok.statusCode, 201, ok.body)
})

test('the callback redirects only to an allowed return_url; a stored one that is not allowed gets JSON', async () => {
  const { user, booking: b } = await booking()
  const res = await app.inject({
    method: 'POST',
    url: '/api/payments/initiate',
    headers: user.headers,
    payload: { booking_id: b.id, method: 'gateway_1', return_url: 'courtside://paid' },
  })
  assert.equal(res.statusCode, 201, res.body)
  const { payment, payment_url } = res.json().data
  // A row written before the rule (or before the allowlist changed) names another site.
  await app.ctx.db
    .updateTable('payments')
    .set({ return_url: 'https://evil.example/phish' })
    .where('id', '=', payment.id)
    .execute()
  const cb = await app.inject({ method: 'GET', url: await simulate(app, payment_url, 'success') })
  assert.equal(cb.statusCode, 200, cb.body)
  assert.equal(cb.headers.location, undefined)
  assert.equal(cb.json().data.status, 'completed')
})

test('RETURN_URL_ALLOWLIST entries need a scheme; a bare web origin allows only that origin', () => {
  const config = loadConfig({ RETURN_URL_ALLOWLIST: 'courtside://,https://m.example.com' })
  assert.deepEqual(config.returnUrlAllowlist, ['courtside://', 'https://m.example.com/'])
  assert.deepEqual(loadConfig({}).returnUrlAllowlist, [])
  for (const bad of ['example.com', 'javascript:', 'courtside']) {
    assert.throws(() => loadConfig({ RETURN_URL_ALLOWLIST: bad }), /RETURN_URL_ALLOWLIST/, bad)
  }
})
