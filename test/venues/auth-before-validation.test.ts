import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { build } from '../helpers/app.ts'
import {
  assignStaff,
  createCourt,
  createIndoorGame,
  createUser,
  createVenue,
  daysFromFixedNow,
  FIXED_NOW,
} from '../helpers/factories.ts'

// Management routes check who the caller is at the venue before they look at the body: someone
// with no business there gets 403, never the validation details of a 422; an unknown id is 404.

let app: App
before(async () => {
  app = await build(undefined, {}, { clock: new ManualClock(FIXED_NOW) })
})
after(() => app.close())

test('strangers get 403 before body validation on every venue-scoped write; the venue’s people get the 422', async () => {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const staff = await createUser(app, { roles: ['staff'] })
  const stranger = await createUser(app, { roles: ['venue_owner'] })
  const venue = await createVenue(app, owner.id)
  await assignStaff(app, venue.id, staff.id, 'staff')
  const court = await createCourt(app, venue.id)
  const game = await createIndoorGame(app, venue.id)
  const tournament = await app.ctx.db
    .insertInto('tournaments')
    .values({
      venue_id: venue.id,
      name: 'Cup',
      format: 'knockout',
      sport_type: 'futsal',
      max_teams: 4,
      starts_at: daysFromFixedNow(5),
      ends_at: daysFromFixedNow(6),
      status: 'registration_closed',
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  const teams = []
  for (const name of ['A', 'B']) {
    teams.push(
      await app.ctx.db
        .insertInto('tournament_teams')
        .values({ tournament_id: tournament.id, name, captain_name: 'C' })
        .returning('id')
        .executeTakeFirstOrThrow(),
    )
  }
  const fixture = await app.ctx.db
    .insertInto('fixtures')
    .values({
      tournament_id: tournament.id,
      stage: 'knockout',
      round: 'Final',
      round_number: 1,
      match_number: 1,
      team_a_id: teams[0].id,
      team_b_id: teams[1].id,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  const review = await app.ctx.db
    .insertInto('reviews')
    .values({ venue_id: venue.id, user_id: stranger.id, rating: 4, is_approved: true })
    .returning('id')
    .executeTakeFirstOrThrow()

  const bad = { name: '', price_per_hour: 'lots', schedules: 'none', type: 'nope', score_a: -1, reply: '' }
  const routes: Array<['POST' | 'PUT' | 'PATCH' | 'GET', string]> = [
    ['PUT', `/api/venues/${venue.id}`],
    ['PATCH', `/api/venues/${venue.slug}`],
    ['POST', `/api/venues/${venue.id}/images`],
    ['POST', `/api/venues/${venue.id}/holidays`],
    ['POST', `/api/venues/${venue.id}/courts`],
    ['PUT', `/api/courts/${court.id}`],
    ['PUT', `/api/courts/${court.id}/schedule`],
    ['POST', `/api/courts/${court.id}/pricing`],
    ['POST', `/api/courts/${court.id}/blocks`],
    ['GET', `/api/courts/${court.id}/blocks?date=tomorrow`],
    ['POST', `/api/venues/${venue.id}/indoor-games`],
    ['PATCH', `/api/indoor-games/${game.id}`],
    ['PUT', `/api/tournaments/${tournament.id}`],
    ['PATCH', `/api/tournaments/${tournament.id}/status`],
    ['PATCH', `/api/fixtures/${fixture.id}`],
  ]
  for (const [method, url] of routes) {
    const payload = method === 'GET' ? undefined : bad
    const res = await app.inject({ method, url, headers: stranger.headers, payload })
    assert.equal(res.statusCode, 403, `${method} ${url}`)
    assert.deepEqual(res.json(), { message: 'This action is unauthorized.' }, `${method} ${url}`)
    const mine = await app.inject({ method, url, headers: owner.headers, payload })
    assert.equal(mine.statusCode, 422, `${method} ${url} (owner)`)
  }
  // Staff may manage blocks but not the venue's courts.
  assert.equal(
    (await app.inject({ method: 'POST', url: `/api/courts/${court.id}/blocks`, headers: staff.headers, payload: bad }))
      .statusCode,
    422,
  )
  assert.equal(
    (await app.inject({ method: 'PUT', url: `/api/courts/${court.id}`, headers: staff.headers, payload: bad }))
      .statusCode,
    403,
  )
  // The staff-assignment route is the owner's alone.
  const staffRes = await app.inject({
    method: 'POST',
    url: `/api/venues/${venue.id}/staff`,
    headers: staff.headers,
    payload: { email: 'not-an-email' },
  })
  assert.equal(staffRes.statusCode, 403)
  // Review replies: venue staff only; the reviewer of another venue's… venue gets 403 first.
  const reply = await app.inject({
    method: 'POST',
    url: `/api/reviews/${review.id}/replies`,
    headers: stranger.headers,
    payload: { reply: 42 },
  })
  assert.equal(reply.statusCode, 403)
  const ownReply = await app.inject({
    method: 'POST',
    url: `/api/reviews/${review.id}/replies`,
    headers: staff.headers,
    payload: {},
  })
  assert.equal(ownReply.statusCode, 422)

  // Unknown targets are 404 before validation too.
  for (const [method, url] of [
    ['PUT', '/api/courts/999999'],
    ['PATCH', '/api/indoor-games/999999'],
    ['PUT', '/api/tournaments/999999'],
    ['PATCH', '/api/fixtures/999999'],
    ['POST', '/api/reviews/999999/replies'],
    ['POST', '/api/venues/no-such-venue/courts'],
  ] as const) {
    const res = await app.inject({ method, url, headers: owner.headers, payload: bad })
    assert.equal(res.statusCode, 404, `${method} ${url}`)
  }
})
