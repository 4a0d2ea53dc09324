import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { build } from '../helpers/app.ts'
import { assignStaff, createUser, daysFromFixedNow, FIXED_NOW } from '../helpers/factories.ts'
import { insertTournament, ownerWithVenue } from './helpers.ts'

let app: App
before(async () => {
  app = await build(undefined, {}, { clock: new ManualClock(FIXED_NOW) })
})
after(() => app.close())

const body = (venueId: number, extra: Record<string, unknown> = {}) => ({
  venue_id: venueId,
  name: 'Winter Futsal Cup',
  description: 'Eight teams, one trophy',
  format: 'knockout',
  sport_type: 'futsal',
  max_teams: 8,
  registration_fee: '1500',
  prize_pool: 50000.5,
  starts_at: daysFromFixedNow(10),
  ends_at: daysFromFixedNow(12),
  ...extra,
})

test('the owner (or a manager) creates a tournament: 201 data Tournament', async () => {
  const { owner, venue } = await ownerWithVenue(app)
  const res = await app.inject({
    method: 'POST',
    url: '/api/tournaments',
    headers: owner.headers,
    payload: body(venue.id),
  })
  assert.equal(res.statusCode, 201, res.body)
  const t = res.json().data
  assert.equal(typeof t.id, 'number')
  assert.equal(t.name, 'Winter Futsal Cup')
  assert.equal(t.description, 'Eight teams, one trophy')
  assert.equal(t.format, 'knockout')
  assert.equal(t.sport_type, 'futsal')
  assert.equal(t.max_teams, 8)
  assert.equal(t.registered_teams, 0)
  assert.equal(t.registration_fee, '1500.00')
  assert.equal(t.prize_pool, '50000.50')
  assert.equal(t.starts_at, daysFromFixedNow(10))
  assert.equal(t.ends_at, daysFromFixedNow(12))
  assert.equal(t.status, 'registration_open')
  assert.deepEqual(t.venue, { id: venue.id, name: venue.name, slug: venue.slug })
  assert.deepEqual(t.teams, [])
  assert.deepEqual(t.standings, [])
  assert.match(t.created_at, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)

  const manager = await createUser(app, { roles: ['manager'] })
  await assignStaff(app, venue.id, manager.id, 'manager')
  const byManager = await app.inject({
    method: 'POST',
    url: '/api/tournaments',
    headers: manager.headers,
    payload: body(venue.id, { format: 'league' }),
  })
  assert.equal(byManager.statusCode, 201)
})

test('create: staff, customers and other owners are 403; guests 401; validation is 422', async () => {
  const { owner, venue } = await ownerWithVenue(app)
  const staff = await createUser(app, { roles: ['staff'] })
  await assignStaff(app, venue.id, staff.id, 'staff')
  const other = await ownerWithVenue(app)
  const customer = await createUser(app)
  for (const who of [staff, other.owner, customer]) {
    const res = await app.inject({
      method: 'POST',
      url: '/api/tournaments',
      headers: who.headers,
      payload: body(venue.id),
    })
    assert.equal(res.statusCode, 403)
    assert.deepEqual(res.json(), { message: 'This action is unauthorized.' })
  }
  assert.equal((await app.inject({ method: 'POST', url: '/api/tournaments', payload: body(venue.id) })).statusCode, 401)

  const cases: [Record<string, unknown>, Record<string, string[]>][] = [
    [{ format: 'swiss' }, { format: ['The selected format is invalid.'] }],
    [{ max_teams: 1 }, { max_teams: ['The max teams field must be at least 2.'] }],
    [{ name: undefined }, { name: ['The name field is required.'] }],
    [{ ends_at: daysFromFixedNow(5) }, { ends_at: ['The ends at field must be a date after or equal to starts at.'] }],
    [
      { starts_at: daysFromFixedNow(-1) },
      { starts_at: ['The starts at field must be a date after or equal to today.'] },
    ],
    [{ venue_id: 999999 }, { venue_id: ['The selected venue id is invalid.'] }],
  ]
  for (const [extra, errors] of cases) {
    const res = await app.inject({
      method: 'POST',
      url: '/api/tournaments',
      headers: owner.headers,
      payload: body(venue.id, extra),
    })
    assert.equal(res.statusCode, 422, JSON.stringify(extra))
    assert.deepEqual(res.json(), { message: 'The given data was invalid.', errors })
  }
})

test('update is partial; max_teams cannot drop below the registered teams', async () => {
  const { owner, venue } = await ownerWithVenue(app)
  const t = await insertTournament(app, venue.id)
  await app.ctx.db.updateTable('tournaments').set({ registered_teams: 3 }).where('id', '=', t.id).execute()
  const res = await app.inject({
    method: 'PUT',
    url: `/api/tournaments/${t.id}`,
    headers: owner.headers,
    payload: { name: 'Renamed Cup', prize_pool: '1000' },
  })
  assert.equal(res.statusCode, 200)
  assert.equal(res.json().data.name, 'Renamed Cup')
  assert.equal(res.json().data.prize_pool, '1000.00')
  assert.equal(res.json().data.format, 'league')

  const low = await app.inject({
    method: 'PUT',
    url: `/api/tournaments/${t.id}`,
    headers: owner.headers,
    payload: { max_teams: 2 },
  })
  assert.equal(low.statusCode, 422)
  assert.deepEqual(low.json().errors, { max_teams: ['The max teams field must be at least 3.'] })

  const stranger = await ownerWithVenue(app)
  const denied = await app.inject({
    method: 'PUT',
    url: `/api/tournaments/${t.id}`,
    headers: stranger.owner.headers,
    payload: { name: 'x' },
  })
  assert.equal(denied.statusCode, 403)
  for (const id of ['999999', 'abc']) {
    const res404 = await app.inject({
      method: 'PUT',
      url: `/api/tournaments/${id}`,
      headers: owner.headers,
      payload: {},
    })
    assert.equal(res404.statusCode, 404)
  }
})

test('status moves open → closed → ongoing → completed; cancelling works from any state but completed', async () => {
  const { owner, venue } = await ownerWithVenue(app)
  const t = await insertTournament(app, venue.id)
  const move = (id: number, status: string) =>
    app.inject({ method: 'PATCH', url: `/api/tournaments/${id}/status`, headers: owner.headers, payload: { status } })

  const skip = await move(t.id, 'ongoing')
  assert.equal(skip.statusCode, 422)
  assert.deepEqual(skip.json(), {
    message: 'The given data was invalid.',
    errors: { status: ['The tournament cannot move from registration_open to ongoing.'] },
  })
  for (const status of ['registration_closed', 'ongoing', 'completed']) {
    const res = await move(t.id, status)
    assert.equal(res.statusCode, 200)
    assert.equal(res.json().data.status, status)
  }
  assert.equal((await move(t.id, 'cancelled')).statusCode, 422)
  assert.equal((await move(t.id, 'registration_open')).statusCode, 422)

  const other = await insertTournament(app, venue.id, { status: 'ongoing' })
  assert.equal((await move(other.id, 'cancelled')).json().data.status, 'cancelled')
  assert.equal((await move(other.id, 'ongoing')).statusCode, 422)
  const bad = await move(other.id, 'paused')
  assert.equal(bad.statusCode, 422)
  assert.deepEqual(bad.json().errors, { status: ['The selected status is invalid.'] })

  const customer = await createUser(app)
  const denied = await app.inject({
    method: 'PATCH',
    url: `/api/tournaments/${t.id}/status`,
    headers: customer.headers,
    payload: { status: 'cancelled' },
  })
  assert.equal(denied.statusCode, 403)
})
