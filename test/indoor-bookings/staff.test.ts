import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { BOOKING_STATUSES, STAFF_TARGETS, transitionError } from '../../src/modules/bookings/state.ts'
import { build } from '../helpers/app.ts'
import {
  assignStaff,
  createIndoorGame,
  createUser,
  createVenue,
  daysFromNow,
  type TestUser,
} from '../helpers/factories.ts'
import { book, insertIndoor, notificationsOf, row, type Scene, scene } from './helpers.ts'

let app: App
before(async () => {
  app = await build()
})
after(() => app.close())

const FORBIDDEN = { message: 'This action is unauthorized.' }

async function withStaff() {
  const s = await scene(app)
  const manager = await createUser(app, { roles: ['manager'] })
  const staff = await createUser(app, { roles: ['staff'] })
  await assignStaff(app, s.venue.id, manager.id, 'manager')
  await assignStaff(app, s.venue.id, staff.id, 'staff')
  return { ...s, manager, staff }
}

function deskBook(user: TestUser, venue: string | number, payload: Record<string, unknown>) {
  return app.inject({
    method: 'POST',
    url: `/api/venues/${venue}/indoor-game-bookings`,
    headers: user.headers,
    payload,
  })
}

function setStatus(user: TestUser, id: number, payload: Record<string, unknown>) {
  return app.inject({ method: 'PATCH', url: `/api/indoor-game-bookings/${id}/status`, headers: user.headers, payload })
}

function charge(user: TestUser, id: number, payload: Record<string, unknown>) {
  return app.inject({ method: 'POST', url: `/api/indoor-game-bookings/${id}/charges`, headers: user.headers, payload })
}

function pay(user: TestUser, id: number, payload: Record<string, unknown>) {
  return app.inject({ method: 'POST', url: `/api/indoor-game-bookings/${id}/payments`, headers: user.headers, payload })
}

