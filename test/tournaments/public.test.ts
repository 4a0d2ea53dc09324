import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { build } from '../helpers/app.ts'
import { FIXED_NOW } from '../helpers/factories.ts'
import { generate, insertTournament, ownerWithVenue, score, withTeams } from './helpers.ts'

let app: App
before(async () => {
  app = await build(undefined, {}, { clock: new ManualClock(FIXED_NOW) })
})
after(() => app.close())

test('the public list shows tournaments of visible venues, filterable by venue_id and status', async () => {
  const { venue } = await ownerWithVenue(app)
  const open = await insertTournament(app, venue.id, { registration_fee: 150000 })
  const closed = await insertTournament(app, venue.id, { status: 'registration_closed' })
  const { venue: hidden } = await ownerWithVenue(app, { verification_status: 'pending' })
  const secret = await insertTournament(app, hidden.id)

  const res = await app.inject({ method: 'GET', url: '/api/tournaments' })
  assert.equal(res.statusCode, 200)
  const ids = res.json().data.map((t: { id: number }) => t.id)
  assert.ok(ids.includes(open.id) && ids.includes(closed.id))
  assert.ok(!ids.includes(secret.id))
  const item = res.json().data.find((t: { id: number }) => t.id === open.id)
  assert.equal(item.registration_fee, '1500.00')
  assert.deepEqual(item.venue, { id: venue.id, name: venue.name, slug: venue.slug })
  assert.equal(item.teams, undefined)

  const filtered = await app.inject({
    method: 'GET',
    url: `/api/tournaments?venue_id=${venue.id}&status=registration_closed`,
  })
  assert.deepEqual(
    filtered.json().data.map((t: { id: number }) => t.id),
    [closed.id],
  )
  assert.equal((await app.inject({ method: 'GET', url: `/api/tournaments/${secret.id}` })).statusCode, 404)
  assert.equal((await app.inject({ method: 'GET', url: `/api/tournaments/${secret.id}/fixtures` })).statusCode, 404)
  assert.equal((await app.inject({ method: 'GET', url: '/api/tournaments/999999/standings' })).statusCode, 404)
  assert.equal((await app.inject({ method: 'GET', url: '/api/tournaments/abc' })).statusCode, 404)
})

test('detail has venue, teams and standings; fixtures and standings have the contract’s shapes', async () => {
  const { owner, venue } = await ownerWithVenue(app)
  const t = await insertTournament(app, venue.id, { format: 'league' })
  const [a, b, c] = await withTeams(app, t.id, ['Alpha', 'Bravo', 'Charlie'])

  const detail = (await app.inject({ method: 'GET', url: `/api/tournaments/${t.id}` })).json().data
  assert.equal(detail.id, t.id)
  assert.deepEqual(detail.venue, { id: venue.id, name: venue.name, slug: venue.slug })
  assert.equal(detail.teams.length, 3)
  assert.deepEqual(Object.keys(detail.teams[0]).sort(), [
    'captain_name',
    'contact_phone',
    'fee_paid',
    'fee_status',
    'id',
    'name',
    'player_count',
    'players',
    'registered_at',
  ])
  assert.equal(detail.teams[0].name, 'Alpha')
  assert.equal(detail.teams[0].player_count, 0)
  assert.equal(detail.standings.length, 3)

  assert.equal((await generate(app, t.id, owner)).statusCode, 201)
  const fixtures = (await app.inject({ method: 'GET', url: `/api/tournaments/${t.id}/fixtures` })).json().data
  assert.equal(fixtures.length, 3)
  const f = fixtures[0]
  assert.equal(typeof f.id, 'number')
  assert.equal(f.round, 'Round 1')
  assert.equal(f.match_number, 1)
  assert.deepEqual(Object.keys(f.team_a).sort(), ['id', 'name'])
  assert.match(f.scheduled_at, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
  assert.equal(f.status, 'scheduled')
  assert.equal(f.result, null)

  const ab = fixtures.find(
    (x: { team_a: { id: number }; team_b: { id: number } }) =>
      [x.team_a.id, x.team_b.id].sort().join() === [a, b].sort().join(),
  )
  const aIsA = ab.team_a.id === a
  await score(app, ab.id, owner, aIsA ? { score_a: 2, score_b: 1 } : { score_a: 1, score_b: 2 })
  const standings = (await app.inject({ method: 'GET', url: `/api/tournaments/${t.id}/standings` })).json().data
  assert.deepEqual(standings[0], {
    rank: 1,
    team: { id: a, name: 'Alpha' },
    played: 1,
    won: 1,
    drawn: 0,
    lost: 0,
    goals_for: 2,
    goals_against: 1,
    points: 3,
    group: null,
  })
  assert.deepEqual(
    standings.map((r: { team: { id: number } }) => r.team.id),
    [a, c, b],
  )
})
