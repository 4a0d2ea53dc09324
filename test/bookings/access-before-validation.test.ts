import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { build } from '../helpers/app.ts'
import {
  createCourt,
  createIndoorGame,
  createUser,
  createVenue,
  daysFromFixedNow,
  FIXED_NOW,
  type TestUser,
} from '../helpers/factories.ts'
import { insertBooking } from '../payments/helpers.ts'

// Who may act is decided before the body is validated, the same way on court and indoor routes
// (each module's hooks.ts): a stranger sending a bad body gets 403 and learns nothing about the
// body's rules; an unknown booking is 404; the people allowed get the 422 with its details.

let app: App
let stranger: TestUser
let customer: TestUser
let staff: TestUser
let venueId: number
let court: { id: number; booking: number }
let indoor: { id: number; booking: number }

before(async () => {
  app = await build(undefined, {}, { clock: new ManualClock(FIXED_NOW) })
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const venue = await createVenue(app, owner.id)
  venueId = venue.id
  staff = owner
  stranger = await createUser(app)
  customer = await createUser(app)
  const c = await createCourt(app, venue.id)
  const g = await createIndoorGame(app, venue.id)
  const date = daysFromFixedNow(5)
  const common = { userId: customer.id, venueId: venue.id, total: 100000, date }
  court = { id: c.id, booking: (await insertBooking(app, { ...common, courtId: c.id })).id }
  indoor = { id: g.id, booking: (await insertBooking(app, { ...common, courtId: c.id, indoorGameId: g.id })).id }
})
after(() => app.close())

/** The same routes of both kinds, each with a body validation refuses. */
function routes(kind: 'court' | 'indoor') {
  const base = kind === 'court' ? '/api/bookings' : '/api/indoor-game-bookings'
  const id = kind === 'court' ? court.booking : indoor.booking
  const venueList = kind === 'court' ? `/api/venues/${venueId}/bookings` : `/api/venues/${venueId}/indoor-game-bookings`
  const reasonField = kind === 'court' ? 'reason' : 'cancel_reason'
  return {
    owner: [{ method: 'PATCH' as const, url: `${base}/${id}/cancel`, payload: { [reasonField]: 12345 } }],
    desk: [
      { method: 'PATCH' as const, url: `${base}/${id}/status`, payload: { status: 'bogus' } },
      { method: 'POST' as const, url: `${base}/${id}/charges`, payload: { amount: 'lots' } },
      { method: 'POST' as const, url: `${base}/${id}/payments`, payload: { amount: true } },
      { method: 'POST' as const, url: venueList, payload: { customer_name: 42 } },
    ],
  }
}

for (const kind of ['court', 'indoor'] as const) {
  test(`${kind}: a stranger with a bad body gets 403, not the 422 that describes it`, async () => {
    const r = routes(kind)
    for (const req of [...r.owner, ...r.desk]) {
      const res = await app.inject({ ...req, headers: stranger.headers })
      assert.equal(res.statusCode, 403, `${req.method} ${req.url}: ${res.body}`)
      assert.deepEqual(res.json(), { message: 'This action is unauthorized.' })
    }
    // The customer is no desk worker either.
    for (const req of r.desk) {
      const res = await app.inject({ ...req, headers: customer.headers })
      assert.equal(res.statusCode, 403, `${req.method} ${req.url}: ${res.body}`)
    }
  })

  test(`${kind}: the people allowed get the validation details; an unknown booking is 404 first`, async () => {
    const r = routes(kind)
    for (const req of r.owner) {
      const res = await app.inject({ ...req, headers: customer.headers })
      assert.equal(res.statusCode, 422, `${req.method} ${req.url}: ${res.body}`)
      assert.equal(res.json().message, 'The given data was invalid.')
    }
    for (const req of r.desk) {
      const res = await app.inject({ ...req, headers: staff.headers })
      assert.equal(res.statusCode, 422, `${req.method} ${req.url}: ${res.body}`)
      assert.equal(res.json().message, 'The given data was invalid.')
    }
    const base = kind === 'court' ? '/api/bookings' : '/api/indoor-game-bookings'
    for (const url of [`${base}/999999/status`, `${base}/999999/cancel`]) {
      const res = await app.inject({ method: 'PATCH', url, headers: stranger.headers, payload: { status: 'bogus' } })
      assert.equal(res.statusCode, 404, `${url}: ${res.body}`)
    }
  })
}
