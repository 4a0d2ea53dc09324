import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { build } from '../helpers/app.ts'
import { assignStaff, createUser, createVenue, FIXED_NOW } from '../helpers/factories.ts'
import { insertReview, venueWithCustomer } from './fixtures.ts'

let app: App
before(async () => {
  app = await build(undefined, {}, { clock: new ManualClock(FIXED_NOW) })
})
after(() => app.close())

test('owner, manager and staff of the venue reply to a review: 201 data reply, shown on the review', async () => {
  const { owner, venue, customer } = await venueWithCustomer(app)
  const manager = await createUser(app, { roles: ['manager'], name: 'Manager M' })
  const staff = await createUser(app, { roles: ['staff'] })
  await assignStaff(app, venue.id, manager.id, 'manager')
  await assignStaff(app, venue.id, staff.id, 'staff')
  const review = await insertReview(app, venue.id, customer)

  for (const who of [owner, manager, staff]) {
    const res = await app.inject({
      method: 'POST',
      url: `/api/reviews/${review.id}/replies`,
      headers: who.headers,
      payload: { reply: 'Thank you!' },
    })
    assert.equal(res.statusCode, 201)
    const data = res.json().data
    assert.equal(typeof data.id, 'number')
    assert.equal(data.reply, 'Thank you!')
    assert.equal(data.user.id, who.id)
    assert.equal(typeof data.user.name, 'string')
    assert.match(data.created_at, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
  }
  const list = (await app.inject({ method: 'GET', url: `/api/venues/${venue.id}/reviews` })).json()
  assert.equal(list.reviews[0].replies.length, 3)
  assert.deepEqual(list.reviews[0].replies[1].user, { id: manager.id, name: 'Manager M' })
})

test('replies: other venues’ people are 403, guests 401, unknown review 404, empty reply 422', async () => {
  const { owner, venue, customer } = await venueWithCustomer(app)
  const review = await insertReview(app, venue.id, customer)
  const stranger = await createUser(app, { roles: ['venue_owner'] })
  await createVenue(app, stranger.id)
  const url = `/api/reviews/${review.id}/replies`
  assert.equal(
    (await app.inject({ method: 'POST', url, headers: stranger.headers, payload: { reply: 'x' } })).statusCode,
    403,
  )
  assert.equal(
    (await app.inject({ method: 'POST', url, headers: customer.headers, payload: { reply: 'x' } })).statusCode,
    403,
  )
  assert.equal((await app.inject({ method: 'POST', url, payload: { reply: 'x' } })).statusCode, 401)
  for (const bad of ['/api/reviews/999999/replies', '/api/reviews/abc/replies']) {
    const res = await app.inject({ method: 'POST', url: bad, headers: stranger.headers, payload: { reply: 'x' } })
    assert.equal(res.statusCode, 404)
  }
  const empty = await app.inject({ method: 'POST', url, headers: owner.headers, payload: {} })
  assert.equal(empty.statusCode, 422)
  assert.deepEqual(empty.json().errors, { reply: ['The reply field is required.'] })
})

test('admin list: reviews of venues the caller owns or manages (not staff), with venue; is_approved filter', async () => {
  const { owner, venue, customer } = await venueWithCustomer(app)
  const { venue: otherVenue, customer: c2 } = await venueWithCustomer(app)
  const pending = await insertReview(app, venue.id, customer, { is_approved: false })
  const approved = await insertReview(app, venue.id, c2)
  await insertReview(app, otherVenue.id, customer)

  const res = await app.inject({ method: 'GET', url: '/api/admin/reviews', headers: owner.headers })
  assert.equal(res.statusCode, 200)
  const body = res.json()
  assert.equal(body.meta.total, 2)
  assert.deepEqual(body.data.map((r: { id: number }) => r.id).sort(), [pending.id, approved.id].sort())
  assert.deepEqual(body.data[0].venue, { id: venue.id, name: venue.name })
  assert.equal(typeof body.data[0].rating, 'number')

  const onlyPending = (
    await app.inject({ method: 'GET', url: '/api/admin/reviews?is_approved=false', headers: owner.headers })
  ).json()
  assert.deepEqual(
    onlyPending.data.map((r: { id: number }) => r.id),
    [pending.id],
  )

  const manager = await createUser(app, { roles: ['manager'] })
  await assignStaff(app, venue.id, manager.id, 'manager')
  const asManager = (await app.inject({ method: 'GET', url: '/api/admin/reviews', headers: manager.headers })).json()
  assert.equal(asManager.meta.total, 2)

  const staffManager = await createUser(app, { roles: ['manager'] })
  await assignStaff(app, venue.id, staffManager.id, 'staff')
  const asStaff = (await app.inject({ method: 'GET', url: '/api/admin/reviews', headers: staffManager.headers })).json()
  assert.equal(asStaff.meta.total, 0)

  const admin = await createUser(app, { roles: ['super_admin'] })
  const all = (await app.inject({ method: 'GET', url: '/api/admin/reviews', headers: admin.headers })).json()
  assert.ok(all.meta.total >= 3)

  assert.equal(
    (await app.inject({ method: 'GET', url: '/api/admin/reviews', headers: customer.headers })).statusCode,
    403,
  )
  assert.equal((await app.inject({ method: 'GET', url: '/api/admin/reviews' })).statusCode, 401)
})

test('approve: owner or manager of that venue; 200 message and data; the venue rating counts it', async () => {
  const { owner, venue, customer } = await venueWithCustomer(app)
  const pending = await insertReview(app, venue.id, customer, { rating: 3, is_approved: false })
  const url = `/api/admin/reviews/${pending.id}/approve`

  const staff = await createUser(app, { roles: ['staff'] })
  await assignStaff(app, venue.id, staff.id, 'staff')
  assert.equal((await app.inject({ method: 'PATCH', url, headers: staff.headers })).statusCode, 403)
  const stranger = await createUser(app, { roles: ['venue_owner'] })
  assert.equal((await app.inject({ method: 'PATCH', url, headers: stranger.headers })).statusCode, 403)
  assert.equal((await app.inject({ method: 'PATCH', url })).statusCode, 401)
  assert.equal(
    (await app.inject({ method: 'PATCH', url: '/api/admin/reviews/999999/approve', headers: owner.headers }))
      .statusCode,
    404,
  )

  const res = await app.inject({ method: 'PATCH', url, headers: owner.headers })
  assert.equal(res.statusCode, 200)
  assert.equal(res.json().message, 'Review approved.')
  assert.equal(res.json().data.id, pending.id)
  assert.equal(res.json().data.is_approved, true)
  const v = await app.ctx.db
    .selectFrom('venues')
    .select(['reviews_count', 'reviews_avg_rating'])
    .where('id', '=', venue.id)
    .executeTakeFirstOrThrow()
  assert.equal(v.reviews_count, 1)
  assert.equal(Number(v.reviews_avg_rating), 3)

  const manager = await createUser(app, { roles: ['manager'] })
  await assignStaff(app, venue.id, manager.id, 'manager')
  assert.equal((await app.inject({ method: 'PATCH', url, headers: manager.headers })).statusCode, 200)
})
