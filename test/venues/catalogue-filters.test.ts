import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { build } from '../helpers/app.ts'
import { createCourt, createIndoorGame, createUser, createVenue } from '../helpers/factories.ts'

let app: App
const v: Record<string, { id: number; slug: string }> = {}
// Kathmandu, Durbar Marg.
const LAT = 27.7172
const LNG = 85.324

before(async () => {
  app = await build()
  const owner = await createUser(app, { roles: ['venue_owner'] })
  v.here = await createVenue(app, owner.id, {
    name: 'Durbar Futsal',
    address: 'Durbar Marg',
    latitude: LAT,
    longitude: LNG,
  })
  // 0.02° of latitude north: 2.22 km.
  v.north = await createVenue(app, owner.id, {
    name: 'Maharajgunj Arena',
    address: 'Ring Road',
    latitude: LAT + 0.02,
    longitude: LNG,
  })
  v.lalitpur = await createVenue(app, owner.id, {
    name: 'Jawalakhel Courts',
    city: 'Lalitpur',
    address: 'Jawalakhel Chowk',
    latitude: 27.6727,
    longitude: 85.3125,
  })
  v.pokhara = await createVenue(app, owner.id, {
    name: 'Lakeside Sports',
    city: 'Pokhara',
    address: 'Lakeside Road',
    latitude: 28.2096,
    longitude: 83.9856,
  })
  // Sports: Futsal (outdoor) at here; Badminton (indoor category) at north; an indoor game at lalitpur.
  await createCourt(app, v.here.id, { type: 'futsal' })
  const badminton = await app.ctx.db
    .selectFrom('sports')
    .select('id')
    .where('key', '=', 'badminton')
    .executeTakeFirstOrThrow()
  const court = await createCourt(app, v.north.id, { type: 'badminton' })
  await app.ctx.db.updateTable('courts').set({ sport_id: badminton.id }).where('id', '=', court.id).execute()
  await createIndoorGame(app, v.lalitpur.id, { game_type: 'chess' })
  await createIndoorGame(app, v.pokhara.id, { game_type: 'carrom', is_active: false })
  // Ratings, prices and ages for the sorts.
  const set = (id: number, values: Record<string, unknown>) =>
    app.ctx.db.updateTable('venues').set(values).where('id', '=', id).execute()
  await set(v.here.id, {
    reviews_avg_rating: '3.5',
    reviews_count: 4,
    min_price: 200000,
    created_at: new Date('2026-01-01'),
  })
  await set(v.north.id, {
    reviews_avg_rating: '4.8',
    reviews_count: 10,
    min_price: 150000,
    created_at: new Date('2026-03-01'),
  })
  await set(v.lalitpur.id, {
    reviews_avg_rating: '4.2',
    reviews_count: 2,
    min_price: 100000,
    created_at: new Date('2026-02-01'),
  })
  await set(v.pokhara.id, {
    reviews_avg_rating: null,
    reviews_count: 0,
    min_price: null,
    created_at: new Date('2026-04-01'),
  })
})
after(() => app.close())

async function get(query: string) {
  const res = await app.inject({ method: 'GET', url: `/api/venues?${query}` })
  assert.equal(res.statusCode, 200, res.body)
  return res.json()
}
const names = (body: { data: Array<{ name: string }> }) => body.data.map((x) => x.name)

test('search matches name, city or address, case-insensitively', async () => {
  assert.deepEqual(names(await get('search=arena')), ['Maharajgunj Arena'])
  assert.deepEqual(names(await get('search=pokhara')), ['Lakeside Sports'])
  assert.deepEqual(names(await get('search=CHOWK')), ['Jawalakhel Courts'])
  assert.deepEqual(names(await get('search=100%25')), [])
})

test('city filters exactly, case-insensitively', async () => {
  assert.deepEqual(names(await get('city=lalitpur')), ['Jawalakhel Courts'])
})

