import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { build } from '../helpers/app.ts'
import { createCourt, createUser, createVenue } from '../helpers/factories.ts'

// A JSON body is validated as sent: no value is silently changed into another type. Query strings
// and path parameters arrive as text and keep their coercion (multipart fields: reviews/forms.test.ts).

let app: App
before(async () => {
  app = await build()
})
after(() => app.close())

const INVALID = 'The given data was invalid.'

async function ownerWithCourt() {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const venue = await createVenue(app, owner.id)
  const court = await createCourt(app, venue.id)
  return { owner, venue, court }
}

test('a pricing rule posted with "day_of_week": null is stored for every day, not as Sunday', async () => {
  const { owner, court } = await ownerWithCourt()
  const res = await app.inject({
    method: 'POST',
    url: `/api/courts/${court.id}/pricing`,
    headers: owner.headers,
    payload: { type: 'peak', day_of_week: null, start_time: '17:00', end_time: '21:00', price_per_hour: 2000 },
  })
  assert.equal(res.statusCode, 201, res.body)
  assert.equal(res.json().data.day_of_week, null)
  const row = await app.ctx.db
    .selectFrom('pricing_rules')
    .select('day_of_week')
    .where('id', '=', res.json().data.id)
    .executeTakeFirstOrThrow()
  assert.equal(row.day_of_week, null)

  // And an update that sets null clears the weekday.
  const weekday = await app.inject({
    method: 'POST',
    url: `/api/courts/${court.id}/pricing`,
    headers: owner.headers,
    payload: { type: 'standard', day_of_week: 3, start_time: '06:00', end_time: '17:00', price_per_hour: 1000 },
  })
  const cleared = await app.inject({
    method: 'PUT',
    url: `/api/courts/${court.id}/pricing/${weekday.json().data.id}`,
    headers: owner.headers,
    payload: { day_of_week: null },
  })
  assert.equal(cleared.statusCode, 200, cleared.body)
  assert.equal(cleared.json().data.day_of_week, null)
})

test('a number for a string field is 422 naming the field ("token": 12345)', async () => {
  const user = await createUser(app)
  const res = await app.inject({
    method: 'PUT',
    url: '/api/notifications/device-token',
    headers: user.headers,
    payload: { token: 12345 },
  })
  assert.equal(res.statusCode, 422)
  assert.deepEqual(res.json(), { message: INVALID, errors: { token: ['The token field must be a string.'] } })
  const rows = await app.ctx.db.selectFrom('device_tokens').select('token').where('user_id', '=', user.id).execute()
  assert.deepEqual(rows, [])
})

test('"sport_id": 0 is not read as null; a string for an integer and a number for a boolean are 422', async () => {
  const { owner, venue } = await ownerWithCourt()
  const post = (payload: object) =>
    app.inject({ method: 'POST', url: `/api/venues/${venue.id}/courts`, headers: owner.headers, payload })
  const zero = await post({ name: 'Zero', sport_id: 0, price_per_hour: 1000 })
  assert.equal(zero.statusCode, 422, zero.body)
  assert.deepEqual(zero.json(), { message: INVALID, errors: { sport_id: ['The sport id field must be at least 1.'] } })

  const wrong = await post({ name: 'Wrong', capacity: '10', is_active: 1, price_per_hour: 1000 })
  assert.equal(wrong.statusCode, 422, wrong.body)
  assert.deepEqual(wrong.json(), {
    message: INVALID,
    errors: {
      capacity: ['The capacity field must be an integer.'],
      is_active: ['The is active field must be true or false.'],
    },
  })

  const fine = await post({ name: 'Null sport', type: 'padel', sport_id: null, price_per_hour: 1000 })
  assert.equal(fine.statusCode, 201, fine.body)
  assert.equal(fine.json().data.sport, null)
})

test('query strings and path parameters keep coercion ("5" is 5)', async () => {
  const { court } = await ownerWithCourt()
  const list = await app.inject({ method: 'GET', url: '/api/venues?per_page=5&page=1' })
  assert.equal(list.statusCode, 200, list.body)
  assert.equal(list.json().meta.per_page, 5)
  const shown = await app.inject({ method: 'GET', url: `/api/courts/${court.id}` })
  assert.equal(shown.statusCode, 200, shown.body)
  assert.equal(shown.json().data.id, court.id)
})
