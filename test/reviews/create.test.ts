import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { build } from '../helpers/app.ts'
import { createUser, FIXED_NOW } from '../helpers/factories.ts'
import { insertBooking, venueWithCustomer } from './fixtures.ts'

let app: App
before(async () => {
  app = await build(undefined, {}, { clock: new ManualClock(FIXED_NOW) })
})
after(() => app.close())

test('a customer reviews a venue on the venue path: 201 data Review, approved at once', async () => {
  const { venue, customer } = await venueWithCustomer(app)
  const res = await app.inject({
    method: 'POST',
    url: `/api/venues/${venue.slug}/reviews`,
    headers: customer.headers,
    payload: { rating: 5.0, comment: 'Great turf' },
  })
  assert.equal(res.statusCode, 201)
  const data = res.json().data
  assert.equal(typeof data.id, 'number')
  assert.equal(data.rating, 5)
  assert.equal(data.comment, 'Great turf')
  assert.equal(data.is_approved, true)
  assert.deepEqual(data.user, { id: customer.id, name: data.user.name, avatar: null })
  assert.deepEqual(data.images, [])
  assert.deepEqual(data.replies, [])
  assert.match(data.created_at, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
})

test('ratings 1 to 5 as JSON numbers are accepted; 0, 6, 4.5, "abc" and the string "5" are 422', async () => {
  const { venue } = await venueWithCustomer(app)
  for (const rating of [5, 1]) {
    const user = await createUser(app)
    const res = await app.inject({
      method: 'POST',
      url: `/api/venues/${venue.id}/reviews`,
      headers: user.headers,
      payload: { rating },
    })
    assert.equal(res.statusCode, 201, `rating ${rating}`)
    assert.equal(res.json().data.rating, Number(rating))
  }
  const user = await createUser(app)
  const cases: [unknown, string][] = [
    [0, 'The rating field must be at least 1.'],
    [6, 'The rating field must not be greater than 5.'],
    [4.5, 'The rating field must be an integer.'],
    ['abc', 'The rating field must be an integer.'],
    // A JSON body is not coerced: a string is the wrong type (multipart fields are text, see forms.test.ts).
    ['5', 'The rating field must be an integer.'],
    [undefined, 'The rating field is required.'],
  ]
  for (const [rating, message] of cases) {
    const res = await app.inject({
      method: 'POST',
      url: `/api/venues/${venue.id}/reviews`,
      headers: user.headers,
      payload: rating === undefined ? { comment: 'x' } : { rating },
    })
    assert.equal(res.statusCode, 422, `rating ${rating}`)
    assert.deepEqual(res.json(), { message: 'The given data was invalid.', errors: { rating: [message] } })
  }
})

test('a second review of the same venue is 422, also when both are sent at once', async () => {
  const { venue, customer } = await venueWithCustomer(app)
  const first = await app.inject({
    method: 'POST',
    url: `/api/venues/${venue.id}/reviews`,
    headers: customer.headers,
    payload: { rating: 4 },
  })
  assert.equal(first.statusCode, 201)
  const again = await app.inject({
    method: 'POST',
    url: '/api/reviews',
    headers: customer.headers,
    payload: { venue_id: venue.id, rating: 3 },
  })
  assert.equal(again.statusCode, 422)
  assert.deepEqual(again.json(), {
    message: 'You have already reviewed this venue.',
    errors: { venue_id: ['You have already reviewed this venue.'] },
  })

  const racer = await createUser(app)
  const results = await Promise.all(
    [1, 2, 3, 4].map((r) =>
      app.inject({
        method: 'POST',
        url: `/api/venues/${venue.id}/reviews`,
        headers: racer.headers,
        payload: { rating: r },
      }),
    ),
  )
  assert.deepEqual(results.map((r) => r.statusCode).sort(), [201, 422, 422, 422])
  const count = await app.ctx.db
    .selectFrom('reviews')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('venue_id', '=', venue.id)
    .executeTakeFirstOrThrow()
  assert.equal(Number(count.n), 2)
})

test('booking_id defaults to the latest booking at the venue; another user’s booking is 422', async () => {
  const { venue, customer } = await venueWithCustomer(app)
  await insertBooking(app, customer.id, venue.id, { daysAgo: 10 })
  const latest = await insertBooking(app, customer.id, venue.id, { daysAgo: 2 })
  await insertBooking(app, customer.id, venue.id, { daysAgo: 1, status: 'cancelled' })
  const res = await app.inject({
    method: 'POST',
    url: `/api/venues/${venue.id}/reviews`,
    headers: customer.headers,
    payload: { rating: 4 },
  })
  assert.equal(res.statusCode, 201)
  const row = await app.ctx.db
    .selectFrom('reviews')
    .select('booking_id')
    .where('id', '=', res.json().data.id)
    .executeTakeFirstOrThrow()
  assert.equal(row.booking_id, latest.id)

  const other = await createUser(app)
  const notMine = await app.inject({
    method: 'POST',
    url: `/api/venues/${venue.id}/reviews`,
    headers: other.headers,
    payload: { rating: 4, booking_id: latest.id },
  })
  assert.equal(notMine.statusCode, 422)
  assert.deepEqual(notMine.json().errors, { booking_id: ['The selected booking id is invalid.'] })

  const own = await insertBooking(app, other.id, venue.id)
  const ok = await app.inject({
    method: 'POST',
    url: `/api/venues/${venue.id}/reviews`,
    headers: other.headers,
    payload: { rating: 4, booking_id: own.id },
  })
  assert.equal(ok.statusCode, 201)
})

test('the venue keeps reviews_count and a 1-decimal reviews_avg_rating of approved reviews', async () => {
  const { venue } = await venueWithCustomer(app)
  for (const rating of [5, 4, 4]) {
    const user = await createUser(app)
    await app.inject({
      method: 'POST',
      url: `/api/venues/${venue.id}/reviews`,
      headers: user.headers,
      payload: { rating },
    })
  }
  const row = await app.ctx.db
    .selectFrom('venues')
    .select(['reviews_count', 'reviews_avg_rating'])
    .where('id', '=', venue.id)
    .executeTakeFirstOrThrow()
  assert.equal(row.reviews_count, 3)
  assert.equal(Number(row.reviews_avg_rating), 4.3)
})

test('guests are 401; unknown or hidden venues are 404; the legacy path needs a valid venue_id', async () => {
  const { venue, customer } = await venueWithCustomer(app)
  const guest = await app.inject({ method: 'POST', url: `/api/venues/${venue.id}/reviews`, payload: { rating: 5 } })
  assert.equal(guest.statusCode, 401)
  assert.deepEqual(guest.json(), { message: 'Unauthenticated.' })

  const unknown = await app.inject({
    method: 'POST',
    url: '/api/venues/no-such-venue/reviews',
    headers: customer.headers,
    payload: { rating: 5 },
  })
  assert.equal(unknown.statusCode, 404)
  assert.deepEqual(unknown.json(), { message: 'Not found.' })

  const { venue: hidden } = await venueWithCustomer(app, { verification_status: 'pending' })
  const onHidden = await app.inject({
    method: 'POST',
    url: `/api/venues/${hidden.id}/reviews`,
    headers: customer.headers,
    payload: { rating: 5 },
  })
  assert.equal(onHidden.statusCode, 404)

  const missing = await app.inject({
    method: 'POST',
    url: '/api/reviews',
    headers: customer.headers,
    payload: { rating: 5 },
  })
  assert.equal(missing.statusCode, 422)
  assert.deepEqual(missing.json().errors, { venue_id: ['The venue id field is required.'] })
  const bad = await app.inject({
    method: 'POST',
    url: '/api/reviews',
    headers: customer.headers,
    payload: { rating: 5, venue_id: hidden.id },
  })
  assert.equal(bad.statusCode, 422)
  assert.deepEqual(bad.json().errors, { venue_id: ['The selected venue id is invalid.'] })
})