test('staff book a walk-in: 201, type walkin, customer details, no user, no hold', async () => {
  const s = await withStaff()
  const date = daysFromNow(2)
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
  const base = { indoor_game_id: s.game.id, date: daysFromNow(2), start_time: '10:00', end_time: '11:00' }
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
    date: daysFromNow(2),
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
  const b = await insertIndoor(app, s, { date: daysFromNow(3), start: '10:00', end: '11:00' })
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
  const d1 = daysFromNow(5)
  const d2 = daysFromNow(6)
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

test('every staff transition is allowed or refused exactly as the state machine says', async () => {
  const s = await withStaff()
  let day = 30
  for (const started of [false, true]) {
    for (const from of BOOKING_STATUSES) {
      for (const to of STAFF_TARGETS) {
        // Future bookings each on their own day; started ones yesterday, one per game.
        const game = started ? await createIndoorGame(app, s.venue.id) : s.game
        const date = started ? daysFromNow(-1) : daysFromNow(day++)
        const b = await insertIndoor(
          app,
          { ...s, game: { ...s.game, id: game.id } },
          {
            date,
            start: '10:00',
            end: '11:00',
            status: from,
          },
        )
        const res = await setStatus(s.staff, b.id, { status: to })
        const refusal = transitionError(from, to, started)
        if (refusal === null) {
          assert.equal(res.statusCode, 200, `${from} → ${to} (started ${started}): ${res.body}`)
          assert.equal(res.json().data.status, to)
          assert.equal((await row(app, b.id)).status, to)
        } else {
          assert.equal(res.statusCode, 422, `${from} → ${to} (started ${started}): ${res.body}`)
          assert.deepEqual(res.json(), { message: 'The given data was invalid.', errors: { status: [refusal] } })
          assert.equal((await row(app, b.id)).status, from)
        }
      }
    }
  }
  const b = await insertIndoor(app, s, { date: daysFromNow(day++), start: '10:00', end: '11:00', status: 'confirmed' })
  const res = await setStatus(s.staff, b.id, { status: 'confirmed' })
  assert.equal(res.statusCode, 422)
  assert.deepEqual(res.json().errors.status, ['The selected status is invalid.'])
})

test('staff cancel: reason stored, paid amount refunded to the wallet, customer notified, slot freed', async () => {
  const s = await withStaff()
  const date = daysFromNow(1)
  const created = await book(app, s.customer, {
    indoor_game_id: s.game.id,
    date,
    start_time: '18:00',
    end_time: '19:00',
  })
  const id = created.json().data.id
  assert.equal((await pay(s.staff, id, { amount: '300.00' })).statusCode, 201)
  const res = await setStatus(s.manager, id, { status: 'cancelled', cancel_reason: 'Console broken' })
  assert.equal(res.statusCode, 200, res.body)
  const data = res.json().data
  assert.equal(data.status, 'cancelled')
  assert.equal(data.cancel_reason, 'Console broken')
  assert.equal(data.payments[0].status, 'refunded')
  const user = await app.ctx.db
    .selectFrom('users')
    .select('wallet_balance')
    .where('id', '=', s.customer.id)
    .executeTakeFirstOrThrow()
  assert.equal(user.wallet_balance, 30000)
  const types = (await notificationsOf(app, s.customer.id)).map((n) => n.type)
  assert.ok(types.includes('App\\Notifications\\BookingCancelled'))
  const again = await book(app, s.customer, { indoor_game_id: s.game.id, date, start_time: '18:00', end_time: '19:00' })
  assert.equal(again.statusCode, 201)
})

test('charges raise total_amount and balance_due and are listed', async () => {
  const s = await withStaff()
  const b = await insertIndoor(app, s, { date: daysFromNow(3), start: '10:00', end: '11:00' })
  let res = await charge(s.staff, b.id, { description: 'Cold drinks', amount: '120.50' })
  assert.equal(res.statusCode, 201, res.body)
  res = await charge(s.manager, b.id, { description: 'Extra controller', amount: 100 })
  assert.equal(res.statusCode, 201, res.body)
  const data = res.json().data
  assert.equal(data.base_amount, '300.00')
  assert.equal(data.total_amount, '520.50')
  assert.equal(data.balance_due, 520.5)
  assert.equal(data.charges.length, 2)
  assert.equal(data.charges[0].description, 'Cold drinks')
  assert.equal(data.charges[0].amount, '120.50')
  assert.equal(typeof data.charges[0].id, 'number')
  assert.match(data.charges[0].created_at, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
  assert.equal(data.charges[1].amount, '100.00')
  const stored = await row(app, b.id)
  assert.equal(stored.extras_total, 22050)
  assert.equal(stored.total_amount, 52050)

  for (const [payload, field] of [
    [{ description: 'Zero', amount: 0 }, 'amount'],
    [{ description: 'Neg', amount: -5 }, 'amount'],
    [{ description: 'Too precise', amount: '1.234' }, 'amount'],
    [{ amount: 10 }, 'description'],
    [{ description: '', amount: 10 }, 'description'],
  ] as const) {
    res = await charge(s.staff, b.id, payload)
    assert.equal(res.statusCode, 422, JSON.stringify(payload))
    assert.ok(res.json().errors[field], res.body)
  }
  const cancelled = await insertIndoor(app, s, {
    date: daysFromNow(4),
    start: '10:00',
    end: '11:00',
    status: 'cancelled',
  })
  res = await charge(s.staff, cancelled.id, { description: 'Late', amount: 10 })
  assert.equal(res.statusCode, 422)
  assert.deepEqual(res.json(), { message: 'A cancelled booking cannot take charges.' })
})

async function pendingCustomerBooking(s: Scene, date: string) {
  const res = await book(app, s.customer, { indoor_game_id: s.game.id, date, start_time: '10:00', end_time: '11:00' })
  assert.equal(res.statusCode, 201, res.body)
  return res.json().data.id as number
}

test('cash payments: partial keeps pending, full confirms and sends IndoorGameBookingConfirmed', async () => {
  const s = await withStaff()
  const id = await pendingCustomerBooking(s, daysFromNow(3))
  let res = await pay(s.staff, id, { amount: 100 })
  assert.equal(res.statusCode, 201, res.body)
  let data = res.json().data
  assert.equal(data.status, 'pending')
  assert.equal(data.paid_amount, '100.00')
  assert.equal(data.balance_due, 200)
  assert.equal(data.is_paid, false)
  assert.equal(data.payments.length, 1)
  assert.equal(data.payments[0].method, 'cash')
  assert.equal(data.payments[0].amount, '100.00')
  assert.equal(data.payments[0].status, 'completed')
  assert.match(data.payments[0].paid_at, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)

  res = await pay(s.staff, id, { amount: 200.01 })
  assert.equal(res.statusCode, 422)
  assert.deepEqual(res.json().errors.amount, ['The amount must not be greater than the balance due of 200.00.'])
  res = await pay(s.staff, id, { amount: 0 })
  assert.equal(res.statusCode, 422)
  res = await pay(s.staff, id, { amount: 10, method: 'cheque' })
  assert.equal(res.statusCode, 422)
  assert.deepEqual(res.json().errors.method, ['The selected method is invalid.'])

  res = await pay(s.owner, id, { amount: '200.00' })
  assert.equal(res.statusCode, 201, res.body)
  data = res.json().data
  assert.equal(data.status, 'confirmed')
  assert.equal(data.paid_amount, '300.00')
  assert.equal(data.balance_due, 0)
  assert.equal(data.is_paid, true)
  assert.equal(data.payments.length, 2)
  const stored = await row(app, id)
  assert.equal(stored.hold_expires_at, null)
  const confirmed = (await notificationsOf(app, s.customer.id)).filter((n) =>
    n.type.endsWith('\\IndoorGameBookingConfirmed'),
  )
  assert.equal(confirmed.length, 1)
  assert.equal((confirmed[0].data as Record<string, unknown>).booking_id, id)
  const recorded = await app.ctx.db
    .selectFrom('payments')
    .select(['recorded_by'])
    .where('payable_type', '=', 'indoor')
    .where('payable_id', '=', id)
    .execute()
  assert.deepEqual(recorded.map((p) => p.recorded_by).sort(), [s.owner.id, s.staff.id].sort())

  res = await pay(s.staff, id, { amount: 1 })
  assert.equal(res.statusCode, 422)
  assert.deepEqual(res.json(), { message: 'This booking is already paid.' })
})

test('a charge after confirmation opens a balance that a desk payment settles; a gateway reference is kept', async () => {
  const s = await withStaff()
  const id = await pendingCustomerBooking(s, daysFromNow(4))
  assert.equal((await pay(s.staff, id, { amount: 300 })).statusCode, 201)
  let res = await charge(s.staff, id, { description: 'Snacks', amount: 80 })
  assert.equal(res.json().data.balance_due, 80)
  assert.equal(res.json().data.status, 'confirmed')
  res = await pay(s.staff, id, { amount: 80, method: 'gateway_2', reference: 'KHALTI-DESK-1' })
  assert.equal(res.statusCode, 201, res.body)
  const data = res.json().data
  assert.equal(data.is_paid, true)
  assert.equal(data.payments[1].method, 'gateway_2')
  const desk = await app.ctx.db
    .selectFrom('payments')
    .select('gateway_transaction_id')
    .where('id', '=', data.payments[1].id)
    .executeTakeFirstOrThrow()
  assert.equal(desk.gateway_transaction_id, 'KHALTI-DESK-1')
  const cancelled = await insertIndoor(app, s, {
    date: daysFromNow(9),
    start: '12:00',
    end: '13:00',
    status: 'cancelled',
  })
  res = await pay(s.staff, cancelled.id, { amount: 10 })
  assert.equal(res.statusCode, 422)
  assert.deepEqual(res.json(), { message: 'This booking cannot be paid.' })
})
