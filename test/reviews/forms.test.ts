import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { build } from '../helpers/app.ts'
import { createUser, createVenue, FIXED_NOW } from '../helpers/factories.ts'
import { insertBooking, multipart, venueWithCustomer } from './fixtures.ts'

let app: App
before(async () => {
  app = await build(undefined, {}, { clock: new ManualClock(FIXED_NOW) })
})
after(() => app.close())

test('a raw JSON 5.0 and a multipart "5.0" are accepted; a multipart "4.5" is 422', async () => {
  const { venue } = await venueWithCustomer(app)
  const a = await createUser(app)
  let res = await app.inject({
    method: 'POST',
    url: `/api/venues/${venue.id}/reviews`,
    headers: { ...a.headers, 'content-type': 'application/json' },
    payload: '{"rating": 5.0, "comment": "Top"}',
  })
  assert.equal(res.statusCode, 201, res.body)
  assert.equal(res.json().data.rating, 5)

  const b = await createUser(app)
  let form = await multipart({ venue_id: String(venue.id), rating: '5.0' }, [])
  res = await app.inject({
    method: 'POST',
    url: '/api/reviews',
    headers: { ...b.headers, ...form.headers },
    payload: form.payload,
  })
  assert.equal(res.statusCode, 201, res.body)
  assert.equal(res.json().data.rating, 5)

  const c = await createUser(app)
  form = await multipart({ venue_id: String(venue.id), rating: '4.5' }, [])
  res = await app.inject({
    method: 'POST',
    url: '/api/reviews',
    headers: { ...c.headers, ...form.headers },
    payload: form.payload,
  })
  assert.equal(res.statusCode, 422)
  assert.deepEqual(res.json().errors, { rating: ['The rating field must be an integer.'] })
})

test('legacy JSON POST /reviews: venue_id required; the latest booking is attached; duplicates are 422', async () => {
  const { venue, customer } = await venueWithCustomer(app)
  await insertBooking(app, customer.id, venue.id, { daysAgo: 5 })
  const latest = await insertBooking(app, customer.id, venue.id, { daysAgo: 1 })
  let res = await app.inject({
    method: 'POST',
    url: '/api/reviews',
    headers: customer.headers,
    payload: { rating: 4 },
  })
  assert.equal(res.statusCode, 422)
  assert.ok(res.json().errors.venue_id)
  res = await app.inject({
    method: 'POST',
    url: '/api/reviews',
    headers: customer.headers,
    payload: { venue_id: venue.id, rating: 4, comment: 'Good lights' },
  })
  assert.equal(res.statusCode, 201)
  const review = await app.ctx.db
    .selectFrom('reviews')
    .select(['venue_id', 'booking_id'])
    .where('id', '=', res.json().data.id)
    .executeTakeFirstOrThrow()
  assert.deepEqual(review, { venue_id: venue.id, booking_id: latest.id })

  res = await app.inject({
    method: 'POST',
    url: '/api/reviews',
    headers: customer.headers,
    payload: { venue_id: venue.id, rating: 2 },
  })
  assert.equal(res.statusCode, 422)
  assert.equal(res.json().message, 'You have already reviewed this venue.')
})

test('on the venue path a venue_id in the body is ignored', async () => {
  const { owner, venue, customer } = await venueWithCustomer(app)
  const other = await createVenue(app, owner.id)
  const res = await app.inject({
    method: 'POST',
    url: `/api/venues/${venue.id}/reviews`,
    headers: customer.headers,
    payload: { venue_id: other.id, rating: 3 },
  })
  assert.equal(res.statusCode, 201)
  const row = await app.ctx.db
    .selectFrom('reviews')
    .select('venue_id')
    .where('id', '=', res.json().data.id)
    .executeTakeFirstOrThrow()
  assert.equal(row.venue_id, venue.id)
})

test('the venue list sorted by rating follows the reviews customers leave', async () => {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const city = `Ratingville ${process.pid}`
  const low = await createVenue(app, owner.id, { city })
  const high = await createVenue(app, owner.id, { city })
  const none = await createVenue(app, owner.id, { city })
  const review = async (venueId: number, rating: number) => {
    const user = await createUser(app)
    const res = await app.inject({
      method: 'POST',
      url: `/api/venues/${venueId}/reviews`,
      headers: user.headers,
      payload: { rating },
    })
    assert.equal(res.statusCode, 201)
  }
  await review(low.id, 2)
  await review(low.id, 3)
  await review(high.id, 5)
  await review(high.id, 4)
  await review(high.id, 4)
  const res = await app.inject({ method: 'GET', url: `/api/venues?city=${encodeURIComponent(city)}&sort=rating` })
  assert.equal(res.statusCode, 200)
  const data = res.json().data
  assert.deepEqual(
    data.map((v: { id: number }) => v.id),
    [high.id, low.id, none.id],
  )
  assert.equal(data[0].reviews_avg_rating, 4.3)
  assert.equal(data[0].reviews_count, 3)
  assert.equal(data[1].reviews_avg_rating, 2.5)
  assert.equal(data[1].reviews_count, 2)
  assert.equal(data[2].reviews_avg_rating, null)
  assert.equal(data[2].reviews_count, 0)
  const wrapper = (await app.inject({ method: 'GET', url: `/api/venues/${high.slug}/reviews` })).json()
  assert.equal(wrapper.average_rating, 4.3)
  assert.equal(wrapper.reviews_count, 3)
})
