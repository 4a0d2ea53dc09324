import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { build } from '../helpers/app.ts'
import { createUser, FIXED_NOW } from '../helpers/factories.ts'
import { insertTournament, ownerWithVenue, withTeams } from './helpers.ts'

let app: App
before(async () => {
  app = await build(undefined, {}, { clock: new ManualClock(FIXED_NOW) })
})
after(() => app.close())

const register = (tournamentId: number, headers: Record<string, string> | undefined, payload: unknown) =>
  app.inject({ method: 'POST', url: `/api/tournaments/${tournamentId}/teams`, headers, payload: payload as object })

const CLOSED = { message: 'Tournament registration is closed.' }

test('a customer registers a team: 201 data Team, the count grows, a TournamentRegistered notification', async () => {
  const { venue } = await ownerWithVenue(app)
  const t = await insertTournament(app, venue.id, { max_teams: 4 })
  const user = await createUser(app)
  const res = await register(t.id, user.headers, {
    name: '  Thunder FC ',
    captain_name: 'Ram',
    contact_phone: '9800000001',
    players: [{ name: 'Hari', position: 'Goalkeeper' }, { name: 'Shyam', position: 'Striker' }, { name: 'Gita' }],
  })
  assert.equal(res.statusCode, 201)
  const team = res.json().data
  assert.equal(typeof team.id, 'number')
  assert.equal(team.name, 'Thunder FC')
  assert.equal(team.captain_name, 'Ram')
  assert.equal(team.contact_phone, '9800000001')
  assert.equal(team.player_count, 3)
  assert.deepEqual(team.players, [
    { name: 'Hari', position: 'Goalkeeper' },
    { name: 'Shyam', position: 'Striker' },
    { name: 'Gita', position: null },
  ])
  assert.match(team.registered_at, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)

  const detail = (await app.inject({ method: 'GET', url: `/api/tournaments/${t.id}` })).json().data
  assert.equal(detail.registered_teams, 1)
  assert.deepEqual(
    detail.teams.map((x: { id: number }) => x.id),
    [team.id],
  )

  const inbox = (await app.inject({ method: 'GET', url: '/api/notifications', headers: user.headers })).json().data
  assert.equal(inbox.length, 1)
  assert.match(inbox[0].type, /\\TournamentRegistered$/)
  assert.equal(inbox[0].read_at, null)
  assert.equal(inbox[0].data.tournament_id, t.id)
  assert.equal(inbox[0].data.team_id, team.id)
  assert.equal(inbox[0].data.message, `Your team Thunder FC is registered for ${t.name}.`)
})

test('contact_phone and players are optional', async () => {
  const { venue } = await ownerWithVenue(app)
  const t = await insertTournament(app, venue.id)
  const user = await createUser(app)
  const res = await register(t.id, user.headers, { name: 'Solo', captain_name: 'Sita' })
  assert.equal(res.statusCode, 201)
  assert.equal(res.json().data.contact_phone, null)
  assert.equal(res.json().data.player_count, 0)
  assert.deepEqual(res.json().data.players, [])
})

test('registration closed, cancelled or ongoing, or the team limit reached, is 422 "Tournament registration is closed."', async () => {
  const { venue } = await ownerWithVenue(app)
  const user = await createUser(app)
  for (const status of ['registration_closed', 'ongoing', 'completed', 'cancelled']) {
    const t = await insertTournament(app, venue.id, { status })
    const res = await register(t.id, user.headers, { name: 'Late', captain_name: 'X' })
    assert.equal(res.statusCode, 422, status)
    assert.deepEqual(res.json(), CLOSED)
  }
  const full = await insertTournament(app, venue.id, { max_teams: 2 })
  await withTeams(app, full.id, ['One', 'Two'], false)
  const res = await register(full.id, user.headers, { name: 'Three', captain_name: 'X' })
  assert.equal(res.statusCode, 422)
  assert.deepEqual(res.json(), CLOSED)
  const row = await app.ctx.db
    .selectFrom('tournaments')
    .select('registered_teams')
    .where('id', '=', full.id)
    .executeTakeFirstOrThrow()
  assert.equal(row.registered_teams, 2)
})

test('the same team name twice (any case) is 422 on name', async () => {
  const { venue } = await ownerWithVenue(app)
  const t = await insertTournament(app, venue.id)
  const a = await createUser(app)
  const b = await createUser(app)
  assert.equal((await register(t.id, a.headers, { name: 'Eagles', captain_name: 'A' })).statusCode, 201)
  const res = await register(t.id, b.headers, { name: ' eagles ', captain_name: 'B' })
  assert.equal(res.statusCode, 422)
  assert.deepEqual(res.json(), {
    message: 'The given data was invalid.',
    errors: { name: ['The name has already been taken.'] },
  })
  const detail = (await app.inject({ method: 'GET', url: `/api/tournaments/${t.id}` })).json().data
  assert.equal(detail.registered_teams, 1)
})

