import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { build } from '../helpers/app.ts'
import { assignStaff, createUser, createVenue } from '../helpers/factories.ts'
import { multipart } from './multipart.ts'

// Venues expose free_cancellation_hours (default 24); the owner and managers set it (0–720 hours).

let app: App
before(async () => {
  app = await build()
})
after(() => app.close())

async function venueWithTeam() {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const manager = await createUser(app, { roles: ['manager'] })
  const staff = await createUser(app, { roles: ['staff'] })
  const venue = await createVenue(app, owner.id)
  await assignStaff(app, venue.id, manager.id, 'manager')
  await assignStaff(app, venue.id, staff.id, 'staff')
  return { owner, manager, staff, venue }
}

function update(user: { headers: Record<string, string> } | undefined, venueId: number, payload: object) {
  return app.inject({ method: 'PATCH', url: `/api/venues/${venueId}`, headers: user?.headers, payload })
}

async function stored(venueId: number) {
  const v = await app.ctx.db
    .selectFrom('venues')
    .select('free_cancellation_hours')
    .where('id', '=', venueId)
    .executeTakeFirstOrThrow()
  return v.free_cancellation_hours
}

test('the Venue resource shows free_cancellation_hours; a new venue has 24 unless it says otherwise', async () => {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const body = {
    name: 'Refund Window Arena',
    address: 'Lazimpat',
    city: 'Kathmandu',
    state: 'Bagmati',
    latitude: 27.72,
    longitude: 85.32,
    opening_time: '06:00',
    closing_time: '22:00',
  }
  const made = await app.inject({ method: 'POST', url: '/api/venues', headers: owner.headers, payload: body })
  assert.equal(made.statusCode, 201, made.body)
  assert.equal(made.json().data.free_cancellation_hours, 24)
  const shown = await app.inject({
    method: 'GET',
    url: `/api/venues/${made.json().data.slug}`,
    headers: owner.headers,
  })
  assert.equal(shown.statusCode, 200, shown.body)
  assert.equal(shown.json().data.free_cancellation_hours, 24)
  const other = await app.inject({
    method: 'POST',
    url: '/api/venues',
    headers: owner.headers,
    payload: { ...body, name: 'Strict Arena', free_cancellation_hours: 48 },
  })
  assert.equal(other.statusCode, 201, other.body)
  assert.equal(other.json().data.free_cancellation_hours, 48)
})

test('the owner and a manager set free_cancellation_hours (0 to 720, JSON or multipart)', async () => {
  const { owner, manager, venue } = await venueWithTeam()
  let res = await update(owner, venue.id, { free_cancellation_hours: 0 })
  assert.equal(res.statusCode, 200, res.body)
  assert.equal(res.json().data.free_cancellation_hours, 0)
  assert.equal(await stored(venue.id), 0)
  res = await update(manager, venue.id, { free_cancellation_hours: 720 })
  assert.equal(res.statusCode, 200, res.body)
  assert.equal(res.json().data.free_cancellation_hours, 720)
  // Other fields leave it alone.
  res = await update(owner, venue.id, { name: 'Renamed Arena' })
  assert.equal(res.json().data.free_cancellation_hours, 720)
  const form = await multipart([['free_cancellation_hours', '36']])
  res = await app.inject({
    method: 'PUT',
    url: `/api/venues/${venue.id}`,
    headers: { ...owner.headers, ...form.headers },
    payload: form.payload,
  })
  assert.equal(res.statusCode, 200, res.body)
  assert.equal(res.json().data.free_cancellation_hours, 36)
  assert.equal(await stored(venue.id), 36)
})

test('free_cancellation_hours outside 0–720 or not an integer is 422 and changes nothing', async () => {
  const { owner, venue } = await venueWithTeam()
  const cases: Array<[unknown, string]> = [
    [-1, 'The free cancellation hours field must be at least 0.'],
    [721, 'The free cancellation hours field must not be greater than 720.'],
    [1.5, 'The free cancellation hours field must be an integer.'],
    ['soon', 'The free cancellation hours field must be an integer.'],
  ]
  for (const [value, message] of cases) {
    const res = await update(owner, venue.id, { free_cancellation_hours: value })
    assert.equal(res.statusCode, 422, `${value}: ${res.body}`)
    assert.deepEqual(res.json().errors.free_cancellation_hours, [message])
  }
  assert.equal(await stored(venue.id), 24)
})

test('staff, other owners, customers and guests cannot set free_cancellation_hours', async () => {
  const { staff, venue } = await venueWithTeam()
  const otherOwner = await createUser(app, { roles: ['venue_owner'] })
  const customer = await createUser(app)
  for (const who of [staff, otherOwner, customer]) {
    const res = await update(who, venue.id, { free_cancellation_hours: 1 })
    assert.equal(res.statusCode, 403, res.body)
    // Authorization comes before validation: an outsider never sees a 422.
    assert.equal((await update(who, venue.id, { free_cancellation_hours: 9999 })).statusCode, 403)
  }
  assert.equal((await update(undefined, venue.id, { free_cancellation_hours: 1 })).statusCode, 401)
  assert.equal(await stored(venue.id), 24)
})