test('coordinates add distance text and distance_km, within a default radius of 50 km', async () => {
  const body = await get(`lat=${LAT}&lng=${LNG}&sort=distance`)
  assert.deepEqual(names(body), ['Durbar Futsal', 'Maharajgunj Arena', 'Jawalakhel Courts'])
  assert.equal(body.data[0].distance, '0.00 km')
  assert.equal(body.data[0].distance_km, 0)
  assert.equal(body.data[1].distance, '2.22 km')
  assert.equal(body.data[1].distance_km, 2.22)
  // latitude/longitude are accepted as the parameter names too; a wider radius reaches Pokhara.
  const wide = await get(`latitude=${LAT}&longitude=${LNG}&radius=500&sort=distance`)
  assert.equal(wide.data.length, 4)
  assert.equal(wide.data[3].name, 'Lakeside Sports')
  assert.match(wide.data[3].distance, /^1\d\d\.\d\d km$/)
  const narrow = await get(`lat=${LAT}&lng=${LNG}&radius=1`)
  assert.deepEqual(names(narrow), ['Durbar Futsal'])
})

test('without coordinates there is no distance', async () => {
  const body = await get('city=kathmandu')
  assert.equal(body.data[0].distance, null)
  assert.equal('distance_km' in body.data[0], false)
})

test('sport filters by sport name, by indoor and by outdoor; court_type is the same parameter', async () => {
  assert.deepEqual(names(await get('sport=Futsal')), ['Durbar Futsal'])
  assert.deepEqual(names(await get('court_type=futsal')), ['Durbar Futsal'])
  assert.deepEqual(names(await get('sport=indoor&sort=newest')), ['Maharajgunj Arena', 'Jawalakhel Courts'])
  assert.deepEqual(names(await get('sport=outdoor')), ['Durbar Futsal'])
  assert.deepEqual(names(await get('sport=Cricket')), [])
})

test('sport also names an indoor game type: venues with such a live game', async () => {
  assert.deepEqual(names(await get('sport=chess')), ['Jawalakhel Courts'])
  assert.deepEqual(names(await get('sport=Chess')), ['Jawalakhel Courts'])
  // Pokhara's carrom board is inactive.
  assert.deepEqual(names(await get('sport=carrom')), [])
  assert.deepEqual(names(await get('sport=playstation')), [])
})

test('sort by rating, price, newest; Recommended is the default', async () => {
  assert.deepEqual(names(await get('sort=rating')), [
    'Maharajgunj Arena',
    'Jawalakhel Courts',
    'Durbar Futsal',
    'Lakeside Sports',
  ])
  assert.deepEqual(names(await get('sort=price')), [
    'Jawalakhel Courts',
    'Maharajgunj Arena',
    'Durbar Futsal',
    'Lakeside Sports',
  ])
  assert.deepEqual(names(await get('sort=newest')), [
    'Lakeside Sports',
    'Maharajgunj Arena',
    'Jawalakhel Courts',
    'Durbar Futsal',
  ])
  assert.deepEqual(names(await get('sort=Recommended')), names(await get('')))
  assert.equal(names(await get(''))[0], 'Maharajgunj Arena')
})

test('per_page and page paginate; per_page is capped at 100', async () => {
  const first = await get('per_page=2&sort=newest')
  assert.deepEqual(names(first), ['Lakeside Sports', 'Maharajgunj Arena'])
  assert.equal(first.meta.total, 4)
  assert.equal(first.meta.last_page, 2)
  const second = await get('per_page=2&page=2&sort=newest')
  assert.deepEqual(names(second), ['Jawalakhel Courts', 'Durbar Futsal'])
  assert.equal((await get('per_page=500')).meta.per_page, 100)
})

test('invalid filters are 422', async () => {
  const cases: Array<[string, Record<string, string[]>]> = [
    ['sort=cheapest', { sort: ['The selected sort is invalid.'] }],
    [`lat=${LAT}`, { longitude: ['The longitude field is required when latitude is present.'] }],
    ['lat=abc&lng=85', { lat: ['The lat field must be a number.'] }],
    ['lat=95&lng=85', { lat: ['The lat field must not be greater than 90.'] }],
  ]
  for (const [query, errors] of cases) {
    const res = await app.inject({ method: 'GET', url: `/api/venues?${query}` })
    assert.equal(res.statusCode, 422, query)
    assert.deepEqual(res.json(), { message: 'The given data was invalid.', errors }, query)
  }
})
