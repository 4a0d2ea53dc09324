import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { build } from '../helpers/app.ts'
import { assignStaff, createCourt, createUser, createVenue } from '../helpers/factories.ts'

let app: App
let owner: Awaited<ReturnType<typeof createUser>>
let venue: Awaited<ReturnType<typeof createVenue>>
let hidden: Awaited<ReturnType<typeof createVenue>>
let far: Awaited<ReturnType<typeof createVenue>>

before(async () => {
  app = await build()
  owner = await createUser(app, { roles: ['venue_owner'] })
  venue = await createVenue(app, owner.id, {
    name: 'Thamel Futsal',
    slug: 'thamel-futsal',
    latitude: 27.715,
    longitude: 85.31,
  })
  hidden = await createVenue(app, owner.id, { verification_status: 'pending', latitude: 27.715, longitude: 85.31 })
  far = await createVenue(app, owner.id, { latitude: 27.9, longitude: 85.31 })
  await createCourt(app, venue.id, { name: 'Court A' })
  await createCourt(app, venue.id, { name: 'Closed court', is_active: false })
  await app.ctx.db.insertInto('venue_amenities').values({ venue_id: venue.id, amenity_id: 1 }).execute()
})
after(() => app.close())

test('nearby lists public venues within 10 km by default, nearest first, with distance text', async () => {
  const res = await app.inject({ method: 'GET', url: '/api/venues/nearby?latitude=27.7172&longitude=85.324' })
  assert.equal(res.statusCode, 200)
  const body = res.json()
  assert.deepEqual(
    body.data.map((x: { id: number }) => x.id),
    [venue.id],
  )
  assert.match(body.data[0].distance, /^\d+\.\d{2} km$/)
  assert.equal(typeof body.data[0].distance_km, 'number')
  assert.equal(body.meta.total, 1)
  const wide = await app.inject({
    method: 'GET',
    url: '/api/venues/nearby?latitude=27.7172&longitude=85.324&radius=50',
  })
  assert.deepEqual(
    wide.json().data.map((x: { id: number }) => x.id),
    [venue.id, far.id],
  )
})

test('nearby requires latitude and longitude', async () => {
  const res = await app.inject({ method: 'GET', url: '/api/venues/nearby?latitude=27.7' })
  assert.equal(res.statusCode, 422)
  assert.deepEqual(res.json().errors, { longitude: ['The longitude field is required.'] })
})

test('show by slug or id returns the venue with courts, images and amenities', async () => {
  for (const key of ['thamel-futsal', String(venue.id)]) {
    const res = await app.inject({ method: 'GET', url: `/api/venues/${key}` })
    assert.equal(res.statusCode, 200)
    const data = res.json().data
    assert.equal(data.id, venue.id)
    assert.equal(data.slug, 'thamel-futsal')
    assert.deepEqual(
      data.courts.map((c: { name: string }) => c.name),
      ['Court A'],
    )
    assert.deepEqual(Object.keys(data.courts[0]).sort(), ['capacity', 'description', 'id', 'is_active', 'name', 'type'])
    assert.equal(data.courts_count, 1)
    assert.deepEqual(data.amenities, [{ id: 1, name: 'Parking', name_ne: 'पार्किङ', icon: 'parking' }])
    assert.deepEqual(data.images, [])
  }
})

test('a hidden venue is 404 for guests and customers, visible to its owner and staff and super_admin', async () => {
  const customer = await createUser(app)
  const staff = await createUser(app, { roles: ['staff'] })
  const admin = await createUser(app, { roles: ['super_admin'] })
  await assignStaff(app, hidden.id, staff.id, 'staff')
  assert.equal((await app.inject({ method: 'GET', url: `/api/venues/${hidden.slug}` })).statusCode, 404)
  const res = await app.inject({ method: 'GET', url: `/api/venues/${hidden.slug}`, headers: customer.headers })
  assert.equal(res.statusCode, 404)
  assert.deepEqual(res.json(), { message: 'Not found.' })
  for (const user of [owner, staff, admin]) {
    const ok = await app.inject({ method: 'GET', url: `/api/venues/${hidden.slug}`, headers: user.headers })
    assert.equal(ok.statusCode, 200)
    assert.equal(ok.json().data.verification_status, 'pending')
  }
})

test('a foreign owner, manager or staff gets 403 on show', async () => {
  for (const role of ['venue_owner', 'manager', 'staff'] as const) {
    const user = await createUser(app, { roles: [role] })
    const res = await app.inject({ method: 'GET', url: `/api/venues/${venue.slug}`, headers: user.headers })
    assert.equal(res.statusCode, 403, role)
    assert.deepEqual(res.json(), { message: 'This action is unauthorized.' })
  }
})

test('an unknown slug or id is 404, also for keys no slug can have', async () => {
  for (const key of ['no-such-venue', '999999', '99999999999999999999', '%00', 'a%20b', '%E0%A4%95']) {
    for (const url of [`/api/venues/${key}`, `/api/venues/${key}/reviews`, `/api/venues/${key}/courts`]) {
      const res = await app.inject({ method: 'GET', url })
      assert.equal(res.statusCode, 404, url)
      assert.deepEqual(res.json(), { message: 'Not found.' }, url)
    }
  }
})

test('my-venues is a bare array of the caller’s venues, any status; everything for super_admin', async () => {
  const res = await app.inject({ method: 'GET', url: '/api/venues/my-venues', headers: owner.headers })
  assert.equal(res.statusCode, 200)
  const body = res.json()
  assert.ok(Array.isArray(body))
  assert.deepEqual(body.map((x: { id: number }) => x.id).sort(), [venue.id, hidden.id, far.id].sort())
  const other = await createUser(app, { roles: ['venue_owner'] })
  const mine = await createVenue(app, other.id, { is_active: false, verification_status: 'unverified' })
  const manager = await createUser(app, { roles: ['manager'] })
  await assignStaff(app, mine.id, manager.id, 'manager')
  const m = await app.inject({ method: 'GET', url: '/api/venues/my-venues', headers: manager.headers })
  assert.deepEqual(
    m.json().map((x: { id: number }) => x.id),
    [mine.id],
  )
  const customer = await createUser(app)
  assert.deepEqual(
    (await app.inject({ method: 'GET', url: '/api/venues/my-venues', headers: customer.headers })).json(),
    [],
  )
  const admin = await createUser(app, { roles: ['super_admin'] })
  assert.equal(
    (await app.inject({ method: 'GET', url: '/api/venues/my-venues', headers: admin.headers })).json().length,
    4,
  )
  assert.equal((await app.inject({ method: 'GET', url: '/api/venues/my-venues' })).statusCode, 401)
})
