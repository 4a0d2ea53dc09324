import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { build } from '../helpers/app.ts'
import { assignStaff, createUser, createVenue, FIXED_NOW } from '../helpers/factories.ts'
import { insertReview, venueWithCustomer } from './fixtures.ts'

// The console's Reviews page: a venue's reviews for its owner and managers (hidden ones included,
// unanswered first, by rating and visibility) and hiding a review from the public list.

let app: App
before(async () => {
  app = await build(undefined, {}, { clock: new ManualClock(FIXED_NOW) })
})
after(() => app.close())

test('owner and manager list every review of the venue: unanswered first, then newest; filters by rating and status', async () => {
  const { owner, venue } = await venueWithCustomer(app)
  const manager = await createUser(app, { roles: ['manager'] })
  await assignStaff(app, venue.id, manager.id, 'manager')
  const [u1, u2, u3, u4] = await Promise.all([1, 2, 3, 4].map(() => createUser(app)))
  const oldest = await insertReview(app, venue.id, u1, { rating: 5, comment: 'oldest' })
  const answered = await insertReview(app, venue.id, u2, { rating: 2, comment: 'answered' })
  const hidden = await insertReview(app, venue.id, u3, { rating: 2, comment: 'hidden', is_approved: false })
  const newest = await insertReview(app, venue.id, u4, { rating: 4, comment: 'newest' })
  const reply = await app.inject({
    method: 'POST',
    url: `/api/reviews/${answered.id}/replies`,
    headers: owner.headers,
    payload: { reply: 'Sorry about that' },
  })
  assert.equal(reply.statusCode, 201)

  const list = async (who: { headers: Record<string, string> }, query = '') => {
    const res = await app.inject({
      method: 'GET',
      url: `/api/venues/${venue.slug}/reviews/moderation${query}`,
      headers: who.headers,
    })
    assert.equal(res.statusCode, 200, res.body)
    return res.json() as { data: { id: number; replies: unknown[] }[]; meta: { total: number } }
  }
  const all = await list(owner)
  assert.deepEqual(
    all.data.map((r) => r.id),
    [newest.id, hidden.id, oldest.id, answered.id],
  )
  assert.equal(all.meta.total, 4)
  assert.equal(all.data[3].replies.length, 1)
  assert.deepEqual(
    (await list(manager, '?rating=2')).data.map((r) => r.id),
    [hidden.id, answered.id],
  )
  assert.deepEqual(
    (await list(manager, '?status=hidden')).data.map((r) => r.id),
    [hidden.id],
  )
  assert.equal((await list(owner, '?status=approved&per_page=2')).meta.total, 3)
})

test('the moderation list refuses staff, other owners and customers (403 before the query), guests 401, unknown venue 404', async () => {
  const { venue, customer } = await venueWithCustomer(app)
  const staff = await createUser(app, { roles: ['staff'] })
  await assignStaff(app, venue.id, staff.id, 'staff')
  const stranger = await createUser(app, { roles: ['venue_owner'] })
  await createVenue(app, stranger.id)
  const url = `/api/venues/${venue.id}/reviews/moderation?rating=9`
  for (const who of [staff, stranger, customer]) {
    assert.equal((await app.inject({ method: 'GET', url, headers: who.headers })).statusCode, 403)
  }
  assert.equal((await app.inject({ method: 'GET', url })).statusCode, 401)
  const unknown = await app.inject({
    method: 'GET',
    url: '/api/venues/999999/reviews/moderation',
    headers: staff.headers,
  })
  assert.equal(unknown.statusCode, 404)
})

test('hiding a review takes it out of the public list and the rating; approving shows it again', async () => {
  const { owner, venue, customer } = await venueWithCustomer(app)
  const other = await createUser(app)
  const low = await insertReview(app, venue.id, customer, { rating: 1 })
  await insertReview(app, venue.id, other, { rating: 5 })
  const refresh = await app.inject({
    method: 'PATCH',
    url: `/api/admin/reviews/${low.id}/approve`,
    headers: owner.headers,
  })
  assert.equal(refresh.statusCode, 200)
  const publicList = async () => (await app.inject({ method: 'GET', url: `/api/venues/${venue.id}/reviews` })).json()

  const hide = await app.inject({ method: 'PATCH', url: `/api/admin/reviews/${low.id}/hide`, headers: owner.headers })
  assert.equal(hide.statusCode, 200, hide.body)
  assert.equal(hide.json().message, 'Review hidden.')
  assert.equal(hide.json().data.is_approved, false)
  let list = await publicList()
  assert.equal(list.reviews_count, 1)
  assert.equal(list.average_rating, 5)
  const row = await app.ctx.db
    .selectFrom('venues')
    .select(['reviews_count', 'reviews_avg_rating'])
    .where('id', '=', venue.id)
    .executeTakeFirstOrThrow()
  assert.equal(Number(row.reviews_count), 1)
  assert.equal(Number(row.reviews_avg_rating), 5)

  const again = await app.inject({
    method: 'PATCH',
    url: `/api/admin/reviews/${low.id}/approve`,
    headers: owner.headers,
  })
  assert.equal(again.statusCode, 200)
  list = await publicList()
  assert.equal(list.reviews_count, 2)
  assert.equal(list.average_rating, 3)
})

test('hiding: staff, other owners and customers are 403, guests 401, unknown review 404', async () => {
  const { venue, customer } = await venueWithCustomer(app)
  const review = await insertReview(app, venue.id, customer)
  const staff = await createUser(app, { roles: ['staff'] })
  await assignStaff(app, venue.id, staff.id, 'staff')
  const stranger = await createUser(app, { roles: ['venue_owner'] })
  await createVenue(app, stranger.id)
  const url = `/api/admin/reviews/${review.id}/hide`
  for (const who of [staff, stranger, customer]) {
    assert.equal((await app.inject({ method: 'PATCH', url, headers: who.headers })).statusCode, 403)
  }
  assert.equal((await app.inject({ method: 'PATCH', url })).statusCode, 401)
  assert.equal(
    (await app.inject({ method: 'PATCH', url: '/api/admin/reviews/999999/hide', headers: staff.headers })).statusCode,
    404,
  )
})
