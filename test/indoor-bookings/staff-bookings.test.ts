import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { build } from '../helpers/app.ts'
import { createIndoorGame, createUser, createVenue, daysFromFixedNow, FIXED_NOW } from '../helpers/factories.ts'
import { book, insertIndoor, row } from './helpers.ts'
import { staffApi } from './staff-helpers.ts'

// Venue staff: desk bookings (offline, walk-in), the venue list, who may use the staff routes.

// A fixed start; dates are counted from its day (daysFromFixedNow), never from the real date.
const clock = new ManualClock(FIXED_NOW)
let app: App
before(async () => {
  app = await build(undefined, {}, { clock })
})
after(() => app.close())

const { withStaff, deskBook, setStatus, charge, pay } = staffApi(() => app)

const FORBIDDEN = { message: 'This action is unauthorized.' }

test('staff book a walk-in: 201, type walkin, customer details, no user, no hold', async () => {
  const s = await withStaff()
  const date = daysFromFixedNow(2)
  const res = await deskBook(s.staff, s.venue.slug, {
    indoor_game_id: s.game.id,
    date,
    start_time: '14:00',
    end_time: '16:00',
    type: 'walkin',
    customer_name: 'Walk In',
    customer_phone: '9811111111',
    players_count: 2,
  })
  assert.equal(res.statusCode, 201, res.body)
  const b = res.json().data
  assert.match(b.booking_number, /^IG-\d{4}-\d{6}$/)
  assert.equal(b.type, 'walkin')
  assert.equal(b.customer_name, 'Walk In')
  assert.equal(b.customer_phone, '9811111111')
  assert.equal(b.user_id, null)
  assert.equal(b.user, null)
  assert.equal(b.tenant_id, s.owner.id)
  assert.equal(b.status, 'pending')
  assert.equal(b.total_amount, '600.00')
  assert.equal(b.balance_due, 600)
  const stored = await row(app, b.id)
  assert.equal(stored.hold_expires_at, null)
  assert.equal(stored.created_by, s.staff.id)
  // Default type is offline; the same slot is 409.
  const clash = await deskBook(s.manager, s.venue.id, {
    indoor_game_id: s.game.id,
    date,
    start_time: '15:00',
    end_time: '16:00',
    customer_name: 'Phone Caller',
  })
  assert.equal(clash.statusCode, 409)
  assert.deepEqual(clash.json(), { message: 'The selected slot is not available.' })
  const offline = await deskBook(s.owner, s.venue.id, {
    indoor_game_id: s.game.id,
    date,
    start_time: '16:00',
    end_time: '17:00',
    customer_name: 'Phone Caller',
  })
  assert.equal(offline.statusCode, 201, offline.body)
  assert.equal(offline.json().data.type, 'offline')
  // A customer cannot take the staff-booked slot either.
  const online = await book(app, s.customer, {
    indoor_game_id: s.game.id,
    date,
    start_time: '14:00',
    end_time: '15:00',
  })
  assert.equal(online.statusCode, 409)
})

test('desk booking validation: customer_name required, type limited, game must be of the venue', async () => {
  const s = await withStaff()
  const base = { indoor_game_id: s.game.id, date: daysFromFixedNow(2), start_time: '10:00', end_time: '11:00' }
  let res = await deskBook(s.staff, s.venue.id, base)
  assert.equal(res.statusCode, 422)
  assert.deepEqual(res.json().errors.customer_name, ['The customer name field is required.'])
  res = await deskBook(s.staff, s.venue.id, { ...base, customer_name: '   ' })
  assert.equal(res.statusCode, 422)
  assert.deepEqual(res.json().errors.customer_name, ['The customer name field is required.'])
  res = await deskBook(s.staff, s.venue.id, { ...base, customer_name: 'X', type: 'online' })
  assert.equal(res.statusCode, 422)
  assert.deepEqual(res.json().errors.type, ['The selected type is invalid.'])
  res = await deskBook(s.staff, s.venue.id, { ...base, customer_name: 'X', players_count: 21 })
  assert.equal(res.statusCode, 422)
  const otherOwner = await createUser(app, { roles: ['venue_owner'] })
  const otherVenue = await createVenue(app, otherOwner.id)
  const foreign = await createIndoorGame(app, otherVenue.id)
  res = await deskBook(s.staff, s.venue.id, { ...base, indoor_game_id: foreign.id, customer_name: 'X' })
  assert.equal(res.statusCode, 422)
  assert.deepEqual(res.json().errors.indoor_game_id, ['The selected indoor game id is invalid.'])
})

