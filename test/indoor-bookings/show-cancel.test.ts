import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { build } from '../helpers/app.ts'
import {
  assignStaff,
  createUser,
  createVenue,
  daysFromFixedNow,
  FIXED_NOW,
  type TestUser,
} from '../helpers/factories.ts'
import { ledger } from '../payments/helpers.ts'
import { book, insertIndoor, notificationsOf, row, type Scene, scene } from './helpers.ts'

// A fixed start; dates are counted from its day (daysFromFixedNow), never from the real date.
const clock = new ManualClock(FIXED_NOW)
let app: App
before(async () => {
  app = await build(undefined, {}, { clock })
})
after(() => app.close())

const FORBIDDEN = { message: 'This action is unauthorized.' }

async function booked(s: Scene, date: string, start = '10:00', end = '11:00') {
  const res = await book(app, s.customer, { indoor_game_id: s.game.id, date, start_time: start, end_time: end })
  assert.equal(res.statusCode, 201, res.body)
  return res.json().data as { id: number; booking_number: string }
}

function cancel(user: TestUser | null, id: number | string, payload?: Record<string, unknown>) {
  return app.inject({
    method: 'PATCH',
    url: `/api/indoor-game-bookings/${id}/cancel`,
    headers: user?.headers ?? {},
    ...(payload ? { payload } : {}),
  })
}

async function payByWallet(user: TestUser, bookingId: number) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/payments/initiate',
    headers: user.headers,
    payload: { booking_type: 'indoor', booking_id: bookingId, method: 'wallet' },
  })
  assert.equal(res.statusCode, 200, res.body)
}

test('the owner reads a booking with indoor_game, user, charges and payments', async () => {
  const s = await scene(app)
  const b = await booked(s, daysFromFixedNow(3))
  const res = await app.inject({ method: 'GET', url: `/api/indoor-game-bookings/${b.id}`, headers: s.customer.headers })
  assert.equal(res.statusCode, 200, res.body)
  const data = res.json().data
  assert.equal(data.id, b.id)
  assert.equal(data.booking_number, b.booking_number)
  assert.equal(data.indoor_game.id, s.game.id)
  assert.equal(data.indoor_game.venue.id, s.venue.id)
  assert.equal(data.user.id, s.customer.id)
  assert.equal(data.user.wallet_balance, '0.00')
  assert.deepEqual(data.charges, [])
  assert.deepEqual(data.payments, [])
})

test('reading is owner-only: another customer, venue staff, its owner and admins 403; unknown 404, guest 401', async () => {
  const s = await scene(app)
  const b = await booked(s, daysFromFixedNow(3))
  const url = `/api/indoor-game-bookings/${b.id}`
  const stranger = await createUser(app)
  let res = await app.inject({ method: 'GET', url, headers: stranger.headers })
  assert.equal(res.statusCode, 403)
  assert.deepEqual(res.json(), FORBIDDEN)
  const otherOwner = await createUser(app, { roles: ['venue_owner'] })
  await createVenue(app, otherOwner.id)
  res = await app.inject({ method: 'GET', url, headers: otherOwner.headers })
  assert.equal(res.statusCode, 403)
  const staff = await createUser(app, { roles: ['staff'] })
  await assignStaff(app, s.venue.id, staff.id, 'staff')
  const admin = await createUser(app, { roles: ['super_admin'] })
  for (const who of [staff, s.owner, admin]) {
    res = await app.inject({ method: 'GET', url, headers: who.headers })
    assert.equal(res.statusCode, 403)
    assert.deepEqual(res.json(), FORBIDDEN)
  }
  // Staff see it through the venue's booking list.
  res = await app.inject({
    method: 'GET',
    url: `/api/venues/${s.venue.id}/indoor-game-bookings`,
    headers: staff.headers,
  })
  assert.equal(res.statusCode, 200)
  assert.ok(res.json().data.some((x: { id: number }) => x.id === b.id))
  for (const id of ['999999', 'abc', '0', '99999999999999999999']) {
    res = await app.inject({ method: 'GET', url: `/api/indoor-game-bookings/${id}`, headers: s.customer.headers })
    assert.equal(res.statusCode, 404, id)
    assert.deepEqual(res.json(), { message: 'Not found.' })
  }
  res = await app.inject({ method: 'GET', url })
  assert.equal(res.statusCode, 401)
})

test('cancelling a pending booking: 200 cancelled, reason kept, BookingCancelled sent, slot freed', async () => {
  const s = await scene(app)
  const date = daysFromFixedNow(4)
  const b = await booked(s, date)
  const res = await cancel(s.customer, b.id, { cancel_reason: 'Plans changed' })
  assert.equal(res.statusCode, 200, res.body)
  const data = res.json().data
  assert.equal(data.id, b.id)
  assert.equal(data.status, 'cancelled')
  assert.equal(data.cancel_reason, 'Plans changed')
  assert.equal(data.indoor_game.id, s.game.id)
  const stored = await row(app, b.id)
  assert.ok(stored.cancelled_at)
  const notes = await notificationsOf(app, s.customer.id)
  const cancelled = notes.filter((n) => n.type === 'App\\Notifications\\BookingCancelled')
  assert.equal(cancelled.length, 1)
  const payload = cancelled[0].data as Record<string, unknown>
  assert.equal(payload.booking_id, b.id)
  assert.equal(payload.booking_number, b.booking_number)
  assert.match(String(payload.message), /cancelled/)
  // The slot is free again.
  const other = await createUser(app)
  const again = await book(app, other, { indoor_game_id: s.game.id, date, start_time: '10:00', end_time: '11:00' })
  assert.equal(again.statusCode, 201, again.body)
})

