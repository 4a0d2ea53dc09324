import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { build } from '../helpers/app.ts'
import {
  assignStaff,
  createIndoorGame,
  createUser,
  createVenue,
  daysFromFixedNow,
  FIXED_NOW,
  type TestUser,
} from '../helpers/factories.ts'
import { payInsertedBookings } from '../helpers/ledger.ts'

// A fixed start; dates are counted from its day (daysFromFixedNow), never from the real date.
const clock = new ManualClock(FIXED_NOW)
let app: App
before(async () => {
  app = await build(undefined, {}, { clock })
})
after(() => app.close())

const send = (method: 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'GET', url: string, who?: TestUser, payload?: object) =>
  app.inject({ method, url, headers: who?.headers, payload })

async function team() {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const manager = await createUser(app, { roles: ['manager'] })
  const staff = await createUser(app, { roles: ['staff'] })
  const venue = await createVenue(app, owner.id)
  await assignStaff(app, venue.id, manager.id, 'manager')
  await assignStaff(app, venue.id, staff.id, 'staff')
  return { owner, manager, staff, venue }
}

test('GET /venues/{venueId}/indoor-games: active games in display order, filtered by game_type', async () => {
  const { owner, venue } = await team()
  const ps = await createIndoorGame(app, venue.id, { name: 'PS5 #1', game_type: 'playstation' })
  const chess = await createIndoorGame(app, venue.id, { name: 'Chess', game_type: 'chess', price_per_hour: 10000 })
  await createIndoorGame(app, venue.id, { name: 'Retired', game_type: 'chess', is_active: false })
  await app.ctx.db.updateTable('indoor_games').set({ sort_order: 5 }).where('id', '=', ps.id).execute()

  let res = await send('GET', `/api/venues/${venue.id}/indoor-games`)
  assert.equal(res.statusCode, 200)
  const data = res.json().data
  assert.deepEqual(
    data.map((g: { id: number }) => g.id),
    [chess.id, ps.id],
  )
  const g = data[0]
  assert.equal(g.tenant_id, owner.id)
  assert.equal(g.venue_id, venue.id)
  assert.equal(g.name, 'Chess')
  assert.equal(g.game_type, 'chess')
  assert.equal(g.description, null)
  assert.equal(g.capacity, 4)
  assert.equal(g.slot_minutes, 60)
  assert.equal(g.price_per_hour, '100.00')
  assert.equal(g.is_active, true)
  assert.equal(g.sort_order, 0)
  assert.deepEqual(g.venue, { id: venue.id, name: venue.name, slug: venue.slug })
  assert.match(g.created_at, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
  assert.match(g.updated_at, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)

  res = await send('GET', `/api/venues/${venue.id}/indoor-games?game_type=playstation`)
  assert.deepEqual(
    res.json().data.map((x: { id: number }) => x.id),
    [ps.id],
  )
  assert.deepEqual((await send('GET', `/api/venues/${venue.id}/indoor-games?game_type=uno`)).json().data, [])
  res = await send('GET', `/api/venues/${venue.id}/indoor-games?game_type=darts`)
  assert.equal(res.statusCode, 422)
  assert.ok(res.json().errors.game_type)

  const hidden = await createVenue(app, owner.id, { verification_status: 'unverified' })
  await createIndoorGame(app, hidden.id)
  assert.equal((await send('GET', `/api/venues/${hidden.id}/indoor-games`)).statusCode, 404)
  assert.equal((await send('GET', `/api/venues/${hidden.id}/indoor-games`, owner)).json().data.length, 1)
  assert.equal((await send('GET', '/api/venues/999999/indoor-games')).statusCode, 404)
})

test('owner and manager create, update and delete indoor games; staff, strangers and guests cannot', async () => {
  const { owner, manager, staff, venue } = await team()
  const body = { name: 'Carrom Board', game_type: 'carrom', capacity: 4, slot_minutes: 30, price_per_hour: '250' }
  let res = await send('POST', `/api/venues/${venue.id}/indoor-games`, owner, body)
  assert.equal(res.statusCode, 201)
  const game = res.json().data
  assert.equal(game.name, 'Carrom Board')
  assert.equal(game.game_type, 'carrom')
  assert.equal(game.capacity, 4)
  assert.equal(game.slot_minutes, 30)
  assert.equal(game.price_per_hour, '250.00')
  assert.equal(game.tenant_id, owner.id)
  assert.deepEqual(game.venue, { id: venue.id, name: venue.name, slug: venue.slug })

  const { owner: stranger } = await team()
  for (const who of [staff, stranger, await createUser(app)]) {
    assert.equal((await send('POST', `/api/venues/${venue.id}/indoor-games`, who, body)).statusCode, 403)
    assert.equal((await send('PUT', `/api/indoor-games/${game.id}`, who, { name: 'X' })).statusCode, 403)
    assert.equal((await send('DELETE', `/api/indoor-games/${game.id}`, who)).statusCode, 403)
  }
  assert.equal((await send('POST', `/api/venues/${venue.id}/indoor-games`, undefined, body)).statusCode, 401)

  res = await send('PUT', `/api/indoor-games/${game.id}`, manager, { price_per_hour: 300, is_active: false })
  assert.equal(res.statusCode, 200)
  assert.equal(res.json().data.price_per_hour, '300.00')
  assert.equal(res.json().data.is_active, false)
  assert.equal(res.json().data.name, 'Carrom Board')
  assert.equal((await send('GET', `/api/indoor-games/${game.id}`)).statusCode, 404)
  assert.equal((await send('GET', `/api/indoor-games/${game.id}`, staff)).statusCode, 200)
  await send('PATCH', `/api/indoor-games/${game.id}`, owner, { is_active: true })
  res = await send('GET', `/api/indoor-games/${game.id}`)
  assert.equal(res.statusCode, 200)
  assert.equal(res.json().data.id, game.id)

  res = await send('DELETE', `/api/indoor-games/${game.id}`, manager)
  assert.equal(res.statusCode, 200)
  assert.deepEqual(res.json(), { message: 'Indoor game deleted.' })
  assert.equal((await send('GET', `/api/indoor-games/${game.id}`)).statusCode, 404)
  assert.equal((await send('DELETE', `/api/indoor-games/${game.id}`, owner)).statusCode, 404)
  assert.equal((await send('GET', '/api/indoor-games/abc')).statusCode, 404)
})

test('indoor game validation is 422: game_type, price, slot_minutes, capacity, name', async () => {
  const { owner, venue } = await team()
  const url = `/api/venues/${venue.id}/indoor-games`
  let res = await send('POST', url, owner, {})
  assert.equal(res.statusCode, 422)
  assert.equal(res.json().message, 'The given data was invalid.')
  for (const bad of [
    { game_type: 'darts' },
    { price_per_hour: -1 },
    { slot_minutes: 20 },
    { capacity: 0 },
    { name: '' },
  ]) {
    res = await send('POST', url, owner, { name: 'X', game_type: 'uno', price_per_hour: 100, ...bad })
    assert.equal(res.statusCode, 422, JSON.stringify(bad))
    assert.equal(res.json().message, 'The given data was invalid.')
  }
})

test('an indoor game with an upcoming confirmed booking cannot be deleted (409)', async () => {
  const { owner, venue } = await team()
  const game = await createIndoorGame(app, venue.id)
  const customer = await createUser(app)
  const booking = await app.ctx.db
    .insertInto('indoor_game_bookings')
    .values({
      booking_number: `IG-T-${game.id}`,
      tenant_id: owner.id,
      indoor_game_id: game.id,
      venue_id: venue.id,
      user_id: customer.id,
      status: 'confirmed',
      date: daysFromFixedNow(2),
      start_time: '10:00',
      end_time: '11:00',
      base_amount: 30000,
      total_amount: 30000,
      paid_amount: 30000,
      customer_name: 'C',
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  await payInsertedBookings(app)
  let res = await send('DELETE', `/api/indoor-games/${game.id}`, owner)
  assert.equal(res.statusCode, 409)
  assert.deepEqual(res.json(), { message: 'The indoor game has upcoming confirmed bookings and cannot be deleted.' })
  await app.ctx.db
    .updateTable('indoor_game_bookings')
    .set({ status: 'completed' })
    .where('id', '=', booking.id)
    .execute()
  res = await send('DELETE', `/api/indoor-games/${game.id}`, owner)
  assert.equal(res.statusCode, 200)
})