test('venue booking routes: guest 401, customer and foreign staff 403, unknown venue 404', async () => {
  const s = await withStaff()
  const outsider = await createUser(app, { roles: ['staff'] })
  const body = {
    indoor_game_id: s.game.id,
    date: daysFromFixedNow(2),
    start_time: '10:00',
    end_time: '11:00',
    customer_name: 'X',
  }
  const url = `/api/venues/${s.venue.id}/indoor-game-bookings`
  assert.equal((await app.inject({ method: 'GET', url })).statusCode, 401)
  for (const user of [s.customer, outsider]) {
    const list = await app.inject({ method: 'GET', url, headers: user.headers })
    assert.equal(list.statusCode, 403)
    assert.deepEqual(list.json(), FORBIDDEN)
    const create = await deskBook(user, s.venue.id, body)
    assert.equal(create.statusCode, 403)
  }
  const missing = await app.inject({
    method: 'GET',
    url: '/api/venues/no-such-venue/indoor-game-bookings',
    headers: s.staff.headers,
  })
  assert.equal(missing.statusCode, 404)
  const admin = await createUser(app, { roles: ['super_admin'] })
  assert.equal((await app.inject({ method: 'GET', url, headers: admin.headers })).statusCode, 200)
  // Booking-level staff routes refuse outsiders too.
  const b = await insertIndoor(app, s, { date: daysFromFixedNow(3), start: '10:00', end: '11:00' })
  for (const user of [s.customer, outsider]) {
    assert.equal((await setStatus(user, b.id, { status: 'cancelled' })).statusCode, 403)
    assert.equal((await charge(user, b.id, { description: 'Cola', amount: 50 })).statusCode, 403)
    assert.equal((await pay(user, b.id, { amount: 300 })).statusCode, 403)
  }
  assert.equal((await setStatus(s.staff, 999999, { status: 'cancelled' })).statusCode, 404)
  assert.equal((await charge(s.staff, 999999, { description: 'Cola', amount: 50 })).statusCode, 404)
  assert.equal((await pay(s.staff, 999999, { amount: 1 })).statusCode, 404)
  assert.equal((await row(app, b.id)).status, 'pending')
})

test('the venue list filters by date, status and indoor_game_id, in schedule order', async () => {
  const s = await withStaff()
  const second = await createIndoorGame(app, s.venue.id)
  const d1 = daysFromFixedNow(5)
  const d2 = daysFromFixedNow(6)
  const a = await insertIndoor(app, s, { date: d1, start: '12:00', end: '13:00' })
  const b = await insertIndoor(app, s, { date: d1, start: '09:00', end: '10:00', status: 'confirmed' })
  const c = await insertIndoor(app, s, { date: d2, start: '09:00', end: '10:00' })
  const d = await insertIndoor(
    app,
    { ...s, game: { ...s.game, id: second.id } },
    { date: d1, start: '12:00', end: '13:00' },
  )
  const list = async (query: string) => {
    const res = await app.inject({
      method: 'GET',
      url: `/api/venues/${s.venue.slug}/indoor-game-bookings${query}`,
      headers: s.staff.headers,
    })
    assert.equal(res.statusCode, 200, res.body)
    return res.json()
  }
  let body = await list('')
  assert.equal(body.meta.total, 4)
  assert.deepEqual(
    body.data.map((x: { id: number }) => x.id),
    [b.id, a.id, d.id, c.id],
  )
  body = await list(`?date=${d1}`)
  assert.deepEqual(
    body.data.map((x: { id: number }) => x.id),
    [b.id, a.id, d.id],
  )
  body = await list('?status=confirmed')
  assert.deepEqual(
    body.data.map((x: { id: number }) => x.id),
    [b.id],
  )
  body = await list(`?indoor_game_id=${second.id}`)
  assert.deepEqual(
    body.data.map((x: { id: number }) => x.id),
    [d.id],
  )
  body = await list('?per_page=1&page=2')
  assert.equal(body.data[0].id, a.id)
  assert.equal(body.meta.last_page, 4)
  const bad = await app.inject({
    method: 'GET',
    url: `/api/venues/${s.venue.id}/indoor-game-bookings?status=lost`,
    headers: s.staff.headers,
  })
  assert.equal(bad.statusCode, 422)
  assert.deepEqual(bad.json().errors.status, ['The selected status is invalid.'])
  const badDate = await app.inject({
    method: 'GET',
    url: `/api/venues/${s.venue.id}/indoor-game-bookings?date=2026-13-01`,
    headers: s.staff.headers,
  })
  assert.equal(badDate.statusCode, 422)
})
