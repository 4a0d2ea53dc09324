import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { BOOKING_STATUSES, STAFF_TARGETS, staffTransitionError } from '../../src/modules/booking-core/state.ts'
import { build } from '../helpers/app.ts'
import { createIndoorGame, daysFromFixedNow, FIXED_NOW } from '../helpers/factories.ts'
import { payAtDeskByQr } from '../payments/helpers.ts'
import { book, insertIndoor, notificationsOf, row, type Scene } from './helpers.ts'
import { staffApi } from './staff-helpers.ts'

// Venue staff operations on a booking: status changes, extra charges, payments at the desk.

// A fixed start; dates are counted from its day (daysFromFixedNow), never from the real date.
const clock = new ManualClock(FIXED_NOW)
let app: App
before(async () => {
  app = await build(undefined, {}, { clock })
})
after(() => app.close())

const { withStaff, setStatus, charge, pay } = staffApi(() => app)

test('every staff transition is allowed or refused exactly as the state machine says', async () => {
  const s = await withStaff()
  let day = 30
  for (const started of [false, true]) {
    for (const from of BOOKING_STATUSES) {
      for (const to of STAFF_TARGETS) {
        // Future bookings each on their own day; started ones yesterday, one per game.
        const game = started ? await createIndoorGame(app, s.venue.id) : s.game
        const date = started ? daysFromFixedNow(-1) : daysFromFixedNow(day++)
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
        const refusal = staffTransitionError(from, to, started)
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
  const b = await insertIndoor(app, s, {
    date: daysFromFixedNow(day++),
    start: '10:00',
    end: '11:00',
    status: 'confirmed',
  })
  const res = await setStatus(s.staff, b.id, { status: 'confirmed' })
  assert.equal(res.statusCode, 422)
  assert.deepEqual(res.json().errors.status, ['The selected status is invalid.'])
})

test('staff cancel: reason stored, desk payment refunded at the desk (not the wallet), customer notified, slot freed', async () => {
  const s = await withStaff()
  const date = daysFromFixedNow(1)
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
  // Cash taken at the desk goes back at the desk: it never becomes platform wallet money.
  assert.equal(user.wallet_balance, 0)
  assert.equal(data.paid_amount, '0.00')
  const types = (await notificationsOf(app, s.customer.id)).map((n) => n.type)
  assert.ok(types.includes('App\\Notifications\\BookingCancelled'))
  const again = await book(app, s.customer, { indoor_game_id: s.game.id, date, start_time: '18:00', end_time: '19:00' })
  assert.equal(again.statusCode, 201)
})

test('charges raise total_amount and balance_due and are listed', async () => {
  const s = await withStaff()
  const b = await insertIndoor(app, s, { date: daysFromFixedNow(3), start: '10:00', end: '11:00' })
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
    date: daysFromFixedNow(4),
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
  const id = await pendingCustomerBooking(s, daysFromFixedNow(3))
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

test('a charge after confirmation opens a balance that a desk QR payment settles once the gateway confirms it', async () => {
  const s = await withStaff()
  const id = await pendingCustomerBooking(s, daysFromFixedNow(4))
  assert.equal((await pay(s.staff, id, { amount: 300 })).statusCode, 201)
  let res = await charge(s.staff, id, { description: 'Snacks', amount: 80 })
  assert.equal(res.json().data.balance_due, 80)
  assert.equal(res.json().data.status, 'confirmed')
  // A typed reference records nothing: the gateway method opens a QR payment for the customer's phone.
  const { intent } = await payAtDeskByQr(app, s.staff, { kind: 'indoor', id }, 80, 'gateway_2')
  assert.equal(intent.payment.status, 'initiated')
  const shown = await app.inject({ method: 'GET', url: `/api/indoor-game-bookings/${id}`, headers: s.customer.headers })
  const data = shown.json().data
  assert.equal(data.is_paid, true)
  assert.equal(data.payments[1].method, 'gateway_2')
  assert.equal(data.payments[1].status, 'completed')
  assert.equal(data.payments[1].unverified, false)
  const desk = await app.ctx.db
    .selectFrom('payments')
    .select(['gateway_transaction_id', 'recorded_by'])
    .where('id', '=', data.payments[1].id)
    .executeTakeFirstOrThrow()
  assert.notEqual(desk.gateway_transaction_id, null, "the gateway's own transaction id")
  assert.equal(desk.recorded_by, s.staff.id)
  const cancelled = await insertIndoor(app, s, {
    date: daysFromFixedNow(9),
    start: '12:00',
    end: '13:00',
    status: 'cancelled',
  })
  res = await pay(s.staff, cancelled.id, { amount: 10 })
  assert.equal(res.statusCode, 422)
  assert.deepEqual(res.json(), { message: 'This booking cannot be paid.' })
})
