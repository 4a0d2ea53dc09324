import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { sql } from 'kysely'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { devanagariSkeleton, latinSkeleton, toLatin } from '../../src/lib/transliterate.ts'
import { build } from '../helpers/app.ts'
import { createCourt, createUser, createVenue, daysFromFixedNow, FIXED_NOW } from '../helpers/factories.ts'

// Data that reads in Nepali (issue 50, docs/catalogue.md "Names in Nepali"): sports and amenities
// carry name_ne, a venue may carry name_ne and address_ne, and a Devanagari search finds venues by
// either script.

let app: App
before(async () => {
  app = await build(undefined, {}, { clock: new ManualClock(FIXED_NOW) })
})
after(() => app.close())

const venueBody = {
  name: 'Baneshwor Futsal Hub',
  address: 'New Baneshwor',
  city: 'Kathmandu',
  state: 'Bagmati',
  latitude: 27.6915,
  longitude: 85.3416,
  opening_time: '06:00',
  closing_time: '21:30',
}

async function get(url: string) {
  const res = await app.inject({ method: 'GET', url })
  assert.equal(res.statusCode, 200, res.body)
  return res.json()
}

test('every seeded sport and amenity has its Nepali name, on the public lists', async () => {
  const sports = (await get('/api/sports')).data as Array<{ key: string; name_ne: string | null }>
  assert.equal(sports.length, 8)
  for (const s of sports) assert.match(s.name_ne ?? '', /^[\u0900-\u097F ]+$/, s.key)
  assert.equal(sports.find((s) => s.key === 'futsal')?.name_ne, 'फुटसल')
  const amenities = (await get('/api/amenities')).data as Array<{ name: string; name_ne: string | null }>
  assert.equal(amenities.length, 8)
  for (const a of amenities) assert.match(a.name_ne ?? '', /^[\u0900-\u097F ]+$/, a.name)
  assert.deepEqual(amenities[0], { id: 1, name: 'Parking', name_ne: 'पार्किङ', icon: 'parking' })
})

test('an owner sets name_ne and address_ne on create and update; the venue shows them with its amenities and sports', async () => {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  let res = await app.inject({
    method: 'POST',
    url: '/api/venues',
    headers: owner.headers,
    payload: { ...venueBody, name_ne: 'बानेश्वर फुटसल हब', address_ne: ' नयाँ बानेश्वर ', amenities: [1, 6] },
  })
  assert.equal(res.statusCode, 201, res.body)
  const venue = res.json().data
  assert.equal(venue.name_ne, 'बानेश्वर फुटसल हब')
  assert.equal(venue.address_ne, 'नयाँ बानेश्वर')
  assert.deepEqual(
    venue.amenities.map((a: { name_ne: string }) => a.name_ne),
    ['पार्किङ', 'फ्लडलाइट'],
  )
  res = await app.inject({
    method: 'PATCH',
    url: `/api/venues/${venue.id}`,
    headers: owner.headers,
    payload: { address_ne: null },
  })
  assert.equal(res.statusCode, 200, res.body)
  assert.equal(res.json().data.address_ne, null)
  assert.equal(res.json().data.name_ne, 'बानेश्वर फुटसल हब')
  // The court list's sport has its Nepali name too.
  await createCourt(app, venue.id, { type: 'futsal' })
  const futsal = await app.ctx.db
    .selectFrom('sports')
    .select('id')
    .where('key', '=', 'futsal')
    .executeTakeFirstOrThrow()
  await app.ctx.db.updateTable('courts').set({ sport_id: futsal.id }).where('venue_id', '=', venue.id).execute()
  const courts = await app.inject({ method: 'GET', url: `/api/venues/${venue.id}/courts`, headers: owner.headers })
  assert.equal(courts.statusCode, 200, courts.body)
  assert.equal(courts.json().data[0].sport.name_ne, 'फुटसल')
})