test('cancel without a body works and records a default reason; a second cancel is 422', async () => {
  const s = await scene(app)
  const b = await booked(s, daysFromFixedNow(4))
  const res = await cancel(s.customer, b.id)
  assert.equal(res.statusCode, 200, res.body)
  assert.equal(res.json().data.cancel_reason, 'Cancelled by the customer')
  const again = await cancel(s.customer, b.id)
  assert.equal(again.statusCode, 422)
  assert.deepEqual(again.json(), { message: 'A cancelled booking cannot be cancelled.' })
})

test('cancel is refused for non-owners (403), completed (403), playing/no-show (422) and started bookings (422)', async () => {
  const s = await scene(app)
  const b = await booked(s, daysFromFixedNow(4))
  const stranger = await createUser(app)
  let res = await cancel(stranger, b.id)
  assert.equal(res.statusCode, 403)
  assert.deepEqual(res.json(), FORBIDDEN)
  res = await cancel(s.owner, b.id)
  assert.equal(res.statusCode, 403)
  res = await cancel(null, b.id)
  assert.equal(res.statusCode, 401)
  res = await cancel(s.customer, 424242)
  assert.equal(res.statusCode, 404)
  res = await cancel(s.customer, 'abc')
  assert.equal(res.statusCode, 404)
  assert.equal((await row(app, b.id)).status, 'pending')

  const completed = await insertIndoor(app, s, {
    date: daysFromFixedNow(20),
    start: '10:00',
    end: '11:00',
    status: 'completed',
  })
  res = await cancel(s.customer, completed.id)
  assert.equal(res.statusCode, 403)
  assert.deepEqual(res.json(), FORBIDDEN)
  for (const [status, word] of [
    ['playing', 'playing'],
    ['no_show', 'no-show'],
  ]) {
    const r = await insertIndoor(app, s, { date: daysFromFixedNow(21), start: '10:00', end: '11:00', status })
    res = await cancel(s.customer, r.id)
    assert.equal(res.statusCode, 422, status)
    assert.deepEqual(res.json(), { message: `A ${word} booking cannot be cancelled.` })
    assert.equal((await row(app, r.id)).status, status)
  }
  // Confirmed but already started (yesterday): refused.
  const started = await insertIndoor(app, s, {
    date: daysFromFixedNow(-1),
    start: '10:00',
    end: '11:00',
    status: 'confirmed',
  })
  res = await cancel(s.customer, started.id)
  assert.equal(res.statusCode, 422)
  assert.deepEqual(res.json(), { message: 'A booking that has started cannot be cancelled.' })
  assert.equal((await row(app, started.id)).status, 'confirmed')
})

test('refund window: a paid booking cancelled early enough is refunded to the wallet', async () => {
  const s = await scene(app, { wallet: 100000, freeCancellationHours: 24 })
  const b = await booked(s, daysFromFixedNow(3))
  await payByWallet(s.customer, b.id)
  assert.equal((await row(app, b.id)).status, 'confirmed')
  assert.equal((await ledger(app, s.customer.id)).balance, 70000)
  const res = await cancel(s.customer, b.id)
  assert.equal(res.statusCode, 200, res.body)
  const data = res.json().data
  assert.equal(data.status, 'cancelled')
  assert.equal(data.payments.length, 1)
  assert.equal(data.payments[0].status, 'refunded')
  assert.equal(data.payments[0].refunded_amount, '300.00')
  const wallet = await ledger(app, s.customer.id)
  assert.equal(wallet.balance, 100000)
  assert.equal(wallet.sum, wallet.balance)
  const credit = await app.ctx.db
    .selectFrom('wallet_transactions')
    .selectAll()
    .where('user_id', '=', s.customer.id)
    .where('type', '=', 'credit')
    .executeTakeFirstOrThrow()
  assert.equal(credit.amount, 30000)
  assert.equal(credit.reference_type, 'indoor')
  assert.equal(credit.reference_id, b.id)
  const note = (await notificationsOf(app, s.customer.id)).find((n) => n.type.endsWith('BookingCancelled'))!
  assert.equal((note.data as Record<string, unknown>).refund_amount, '300.00')
})

test('refund window: cancelled later than free_cancellation_hours before the start, nothing is refunded', async () => {
  const s = await scene(app, { wallet: 100000, freeCancellationHours: 24 * 5 })
  const b = await booked(s, daysFromFixedNow(3))
  await payByWallet(s.customer, b.id)
  const res = await cancel(s.customer, b.id, { cancel_reason: 'Late' })
  assert.equal(res.statusCode, 200, res.body)
  assert.equal(res.json().data.status, 'cancelled')
  assert.equal(res.json().data.payments[0].status, 'completed')
  const wallet = await ledger(app, s.customer.id)
  assert.equal(wallet.balance, 70000)
  assert.equal(wallet.sum, wallet.balance)
  const credits = wallet.rows.filter((r) => r.type === 'credit')
  assert.equal(credits.length, 0)
})
