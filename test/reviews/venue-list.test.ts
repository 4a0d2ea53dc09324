import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { build } from '../helpers/app.ts'
import { createUser, FIXED_NOW } from '../helpers/factories.ts'
import { insertReview, venueWithCustomer } from './fixtures.ts'

let app: App
before(async () => {
  app = await build(undefined, {}, { clock: new ManualClock(FIXED_NOW) })
})
after(() => app.close())

test('guests see approved reviews only, with average_rating and reviews_count; can_review false', async () => {
  const { venue } = await venueWithCustomer(app)
  const a = await createUser(app, { name: 'Asha' })
  const b = await createUser(app, { name: 'Bikash' })
  const c = await createUser(app)
  await insertReview(app, venue.id, a, { rating: 5, comment: 'Superb' })
  await insertReview(app, venue.id, b, { rating: 4 })
  await insertReview(app, venue.id, c, { rating: 1, is_approved: false })
  await app.ctx.db.updateTable('users').set({ avatar_path: 'avatars/asha.png' }).where('id', '=', a.id).execute()

  for (const path of [venue.id, venue.slug]) {
    const res = await app.inject({ method: 'GET', url: `/api/venues/${path}/reviews` })
    assert.equal(res.statusCode, 200)
    const body = res.json()
    assert.equal(body.average_rating, 4.5)
    assert.equal(body.reviews_count, 2)
    assert.equal(body.can_review, false)
    assert.equal(body.my_review, null)
    assert.equal(body.reviews.length, 2)
    const asha = body.reviews.find((r: { user: { id: number } }) => r.user.id === a.id)
    assert.deepEqual(asha.user, { id: a.id, name: 'Asha', avatar: 'http://localhost:8000/storage/avatars/asha.png' })
    assert.equal(asha.comment, 'Superb')
    assert.equal(asha.is_approved, true)
    assert.ok(body.reviews.every((r: { user: { id: number } }) => r.user.id !== c.id))
  }
})

test('with a token: can_review until the user reviews, then my_review (even while pending)', async () => {
  const { venue, customer } = await venueWithCustomer(app)
  const before = await app.inject({ method: 'GET', url: `/api/venues/${venue.id}/reviews`, headers: customer.headers })
  assert.equal(before.json().can_review, true)
  assert.equal(before.json().my_review, null)
  assert.equal(before.json().average_rating, 0)
  assert.equal(before.json().reviews_count, 0)

  const pending = await insertReview(app, venue.id, customer, { rating: 2, is_approved: false })
  const afterRes = await app.inject({
    method: 'GET',
    url: `/api/venues/${venue.id}/reviews`,
    headers: customer.headers,
  })
  const body = afterRes.json()
  assert.equal(body.can_review, false)
  assert.equal(body.my_review.id, pending.id)
  assert.equal(body.my_review.is_approved, false)
  assert.deepEqual(body.reviews, [])
})

test('hidden (unverified, inactive) or unknown venues are 404 to the public, visible to their owner', async () => {
  const { owner, venue } = await venueWithCustomer(app, { verification_status: 'unverified' })
  const res = await app.inject({ method: 'GET', url: `/api/venues/${venue.id}/reviews` })
  assert.equal(res.statusCode, 404)
  assert.deepEqual(res.json(), { message: 'Not found.' })
  const own = await app.inject({ method: 'GET', url: `/api/venues/${venue.id}/reviews`, headers: owner.headers })
  assert.equal(own.statusCode, 200)

  const { venue: inactive } = await venueWithCustomer(app, { is_active: false })
  assert.equal((await app.inject({ method: 'GET', url: `/api/venues/${inactive.id}/reviews` })).statusCode, 404)
  assert.equal((await app.inject({ method: 'GET', url: '/api/venues/999999/reviews' })).statusCode, 404)
})
