import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { build } from '../helpers/app.ts'
import { assignStaff, createCourt, createUser, createVenue, daysFromFixedNow, FIXED_NOW } from '../helpers/factories.ts'
import { payInsertedBookings } from '../helpers/ledger.ts'
import { multipart, PNG } from './multipart.ts'

let app: App
before(async () => {
  app = await build(undefined, {}, { clock: new ManualClock(FIXED_NOW) })
})
after(() => app.close())

const body = {
  name: 'Baneshwor Futsal Hub',
  address: 'New Baneshwor',
  city: 'Kathmandu',
  state: 'Bagmati',
  latitude: 27.6915,
  longitude: 85.3416,
  opening_time: '06:00',
  closing_time: '21:30:00',
  phone: '+9779800000000',
  amenities: [1, 6],
}

test('an owner creates a venue from JSON: unverified, active, slug from the name', async () => {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const res = await app.inject({ method: 'POST', url: '/api/venues', headers: owner.headers, payload: body })
  assert.equal(res.statusCode, 201, res.body)
  const v = res.json().data
  assert.equal(v.name, 'Baneshwor Futsal Hub')
  assert.equal(v.slug, 'baneshwor-futsal-hub')
  assert.equal(v.verification_status, 'unverified')
  assert.equal(v.is_verified, false)
  assert.equal(v.is_active, true)
  assert.equal(v.opening_time, '06:00:00')
  assert.equal(v.closing_time, '21:30:00')
  assert.equal(v.latitude, '27.6915000')
  assert.equal(v.phone, '+9779800000000')
  assert.deepEqual(
    v.amenities.map((a: { id: number }) => a.id),
    [1, 6],
  )
  const row = await app.ctx.db.selectFrom('venues').select('owner_id').where('id', '=', v.id).executeTakeFirstOrThrow()
  assert.equal(row.owner_id, owner.id)
  // Same name again: a unique slug.
  const again = await app.inject({ method: 'POST', url: '/api/venues', headers: owner.headers, payload: body })
  assert.equal(again.json().data.slug, 'baneshwor-futsal-hub-2')
})

test('a venue is created from multipart with a thumbnail and a gallery', async () => {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const form = await multipart([
    ['name', 'Photo Arena'],
    ['address', 'Lakeside'],
    ['city', 'Pokhara'],
    ['state', 'Gandaki'],
    ['latitude', '28.2096'],
    ['longitude', '83.9856'],
    ['opening_time', '07:00'],
    ['closing_time', '20:00'],
    ['amenities[]', '2'],
    ['thumbnail', { file: PNG }],
    ['gallery[]', { file: PNG }],
    ['gallery[]', { file: PNG }],
  ])
  const res = await app.inject({
    method: 'POST',
    url: '/api/venues',
    headers: { ...owner.headers, ...form.headers },
    payload: form.payload,
  })
  assert.equal(res.statusCode, 201, res.body)
  const v = res.json().data
  assert.equal(v.thumbnail.is_primary, true)
  assert.equal(v.thumbnail.collection, 'thumbnail')
  assert.match(v.thumbnail.url, /^http:\/\/localhost:8000\/storage\/venues\/\d+\/.+\.png$/)
  assert.equal(v.gallery.length, 2)
  assert.equal(v.gallery[0].is_primary, false)
  assert.equal(v.images.length, 3)
  assert.deepEqual(
    v.amenities.map((a: { id: number }) => a.id),
    [2],
  )
  const file = await app.inject({ method: 'GET', url: v.thumbnail.url.replace('http://localhost:8000', '') })
  assert.equal(file.statusCode, 200)
})

test('more than 12 gallery images, or a file that is not an image, is 422', async () => {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const base: Array<[string, string]> = Object.entries({ ...body, amenities: undefined })
    .filter(([, x]) => x !== undefined)
    .map(([k, x]) => [k, String(x)])
  const many = await multipart([
    ...base,
    ...Array.from({ length: 13 }, () => ['gallery[]', { file: PNG }] as [string, { file: Buffer }]),
  ])
  let res = await app.inject({
    method: 'POST',
    url: '/api/venues',
    headers: { ...owner.headers, ...many.headers },
    payload: many.payload,
  })
  assert.equal(res.statusCode, 422)
  assert.deepEqual(res.json().errors, { gallery: ['The gallery field must not have more than 12 items.'] })
  const text = await multipart([
    ...base,
    ['thumbnail', { file: Buffer.from('not an image'), type: 'text/plain', name: 'a.txt' }],
  ])
  res = await app.inject({
    method: 'POST',
    url: '/api/venues',
    headers: { ...owner.headers, ...text.headers },
    payload: text.payload,
  })
  assert.equal(res.statusCode, 422)
  assert.deepEqual(res.json().errors, {
    thumbnail: ['The thumbnail field must be a file of type: jpg, jpeg, png, webp.'],
  })
})