test('validation: name and captain_name required; players need names; wrong types are 422', async () => {
  const { venue } = await ownerWithVenue(app)
  const t = await insertTournament(app, venue.id)
  const user = await createUser(app)
  let res = await register(t.id, user.headers, {})
  assert.equal(res.statusCode, 422)
  assert.equal(res.json().message, 'The given data was invalid.')
  assert.ok(res.json().errors.name)
  assert.ok(res.json().errors.captain_name)
  res = await register(t.id, user.headers, { name: '   ', captain_name: 'A' })
  assert.equal(res.statusCode, 422)
  assert.deepEqual(res.json().errors, { name: ['The name field is required.'] })
  res = await register(t.id, user.headers, { name: 'X', captain_name: 'A', players: [{ position: 'GK' }] })
  assert.equal(res.statusCode, 422)
  res = await register(t.id, user.headers, { name: 'X', captain_name: 'A', players: 'many' })
  assert.equal(res.statusCode, 422)
  const detail = (await app.inject({ method: 'GET', url: `/api/tournaments/${t.id}` })).json().data
  assert.equal(detail.registered_teams, 0)
})

test('guests are 401; unknown tournaments and tournaments of hidden venues are 404', async () => {
  const { venue } = await ownerWithVenue(app)
  const t = await insertTournament(app, venue.id)
  const res = await register(t.id, undefined, { name: 'A', captain_name: 'B' })
  assert.equal(res.statusCode, 401)
  assert.deepEqual(res.json(), { message: 'Unauthenticated.' })
  const user = await createUser(app)
  assert.equal((await register(999999, user.headers, { name: 'A', captain_name: 'B' })).statusCode, 404)
  assert.equal((await register(Number.NaN, user.headers, { name: 'A', captain_name: 'B' })).statusCode, 404)
  const { venue: hidden } = await ownerWithVenue(app, { verification_status: 'pending' })
  const secret = await insertTournament(app, hidden.id)
  const hiddenRes = await register(secret.id, user.headers, { name: 'A', captain_name: 'B' })
  assert.equal(hiddenRes.statusCode, 404)
  assert.deepEqual(hiddenRes.json(), { message: 'Not found.' })
})

test('N concurrent registrations for the last place: exactly one succeeds, the others are closed', async () => {
  const { venue } = await ownerWithVenue(app)
  const t = await insertTournament(app, venue.id, { max_teams: 3 })
  await withTeams(app, t.id, ['First', 'Second'], false)
  const users = await Promise.all(Array.from({ length: 8 }, () => createUser(app)))
  const results = await Promise.all(
    users.map((u, i) => register(t.id, u.headers, { name: `Racer ${i}`, captain_name: `C${i}` })),
  )
  const codes = results.map((r) => r.statusCode).sort()
  assert.deepEqual(codes, [201, 422, 422, 422, 422, 422, 422, 422])
  for (const r of results.filter((x) => x.statusCode === 422)) assert.deepEqual(r.json(), CLOSED)
  const row = await app.ctx.db
    .selectFrom('tournaments')
    .select('registered_teams')
    .where('id', '=', t.id)
    .executeTakeFirstOrThrow()
  assert.equal(row.registered_teams, 3)
  const teams = await app.ctx.db.selectFrom('tournament_teams').select('id').where('tournament_id', '=', t.id).execute()
  assert.equal(teams.length, 3)
  const notes = await app.ctx.db
    .selectFrom('notifications')
    .select('id')
    .where('type', 'like', '%TournamentRegistered')
    .where(
      'user_id',
      'in',
      users.map((u) => u.id),
    )
    .execute()
  assert.equal(notes.length, 1)
})

test('the same new name raced by several users: one team only', async () => {
  const { venue } = await ownerWithVenue(app)
  const t = await insertTournament(app, venue.id, { max_teams: 10 })
  const users = await Promise.all(Array.from({ length: 5 }, () => createUser(app)))
  const results = await Promise.all(users.map((u) => register(t.id, u.headers, { name: 'Twins', captain_name: 'C' })))
  const codes = results.map((r) => r.statusCode).sort()
  assert.deepEqual(codes, [201, 422, 422, 422, 422])
  for (const r of results.filter((x) => x.statusCode === 422)) {
    assert.deepEqual(r.json().errors, { name: ['The name has already been taken.'] })
  }
  const detail = (await app.inject({ method: 'GET', url: `/api/tournaments/${t.id}` })).json().data
  assert.equal(detail.registered_teams, 1)
})
