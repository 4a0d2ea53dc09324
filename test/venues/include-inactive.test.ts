import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { build } from '../helpers/app.ts'
import {
  assignStaff,
  createCourt,
  createIndoorGame,
  createUser,
  createVenue,
  type TestUser,
} from '../helpers/factories.ts'

// GET /venues/{venue}/courts and /indoor-games with include_inactive: the venue's people (and
// super_admin) also see deactivated rows; guests and customers never do.

let app: App
before(async () => {
  app = await build()
})
after(() => app.close())

async function venueWithInactive() {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const manager = await createUser(app, { roles: ['manager'] })
  const staff = await createUser(app, { roles: ['staff'] })
  const venue = await createVenue(app, owner.id)
  await assignStaff(app, venue.id, manager.id, 'manager')
  await assignStaff(app, venue.id, staff.id, 'staff')
  const on = await createCourt(app, venue.id, { name: 'Court On' })
  const off = await createCourt(app, venue.id, { name: 'Court Off', is_active: false })
  const gameOn = await createIndoorGame(app, venue.id, { name: 'Table On', game_type: 'carrom' })
  const gameOff = await createIndoorGame(app, venue.id, { name: 'Table Off', game_type: 'carrom', is_active: false })
  return { owner, manager, staff, venue, on, off, gameOn, gameOff }
}

const get = (url: string, who?: TestUser) => app.inject({ method: 'GET', url, headers: who?.headers })

async function listed(url: string, who?: TestUser): Promise<[number, boolean][]> {
  const res = await get(url, who)
  assert.equal(res.statusCode, 200, res.body)
  return res.json().data.map((r: { id: number; is_active: boolean }) => [r.id, r.is_active])
}

test('the owner, a manager, staff and super_admin see inactive courts and games with include_inactive', async () => {
  const v = await venueWithInactive()
  const admin = await createUser(app, { roles: ['super_admin'] })
  for (const who of [v.owner, v.manager, v.staff, admin]) {
    for (const flag of ['true', '1']) {
      assert.deepEqual(await listed(`/api/venues/${v.venue.id}/courts?include_inactive=${flag}`, who), [
        [v.on.id, true],
        [v.off.id, false],
      ])
      assert.deepEqual(await listed(`/api/venues/${v.venue.slug}/indoor-games?include_inactive=${flag}`, who), [
        [v.gameOn.id, true],
        [v.gameOff.id, false],
      ])
    }
    // Without it (or with false) they get the public list.
    assert.deepEqual(await listed(`/api/venues/${v.venue.id}/courts`, who), [[v.on.id, true]])
    assert.deepEqual(await listed(`/api/venues/${v.venue.id}/courts?include_inactive=false`, who), [[v.on.id, true]])
    assert.deepEqual(await listed(`/api/venues/${v.venue.id}/indoor-games?include_inactive=0`, who), [
      [v.gameOn.id, true],
    ])
  }
})

test('a guest, a customer and another venue’s owner still see only active courts and games', async () => {
  const v = await venueWithInactive()
  const customer = await createUser(app)
  const stranger = await createUser(app, { roles: ['venue_owner'] })
  await createVenue(app, stranger.id)
  for (const who of [undefined, customer, stranger]) {
    assert.deepEqual(await listed(`/api/venues/${v.venue.id}/courts?include_inactive=1`, who), [[v.on.id, true]])
    assert.deepEqual(await listed(`/api/venues/${v.venue.id}/indoor-games?include_inactive=true`, who), [
      [v.gameOn.id, true],
    ])
  }
  // The guest's answer after the owner's staff view is still the public one.
  await listed(`/api/venues/${v.venue.id}/courts?include_inactive=1`, v.owner)
  assert.deepEqual(await listed(`/api/venues/${v.venue.id}/courts?include_inactive=1`), [[v.on.id, true]])
})

test('include_inactive combines with game_type; a reactivated court is listed as active again', async () => {
  const v = await venueWithInactive()
  const chess = await createIndoorGame(app, v.venue.id, { name: 'Chess Off', game_type: 'chess', is_active: false })
  assert.deepEqual(await listed(`/api/venues/${v.venue.id}/indoor-games?game_type=chess&include_inactive=1`, v.owner), [
    [chess.id, false],
  ])
  const put = await app.inject({
    method: 'PUT',
    url: `/api/courts/${v.off.id}`,
    headers: v.owner.headers,
    payload: { is_active: true },
  })
  assert.equal(put.statusCode, 200, put.body)
  assert.deepEqual(await listed(`/api/venues/${v.venue.id}/courts`), [
    [v.on.id, true],
    [v.off.id, true],
  ])
})

test('include_inactive must be a boolean; a deleted court is never listed', async () => {
  const v = await venueWithInactive()
  const bad = await get(`/api/venues/${v.venue.id}/courts?include_inactive=maybe`, v.owner)
  assert.equal(bad.statusCode, 422, bad.body)
  assert.ok(bad.json().errors.include_inactive, bad.body)
  const badGames = await get(`/api/venues/${v.venue.id}/indoor-games?include_inactive=yes`, v.owner)
  assert.equal(badGames.statusCode, 422, badGames.body)
  assert.ok(badGames.json().errors.include_inactive, badGames.body)
  await app.ctx.db.updateTable('courts').set({ deleted_at: new Date() }).where('id', '=', v.off.id).execute()
  assert.deepEqual(await listed(`/api/venues/${v.venue.id}/courts?include_inactive=1`, v.owner), [[v.on.id, true]])
})

test('a hidden venue stays 404 for a guest with include_inactive', async () => {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const venue = await createVenue(app, owner.id, { verification_status: 'pending' })
  await createCourt(app, venue.id, { is_active: false })
  const res = await get(`/api/venues/${venue.id}/courts?include_inactive=1`)
  assert.equal(res.statusCode, 404, res.body)
  const games = await get(`/api/venues/${venue.id}/indoor-games?include_inactive=1`)
  assert.equal(games.statusCode, 404)
  assert.equal((await listed(`/api/venues/${venue.id}/courts?include_inactive=1`, owner)).length, 1)
})