test('create validates required fields, hours and amenities', async () => {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  let res = await app.inject({ method: 'POST', url: '/api/venues', headers: owner.headers, payload: { name: 'X' } })
  assert.equal(res.statusCode, 422)
  const errors = res.json().errors
  for (const f of ['address', 'city', 'state', 'latitude', 'longitude', 'opening_time', 'closing_time']) {
    assert.deepEqual(errors[f], [`The ${f.replace(/_/g, ' ')} field is required.`], f)
  }
  res = await app.inject({
    method: 'POST',
    url: '/api/venues',
    headers: owner.headers,
    payload: { ...body, closing_time: '06:00' },
  })
  assert.equal(res.statusCode, 422)
  assert.deepEqual(res.json().errors, { closing_time: ['The closing time must be a time after opening time.'] })
  res = await app.inject({
    method: 'POST',
    url: '/api/venues',
    headers: owner.headers,
    payload: { ...body, opening_time: '22:00', closing_time: '02:00' },
  })
  assert.equal(res.statusCode, 422)
  res = await app.inject({
    method: 'POST',
    url: '/api/venues',
    headers: owner.headers,
    payload: { ...body, amenities: [999] },
  })
  assert.deepEqual(res.json().errors, { amenities: ['The selected amenities is invalid.'] })
})

test('guests get 401 and customers, managers and staff get 403 on create', async () => {
  assert.equal((await app.inject({ method: 'POST', url: '/api/venues', payload: body })).statusCode, 401)
  for (const role of ['customer', 'manager', 'staff'] as const) {
    const user = await createUser(app, { roles: [role] })
    const res = await app.inject({ method: 'POST', url: '/api/venues', headers: user.headers, payload: body })
    assert.equal(res.statusCode, 403, role)
  }
})

test('super_admin may create a venue for an owner; owner_id is ignored for others', async () => {
  const admin = await createUser(app, { roles: ['super_admin'] })
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const res = await app.inject({
    method: 'POST',
    url: '/api/venues',
    headers: admin.headers,
    payload: { ...body, owner_id: owner.id },
  })
  assert.equal(res.statusCode, 201)
  const row = await app.ctx.db
    .selectFrom('venues')
    .select('owner_id')
    .where('id', '=', res.json().data.id)
    .executeTakeFirstOrThrow()
  assert.equal(row.owner_id, owner.id)
  const other = await createUser(app, { roles: ['venue_owner'] })
  const own = await app.inject({
    method: 'POST',
    url: '/api/venues',
    headers: other.headers,
    payload: { ...body, owner_id: owner.id },
  })
  const row2 = await app.ctx.db
    .selectFrom('venues')
    .select('owner_id')
    .where('id', '=', own.json().data.id)
    .executeTakeFirstOrThrow()
  assert.equal(row2.owner_id, other.id)
})

test('owner and manager update a venue partially; staff and strangers cannot', async () => {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const manager = await createUser(app, { roles: ['manager'] })
  const staff = await createUser(app, { roles: ['staff'] })
  const venue = await createVenue(app, owner.id)
  await assignStaff(app, venue.id, manager.id, 'manager')
  await assignStaff(app, venue.id, staff.id, 'staff')
  let res = await app.inject({
    method: 'PUT',
    url: `/api/venues/${venue.slug}`,
    headers: owner.headers,
    payload: { description: 'Rooftop', closing_time: '23:00' },
  })
  assert.equal(res.statusCode, 200, res.body)
  assert.equal(res.json().data.description, 'Rooftop')
  assert.equal(res.json().data.closing_time, '23:00:00')
  assert.equal(res.json().data.name, venue.name)
  res = await app.inject({
    method: 'PATCH',
    url: `/api/venues/${venue.id}`,
    headers: manager.headers,
    payload: { is_active: false },
  })
  assert.equal(res.statusCode, 200)
  assert.equal(res.json().data.is_active, false)
  res = await app.inject({
    method: 'PATCH',
    url: `/api/venues/${venue.id}`,
    headers: manager.headers,
    payload: { opening_time: '23:30' },
  })
  assert.equal(res.statusCode, 422)
  for (const user of [staff, await createUser(app, { roles: ['venue_owner'] })]) {
    res = await app.inject({
      method: 'PUT',
      url: `/api/venues/${venue.id}`,
      headers: user.headers,
      payload: { name: 'Mine' },
    })
    assert.equal(res.statusCode, 403)
  }
  res = await app.inject({ method: 'PUT', url: '/api/venues/nope', headers: owner.headers, payload: { name: 'x' } })
  assert.equal(res.statusCode, 404)
})

