import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { build } from '../helpers/app.ts'
import { assignStaff, createUser, createVenue } from '../helpers/factories.ts'

let app: App
let owner: Awaited<ReturnType<typeof createUser>>
let otherOwner: Awaited<ReturnType<typeof createUser>>
const v: Record<string, { id: number; slug: string }> = {}

// One city per file keeps the assertions independent of venues other tests add.
const city = 'Visibilitypur'

before(async () => {
  app = await build()
  owner = await createUser(app, { roles: ['venue_owner'] })
  otherOwner = await createUser(app, { roles: ['venue_owner'] })
  v.verified = await createVenue(app, owner.id, { city, name: 'A Verified' })
  v.unverified = await createVenue(app, owner.id, { city, verification_status: 'unverified' })
  v.pending = await createVenue(app, owner.id, { city, verification_status: 'pending' })
  v.rejected = await createVenue(app, owner.id, { city, verification_status: 'rejected' })
  v.inactive = await createVenue(app, owner.id, { city, is_active: false })
  v.foreign = await createVenue(app, otherOwner.id, { city })
  v.foreignUnverified = await createVenue(app, otherOwner.id, { city, verification_status: 'unverified' })
})
after(() => app.close())

const ids = (body: { data: Array<{ id: number }> }) => body.data.map((x) => x.id).sort((a, b) => a - b)
const sorted = (...list: Array<{ id: number }>) => list.map((x) => x.id).sort((a, b) => a - b)

async function list(headers?: Record<string, string>, query = '') {
  const res = await app.inject({ method: 'GET', url: `/api/venues?city=${city}${query}`, headers })
  assert.equal(res.statusCode, 200, res.body)
  return res.json()
}

test('guests see only verified, active venues', async () => {
  assert.deepEqual(ids(await list()), sorted(v.verified, v.foreign))
})

test('customers see only verified, active venues', async () => {
  const customer = await createUser(app)
  assert.deepEqual(ids(await list(customer.headers)), sorted(v.verified, v.foreign))
})

test('a venue_owner sees only their own venues, unverified, pending, rejected and inactive included', async () => {
  assert.deepEqual(ids(await list(owner.headers)), sorted(v.verified, v.unverified, v.pending, v.rejected, v.inactive))
})

test('managers and staff see only the venues they are assigned to', async () => {
  const manager = await createUser(app, { roles: ['manager'] })
  const staff = await createUser(app, { roles: ['staff'] })
  await assignStaff(app, v.pending.id, manager.id, 'manager')
  await assignStaff(app, v.foreignUnverified.id, staff.id, 'staff')
  assert.deepEqual(ids(await list(manager.headers)), sorted(v.pending))
  assert.deepEqual(ids(await list(staff.headers)), sorted(v.foreignUnverified))
})

test('super_admin sees the whole catalogue and may filter by owner_id', async () => {
  const admin = await createUser(app, { roles: ['super_admin'] })
  assert.deepEqual(ids(await list(admin.headers)), sorted(...Object.values(v)))
  assert.deepEqual(ids(await list(admin.headers, `&owner_id=${otherOwner.id}`)), sorted(v.foreign, v.foreignUnverified))
})

test('owner_id is ignored for anyone but super_admin', async () => {
  assert.deepEqual(ids(await list(undefined, `&owner_id=${otherOwner.id}`)), sorted(v.verified, v.foreign))
  assert.deepEqual(ids(await list(owner.headers, `&owner_id=${otherOwner.id}`)).length, 5)
})

test('is_verified=1 keeps only verified venues', async () => {
  assert.deepEqual(ids(await list(owner.headers, '&is_verified=1')), sorted(v.verified, v.inactive))
})

test('the venue item has every field of the contract', async () => {
  const body = await list()
  const item = body.data.find((x: { id: number }) => x.id === v.verified.id)
  assert.deepEqual(Object.keys(item).sort(), [
    'address',
    'address_ne',
    'allows_pay_at_venue',
    'amenities',
    'booking_window_days',
    'city',
    'closing_time',
    'courts',
    'courts_count',
    'created_at',
    'currency',
    'currency_symbol',
    'description',
    'distance',
    'email',
    'free_cancellation_hours',
    'gallery',
    'id',
    'images',
    'is_active',
    'is_verified',
    'latitude',
    'longitude',
    'max_hours_per_day',
    'min_notice_minutes',
    'min_price',
    'name',
    'name_ne',
    'no_show_limit',
    'opening_time',
    'phone',
    'rating',
    'reviews_avg_rating',
    'reviews_count',
    'slug',
    'state',
    'thumbnail',
    'verification_note',
    'verification_requested_at',
    'verification_reviewed_at',
    'verification_status',
  ])
  assert.equal(item.currency, 'NPR')
  assert.equal(item.currency_symbol, 'Rs')
  assert.equal(item.is_verified, true)
  assert.equal(item.verification_status, 'verified')
  assert.equal(item.latitude, '27.7000000')
  assert.equal(item.opening_time, '06:00:00')
  assert.equal(item.distance, null)
  assert.equal(item.thumbnail, null)
  assert.deepEqual(item.gallery, [])
  assert.equal(item.courts_count, 0)
  assert.equal(item.reviews_avg_rating, null)
  assert.equal(item.reviews_count, 0)
  assert.match(item.created_at, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
  assert.equal(body.meta.per_page, 15)
})
