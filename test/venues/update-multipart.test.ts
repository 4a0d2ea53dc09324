import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { build } from '../helpers/app.ts'
import { createIndoorGame, createUser, createVenue, daysFromFixedNow, FIXED_NOW } from '../helpers/factories.ts'
import { payInsertedBookings } from '../helpers/ledger.ts'
import { multipart, PNG } from './multipart.ts'

let app: App
before(async () => {
  app = await build(undefined, {}, { clock: new ManualClock(FIXED_NOW) })
})
after(() => app.close())

const gallery = (n: number) =>
  Array.from({ length: n }, () => ['gallery[]', { file: PNG }] as [string, { file: Buffer }])

test('a multipart update changes fields, replaces the thumbnail and adds gallery photos', async () => {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const venue = await createVenue(app, owner.id)
  let form = await multipart([['thumbnail', { file: PNG }], ...gallery(2)])
  let res = await app.inject({
    method: 'PUT',
    url: `/api/venues/${venue.id}`,
    headers: { ...owner.headers, ...form.headers },
    payload: form.payload,
  })
  assert.equal(res.statusCode, 200, res.body)
  const first = res.json().data
  assert.ok(first.thumbnail)
  assert.equal(first.gallery.length, 2)
  assert.deepEqual(
    first.images.map((i: { id: number }) => i.id),
    [first.thumbnail.id, ...first.gallery.map((g: { id: number }) => g.id)],
  )

  form = await multipart([
    ['name', 'Renamed Arena'],
    ['opening_time', '07:00'],
    ['is_active', 'false'],
    ['thumbnail', { file: PNG }],
    ...gallery(1),
  ])
  res = await app.inject({
    method: 'PATCH',
    url: `/api/venues/${venue.slug}`,
    headers: { ...owner.headers, ...form.headers },
    payload: form.payload,
  })
  assert.equal(res.statusCode, 200, res.body)
  const v = res.json().data
  assert.equal(v.name, 'Renamed Arena')
  assert.equal(v.slug, venue.slug)
  assert.equal(v.opening_time, '07:00:00')
  assert.equal(v.is_active, false)
  assert.notEqual(v.thumbnail.id, first.thumbnail.id)
  assert.equal(v.gallery.length, 3)
  assert.deepEqual(
    v.gallery.map((g: { sort_order: number }) => g.sort_order),
    [1, 2, 3],
  )
  const thumbs = await app.ctx.db
    .selectFrom('media')
    .select('id')
    .where('model_type', '=', 'venue')
    .where('model_id', '=', venue.id)
    .where('collection', '=', 'thumbnail')
    .execute()
  assert.equal(thumbs.length, 1)
  // The old thumbnail file is gone, the new one is served.
  const path = (url: string) => url.replace('http://localhost:8000', '')
  assert.equal((await app.inject({ method: 'GET', url: path(first.thumbnail.url) })).statusCode, 404)
  assert.equal((await app.inject({ method: 'GET', url: path(v.thumbnail.url) })).statusCode, 200)
})

test('an update with more than 12 gallery photos or an overnight closing time is 422 and changes nothing', async () => {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const venue = await createVenue(app, owner.id)
  const form = await multipart([['name', 'Too Many'], ...gallery(13)])
  let res = await app.inject({
    method: 'PUT',
    url: `/api/venues/${venue.id}`,
    headers: { ...owner.headers, ...form.headers },
    payload: form.payload,
  })
  assert.equal(res.statusCode, 422)
  assert.deepEqual(res.json(), {
    message: 'The given data was invalid.',
    errors: { gallery: ['The gallery field must not have more than 12 items.'] },
  })
  res = await app.inject({
    method: 'PATCH',
    url: `/api/venues/${venue.id}`,
    headers: owner.headers,
    payload: { closing_time: '02:00' },
  })
  assert.equal(res.statusCode, 422)
  assert.deepEqual(res.json().errors, { closing_time: ['The closing time must be a time after opening time.'] })
  const row = await app.ctx.db
    .selectFrom('venues')
    .select(['name', 'closing_time'])
    .where('id', '=', venue.id)
    .executeTakeFirstOrThrow()
  assert.deepEqual(row, { name: venue.name, closing_time: '22:00:00' })
  const media = await app.ctx.db
    .selectFrom('media')
    .select('id')
    .where('model_type', '=', 'venue')
    .where('model_id', '=', venue.id)
    .execute()
  assert.equal(media.length, 0)
})

test('delete: 409 while an upcoming confirmed indoor booking exists; super_admin may delete', async () => {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const admin = await createUser(app, { roles: ['super_admin'] })
  const customer = await createUser(app)
  const venue = await createVenue(app, owner.id)
  const game = await createIndoorGame(app, venue.id)
  const booking = await app.ctx.db
    .insertInto('indoor_game_bookings')
    .values({
      booking_number: `IG-V-${venue.id}`,
      tenant_id: owner.id,
      indoor_game_id: game.id,
      venue_id: venue.id,
      user_id: customer.id,
      status: 'confirmed',
      date: daysFromFixedNow(1),
      start_time: '10:00',
      end_time: '11:00',
      base_amount: 30000,
      total_amount: 30000,
      paid_amount: 30000,
      customer_name: 'C',
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  await payInsertedBookings(app)
  let res = await app.inject({ method: 'DELETE', url: `/api/venues/${venue.id}`, headers: admin.headers })
  assert.equal(res.statusCode, 409)
  assert.deepEqual(res.json(), { message: 'The venue has upcoming confirmed bookings and cannot be deleted.' })
  // A past confirmed booking does not block.
  await app.ctx.db
    .updateTable('indoor_game_bookings')
    .set({ date: daysFromFixedNow(-1) })
    .where('id', '=', booking.id)
    .execute()
  res = await app.inject({ method: 'DELETE', url: `/api/venues/${venue.slug}`, headers: admin.headers })
  assert.equal(res.statusCode, 200)
  assert.equal(
    (await app.inject({ method: 'GET', url: `/api/venues/${venue.id}`, headers: admin.headers })).statusCode,
    404,
  )
})