test('a Nepali name must be Devanagari text; a wrong type is 422', async () => {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  for (const name_ne of ['Baneshwor', 42, '']) {
    const res = await app.inject({
      method: 'POST',
      url: '/api/venues',
      headers: owner.headers,
      payload: { ...venueBody, name_ne },
    })
    assert.equal(res.statusCode, 422, res.body)
    assert.ok(res.json().errors.name_ne, res.body)
  }
})

test('super_admin sets a sport and an amenity name_ne; others are refused', async () => {
  const admin = await createUser(app, { roles: ['super_admin'] })
  const owner = await createUser(app, { roles: ['venue_owner'] })
  let res = await app.inject({
    method: 'POST',
    url: '/api/admin/sports',
    headers: admin.headers,
    payload: { name: 'Squash', name_ne: 'स्क्वास', category: 'indoor' },
  })
  assert.equal(res.statusCode, 201, res.body)
  assert.equal(res.json().data.name_ne, 'स्क्वास')
  res = await app.inject({
    method: 'PUT',
    url: '/api/admin/amenities/2',
    headers: admin.headers,
    payload: { name_ne: 'कपडा फेर्ने कोठा' },
  })
  assert.equal(res.statusCode, 200, res.body)
  assert.equal(res.json().data.name_ne, 'कपडा फेर्ने कोठा')
  res = await app.inject({
    method: 'PUT',
    url: '/api/admin/amenities/2',
    headers: owner.headers,
    payload: { name_ne: 'लुगा' },
  })
  assert.equal(res.statusCode, 403, res.body)
})

test('the transliteration and the database agree on the skeleton', async () => {
  assert.equal(toLatin('बानेश्वर'), 'bāneśvara')
  assert.equal(devanagariSkeleton('बानेश्वर'), 'bnsbr')
  assert.equal(devanagariSkeleton('Baneshwor'), '')
  for (const text of ['Baneshwor', 'New Baneshwor, near Everest Hotel', 'Kalanki Chowk', 'Thamel', 'Maharajgunj']) {
    const { rows } = await sql<{ s: string }>`select latin_skeleton(${text}) as s`.execute(app.ctx.db)
    assert.equal(rows[0]!.s, latinSkeleton(text), text)
  }
  assert.equal(latinSkeleton('Kalanki'), devanagariSkeleton('कलंकी'))
  assert.equal(latinSkeleton('Thamel'), devanagariSkeleton('ठमेल'))
})

test('a Devanagari search finds a venue by its Latin address or by its Nepali name, for guests and through the cache', async () => {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const baneshwor = await createVenue(app, owner.id, { name: 'Everest Courts', address: 'Old Baneshwor' })
  const kalanki = await createVenue(app, owner.id, { name: 'Ring Road Arena', address: 'Kalanki Chowk' })
  await app.ctx.db.updateTable('venues').set({ name_ne: 'रिङरोड एरेना' }).where('id', '=', kalanki.id).execute()
  const found = async (q: string) =>
    ((await get(`/api/venues?per_page=100&search=${encodeURIComponent(q)}`)).data as Array<{ id: number }>).map(
      (v) => v.id,
    )
  assert.ok((await found('बानेश्वर')).includes(baneshwor.id))
  assert.ok(!(await found('बानेश्वर')).includes(kalanki.id))
  assert.deepEqual(await found('कलंकी'), [kalanki.id])
  assert.deepEqual(await found('एरेना'), [kalanki.id])
  assert.ok((await found('Baneshwor')).includes(baneshwor.id))
  // One or two consonants are too few to compare by skeleton: only the Nepali columns as typed.
  assert.deepEqual(await found('क'), [])
  // The free-time search takes the same filter.
  await createCourt(app, kalanki.id, { type: 'futsal' })
  await createCourt(app, baneshwor.id, { type: 'futsal' })
  const free = await get(`/api/venues?search=${encodeURIComponent('कलंकी')}&date=${daysFromFixedNow(1)}`)
  assert.deepEqual(
    free.data.map((v: { id: number }) => v.id),
    [kalanki.id],
  )
  assert.ok(free.data[0].free_slots.length > 0)
})