test('delete is soft, by the owner only, and refused while upcoming confirmed bookings exist', async () => {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const manager = await createUser(app, { roles: ['manager'] })
  const customer = await createUser(app)
  const venue = await createVenue(app, owner.id)
  await assignStaff(app, venue.id, manager.id, 'manager')
  const court = await createCourt(app, venue.id)
  const booking = await app.ctx.db
    .insertInto('bookings')
    .values({
      booking_number: `BK-T-${venue.id}`,
      user_id: customer.id,
      court_id: court.id,
      venue_id: venue.id,
      status: 'confirmed',
      date: daysFromFixedNow(2),
      start_time: '10:00',
      end_time: '11:00',
      base_amount: 150000,
      total_amount: 150000,
      paid_amount: 150000,
      customer_name: 'C',
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  await payInsertedBookings(app)
  let res = await app.inject({ method: 'DELETE', url: `/api/venues/${venue.id}`, headers: manager.headers })
  assert.equal(res.statusCode, 403)
  res = await app.inject({ method: 'DELETE', url: `/api/venues/${venue.id}`, headers: owner.headers })
  assert.equal(res.statusCode, 409)
  assert.deepEqual(res.json(), { message: 'The venue has upcoming confirmed bookings and cannot be deleted.' })
  await app.ctx.db.updateTable('bookings').set({ status: 'cancelled' }).where('id', '=', booking.id).execute()
  res = await app.inject({ method: 'DELETE', url: `/api/venues/${venue.id}`, headers: owner.headers })
  assert.equal(res.statusCode, 200)
  assert.equal(typeof res.json().message, 'string')
  const row = await app.ctx.db
    .selectFrom('venues')
    .select('deleted_at')
    .where('id', '=', venue.id)
    .executeTakeFirstOrThrow()
  assert.ok(row.deleted_at)
  assert.equal((await app.inject({ method: 'GET', url: `/api/venues/${venue.slug}` })).statusCode, 404)
  assert.equal(
    (await app.inject({ method: 'DELETE', url: `/api/venues/${venue.id}`, headers: owner.headers })).statusCode,
    404,
  )
})

test('slugs never shadow /venues/nearby, /venues/my-venues or a venue id', async () => {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const create = async (name: string) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/venues',
      headers: owner.headers,
      payload: { ...body, name },
    })
    assert.equal(res.statusCode, 201, res.body)
    return res.json().data as { id: number; slug: string }
  }
  const nearby = await create('Nearby')
  assert.equal(nearby.slug, 'nearby-2')
  const mine = await create('My Venues')
  assert.equal(mine.slug, 'my-venues-2')
  const numeric = await create('1')
  assert.equal(numeric.slug, 'venue-1')
  for (const v of [nearby, mine, numeric]) {
    const res = await app.inject({ method: 'GET', url: `/api/venues/${v.slug}`, headers: owner.headers })
    assert.equal(res.statusCode, 200)
    assert.equal(res.json().data.id, v.id)
  }
})

test('at most VENUE_CREATE_PER_DAY venues a day per owner, counted under a lock; names need a letter or digit', async () => {
  const clock = app.ctx.clock as ManualClock
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const create = (name: string) =>
    app.inject({ method: 'POST', url: '/api/venues', headers: owner.headers, payload: { ...body, name } })
  for (const name of ['   ', '...', '—']) {
    const res = await create(name)
    assert.equal(res.statusCode, 422, `${JSON.stringify(name)}: ${res.body}`)
    assert.ok(res.json().errors.name, res.body)
  }
  // Three at once: all are created (the default cap is 3), then the fourth is refused.
  const first = await Promise.all(['Cap One', 'Cap Two', 'Cap Three', 'Cap Four'].map(create))
  assert.deepEqual(first.map((r) => r.statusCode).sort(), [201, 201, 201, 422])
  const refused = first.find((r) => r.statusCode === 422)!
  assert.equal(refused.json().message, 'You may create at most 3 venues a day. Please try again tomorrow.')
  // A name of spaces cannot be given on update either.
  const id = first.find((r) => r.statusCode === 201)!.json().data.id
  const renamed = await app.inject({
    method: 'PUT',
    url: `/api/venues/${id}`,
    headers: owner.headers,
    payload: { name: '  ' },
  })
  assert.equal(renamed.statusCode, 422, renamed.body)
  // A day later the owner may create again; a super_admin is never counted.
  clock.advance(24 * 3_600_000 + 1000)
  assert.equal((await create('Cap Five')).statusCode, 201)
  const admin = await createUser(app, { roles: ['super_admin'] })
  for (let i = 0; i < 4; i++) {
    const res = await app.inject({
      method: 'POST',
      url: '/api/venues',
      headers: admin.headers,
      payload: { ...body, name: `Admin Venue ${i}` },
    })
    assert.equal(res.statusCode, 201, res.body)
  }
})
