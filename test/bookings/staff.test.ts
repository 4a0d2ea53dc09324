import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { BOOKING_STATUSES, STAFF_TARGETS, staffTransitionError } from '../../src/modules/booking-core/state.ts'
import { build } from '../helpers/app.ts'
import { createCourt, createUser, daysFromFixedNow, FIXED_NOW, type TestUser } from '../helpers/factories.ts'
import { book, fixedSlot, notificationsOf, type World, world } from './helpers.ts'

let app: App
before(async () => {
  app = await build(undefined, {}, { clock: new ManualClock(FIXED_NOW) })
})
after(() => app.close())

const FORBIDDEN = { message: 'This action is unauthorized.' }

function deskBook(user: TestUser | undefined, venue: string | number, payload: Record<string, unknown>) {
  return app.inject({ method: 'POST', url: `/api/venues/${venue}/bookings`, headers: user?.headers, payload })
}

function setStatus(user: TestUser | undefined, id: number, payload: Record<string, unknown>) {
  return app.inject({ method: 'PATCH', url: `/api/bookings/${id}/status`, headers: user?.headers, payload })
}

function charge(user: TestUser | undefined, id: number, payload: Record<string, unknown>) {
  return app.inject({ method: 'POST', url: `/api/bookings/${id}/charges`, headers: user?.headers, payload })
}

function pay(user: TestUser | undefined, id: number, payload: Record<string, unknown>) {
  return app.inject({ method: 'POST', url: `/api/bookings/${id}/payments`, headers: user?.headers, payload })
}

let deskCount = 0
/** A fresh desk booking (offline, pending) on the world's court, each on its own hour. */
async function deskBooking(w: World, days = 3) {
  const n = deskCount++
  const h = 6 + (n % 15)
  const start = `${String(h).padStart(2, '0')}:00`
  const end = `${String(h + 1).padStart(2, '0')}:00`
  const res = await deskBook(w.staff, w.venue.id, {
    ...fixedSlot(w.court.id, days + Math.floor(n / 15), start, end),
    customer_name: 'Walk In',
  })
  assert.equal(res.statusCode, 201, res.body)
  return res.json().data as { id: number }
}

async function forceStatus(id: number, status: string, date?: string) {
  await app.ctx.db
    .updateTable('bookings')
    .set({ status, ...(date ? { date } : {}) })
    .where('id', '=', id)
    .execute()
}

test('POST /api/venues/{venue}/bookings: offline and walk-in bookings by owner, manager and staff', async () => {
  const w = await world(app)
  const res = await deskBook(w.manager, w.venue.slug, {
    ...fixedSlot(w.court.id, 2, '07:00', '09:00'),
    type: 'walkin',
    customer_name: '  Ram Shrestha ',
    customer_phone: '9800000000',
    notes: 'Pays at the end',
  })
  assert.equal(res.statusCode, 201, res.body)
  const b = res.json().data
  assert.match(b.booking_number, /^BK-\d{4}-\d{6}$/)
  assert.equal(b.type, 'walkin')
  assert.equal(b.status, 'pending')
  assert.equal(b.customer_name, 'Ram Shrestha')
  assert.equal(b.customer_phone, '9800000000')
  assert.equal(b.notes, 'Pays at the end')
  assert.equal(b.user_id, null)
  assert.equal(b.user, null)
  assert.equal(b.total_amount, '3000.00')
  assert.equal(b.hold_expires_at, null)
  const offline = await deskBook(w.owner, w.venue.id, {
    ...fixedSlot(w.court.id, 2, '10:00', '11:00'),
    customer_name: 'A',
  })
  assert.equal(offline.statusCode, 201)
  assert.equal(offline.json().data.type, 'offline')
  // Same conflict rule as customers.
  const clash = await deskBook(w.staff, w.venue.id, {
    ...fixedSlot(w.court.id, 2, '08:00', '10:00'),
    customer_name: 'B',
  })
  assert.equal(clash.statusCode, 409)
  assert.deepEqual(clash.json(), { message: 'The court is not available for the selected time slot.' })
  const customerClash = await book(app, w.customer, fixedSlot(w.court.id, 2, '10:00', '11:00'))
  assert.equal(customerClash.statusCode, 409)
  // customer_name is required; a court of another venue is refused.
  const noName = await deskBook(w.staff, w.venue.id, fixedSlot(w.court.id, 2, '12:00', '13:00'))
  assert.equal(noName.statusCode, 422)
  assert.deepEqual(noName.json().errors, { customer_name: ['The customer name field is required.'] })
  // A name that is blank once trimmed is refused the same way, as for indoor bookings (booking-core deskBooker).
  const blankName = await deskBook(w.staff, w.venue.id, {
    ...fixedSlot(w.court.id, 2, '12:00', '13:00'),
    customer_name: '  ',
  })
  assert.equal(blankName.statusCode, 422)
  assert.deepEqual(blankName.json().errors, { customer_name: ['The customer name field is required.'] })
  const elsewhere = await world(app)
  const foreignCourt = await deskBook(w.staff, w.venue.id, { ...fixedSlot(elsewhere.court.id, 2), customer_name: 'C' })
  assert.equal(foreignCourt.statusCode, 422)
  assert.deepEqual(foreignCourt.json().errors, { court_id: ['The selected court id is invalid.'] })
})

test('venue bookings: who may list and create (401, 403, 404)', async () => {
  const w = await world(app)
  const other = await world(app)
  const body = { ...fixedSlot(w.court.id, 2, '15:00', '16:00'), customer_name: 'X' }
  assert.equal((await deskBook(undefined, w.venue.id, body)).statusCode, 401)
  for (const who of [w.customer, other.owner, other.staff]) {
    const r = await deskBook(who, w.venue.id, body)
    assert.equal(r.statusCode, 403)
    assert.deepEqual(r.json(), FORBIDDEN)
    const l = await app.inject({ method: 'GET', url: `/api/venues/${w.venue.id}/bookings`, headers: who.headers })
    assert.equal(l.statusCode, 403)
  }
  assert.equal((await deskBook(w.staff, 'no-such-venue', body)).statusCode, 404)
  // Authorization comes before validation: an outsider with a bad body is still 403.
  assert.equal((await deskBook(w.customer, w.venue.id, { court_id: 'x' })).statusCode, 403)
  const badQuery = await app.inject({
    method: 'GET',
    url: `/api/venues/${w.venue.id}/bookings?status=bogus`,
    headers: w.customer.headers,
  })
  assert.equal(badQuery.statusCode, 403)
  const admin = await createUser(app, { roles: ['super_admin'] })
  assert.equal((await deskBook(admin, w.venue.id, body)).statusCode, 201)
})

test('GET /api/venues/{venue}/bookings: paginated, filtered by date, status and court_id, with the customer', async () => {
  const w = await world(app)
  const court2 = await createCourt(app, w.venue.id)
  const a = (await book(app, w.customer, fixedSlot(w.court.id, 4, '08:00', '09:00'))).json().data
  const b = (await book(app, w.customer, fixedSlot(court2.id, 4, '08:00', '09:00'))).json().data
  const c = (await book(app, w.customer, fixedSlot(w.court.id, 5, '08:00', '09:00'))).json().data
  await forceStatus(c.id, 'confirmed')
  const list = (query: string) =>
    app.inject({ method: 'GET', url: `/api/venues/${w.venue.id}/bookings${query}`, headers: w.staff.headers })
  const all = await list('')
  assert.equal(all.statusCode, 200, all.body)
  assert.equal(all.json().meta.total, 3)
  assert.equal(all.json().data[0].user.id, w.customer.id)
  const ids = (r: Awaited<ReturnType<typeof list>>) =>
    r
      .json()
      .data.map((x: { id: number }) => x.id)
      .sort()
  assert.deepEqual(ids(await list(`?date=${daysFromFixedNow(4)}`)), [a.id, b.id].sort())
  assert.deepEqual(ids(await list('?status=confirmed')), [c.id])
  assert.deepEqual(ids(await list(`?court_id=${court2.id}`)), [b.id])
  assert.deepEqual(ids(await list(`?court_id=${w.court.id}&date=${daysFromFixedNow(5)}`)), [c.id])
  const page = await list('?per_page=1&page=2')
  assert.equal(page.json().data.length, 1)
  assert.equal(page.json().meta.current_page, 2)
  assert.equal((await list('?status=bogus')).statusCode, 422)
})

test('PATCH /api/bookings/{booking}/status: every transition allowed or refused (422)', async () => {
  const w = await world(app)
  // Before the start time: exactly the state machine's transitions, no_show never.
  for (const from of BOOKING_STATUSES) {
    for (const to of STAFF_TARGETS) {
      const { id } = await deskBooking(w)
      await forceStatus(id, from)
      const r = await setStatus(w.staff, id, { status: to })
      const row = await app.ctx.db
        .selectFrom('bookings')
        .select('status')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
      const expected = staffTransitionError(from, to, false)
      if (expected === null) {
        assert.equal(r.statusCode, 200, `${from} → ${to}: ${r.body}`)
        assert.equal(r.json().data.status, to)
        assert.equal(row.status, to)
      } else {
        assert.equal(r.statusCode, 422, `${from} → ${to}: ${r.body}`)
        assert.equal(r.json().message, 'The given data was invalid.')
        assert.deepEqual(r.json().errors, { status: [expected] }, `${from} → ${to}`)
        assert.equal(row.status, from, `${from} → ${to} left the booking alone`)
      }
    }
  }
  // After the start time a confirmed booking may be marked no-show.
  const late = await deskBooking(w)
  await forceStatus(late.id, 'confirmed', daysFromFixedNow(-1))
  const noShow = await setStatus(w.staff, late.id, { status: 'no_show' })
  assert.equal(noShow.statusCode, 200, noShow.body)
  assert.equal(noShow.json().data.status, 'no_show')
  // Targets outside the staff list are refused by validation.
  const { id } = await deskBooking(w)
  for (const body of [{ status: 'confirmed' }, { status: 'pending' }, {}]) {
    const r = await setStatus(w.staff, id, body)
    assert.equal(r.statusCode, 422)
    assert.ok(r.json().errors.status)
  }
})

test('status: staff cancelling a paid booking refunds it in full and notifies the customer; who may (403/404)', async () => {
  const w = await world(app, { wallet: 150000 })
  const created = (await book(app, w.customer, fixedSlot(w.court.id, 1, '20:00', '21:00'))).json().data
  const paid = await app.inject({
    method: 'POST',
    url: '/api/payments/initiate',
    headers: w.customer.headers,
    payload: { booking_id: created.id, method: 'wallet' },
  })
  assert.equal(paid.statusCode, 200, paid.body)
  for (const who of [w.customer, (await world(app)).manager]) {
    const r = await setStatus(who, created.id, { status: 'cancelled' })
    assert.equal(r.statusCode, 403)
    assert.deepEqual(r.json(), FORBIDDEN)
  }
  assert.equal((await setStatus(w.staff, 99999999, { status: 'cancelled' })).statusCode, 404)
  assert.equal((await setStatus(undefined, created.id, { status: 'cancelled' })).statusCode, 401)
  const r = await setStatus(w.manager, created.id, { status: 'cancelled', reason: 'Floodlights broken' })
  assert.equal(r.statusCode, 200, r.body)
  assert.equal(r.json().data.cancel_reason, 'Floodlights broken')
  const u = await app.ctx.db
    .selectFrom('users')
    .select('wallet_balance')
    .where('id', '=', w.customer.id)
    .executeTakeFirstOrThrow()
  assert.equal(u.wallet_balance, 150000)
  const notes = await notificationsOf(app, w.customer.id)
  assert.deepEqual(
    notes.map((n) => n.type),
    ['BookingConfirmed', 'BookingCancelled'],
  )
})

test('charges raise total and balance_due; cash payments up to the balance confirm a pending booking', async () => {
  const w = await world(app)
  const created = (await book(app, w.customer, fixedSlot(w.court.id, 3, '18:00', '19:00'))).json().data
  const c1 = await charge(w.staff, created.id, { description: 'Drinks', amount: '120.50' })
  assert.equal(c1.statusCode, 201, c1.body)
  const afterCharge = c1.json().data
  assert.equal(afterCharge.extras_total, '120.50')
  assert.equal(afterCharge.total_amount, '1620.50')
  assert.equal(afterCharge.balance_due, '1620.50')
  assert.equal(afterCharge.charges.length, 1)
  assert.equal(afterCharge.charges[0].description, 'Drinks')
  assert.equal(afterCharge.charges[0].amount, '120.50')
  assert.match(afterCharge.charges[0].created_at, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
  const c2 = await charge(w.owner, created.id, { description: 'Ball rental', amount: 79.5 })
  assert.equal(c2.json().data.extras_total, '200.00')
  assert.equal(c2.json().data.total_amount, '1700.00')

  for (const [amount, field] of [
    ['0', 'amount'],
    ['1.234', 'amount'],
    ['-5', 'amount'],
  ]) {
    const bad = await charge(w.staff, created.id, { description: 'x', amount })
    assert.equal(bad.statusCode, 422, `${amount}: ${bad.body}`)
    assert.ok(bad.json().errors[field], bad.body)
  }
  assert.deepEqual((await charge(w.staff, created.id, { description: '   ', amount: 5 })).json().errors, {
    description: ['The description field is required.'],
  })

  const over = await pay(w.staff, created.id, { amount: '1700.01' })
  assert.equal(over.statusCode, 422)
  assert.deepEqual(over.json().errors, { amount: ['The amount must not be greater than the balance due of 1700.00.'] })
  const part = await pay(w.staff, created.id, { amount: '700', method: 'cash' })
  assert.equal(part.statusCode, 201, part.body)
  assert.equal(part.json().data.status, 'pending')
  assert.equal(part.json().data.paid_amount, '700.00')
  assert.equal(part.json().data.balance_due, '1000.00')
  assert.equal(part.json().data.payments[0].method, 'cash')
  assert.equal(part.json().data.payments[0].status, 'completed')
  const rest = await pay(w.manager, created.id, { amount: 1000 })
  assert.equal(rest.statusCode, 201, rest.body)
  assert.equal(rest.json().data.status, 'confirmed')
  assert.equal(rest.json().data.is_paid, true)
  assert.equal(rest.json().data.balance_due, '0.00')
  assert.equal(rest.json().data.hold_expires_at, null)
  const recorded = await app.ctx.db
    .selectFrom('payments')
    .select(['recorded_by', 'user_id'])
    .where('payable_type', '=', 'court')
    .where('payable_id', '=', created.id)
    .orderBy('id')
    .execute()
  assert.deepEqual(recorded, [
    { recorded_by: w.staff.id, user_id: w.customer.id },
    { recorded_by: w.manager.id, user_id: w.customer.id },
  ])
  const notes = await notificationsOf(app, w.customer.id)
  assert.equal(notes.filter((n) => n.type === 'BookingConfirmed').length, 1)
  const full = await pay(w.staff, created.id, { amount: 1 })
  assert.equal(full.statusCode, 422)
  assert.deepEqual(full.json(), { message: 'This booking is already paid.' })

  // A later charge on the confirmed booking opens a balance again; it stays confirmed.
  const extra = await charge(w.staff, created.id, { description: 'Towel', amount: 50 })
  assert.equal(extra.json().data.status, 'confirmed')
  assert.equal(extra.json().data.balance_due, '50.00')
  assert.equal(extra.json().data.is_paid, false)
})

test('charges and payments: refused on cancelled bookings (422) and for outsiders (401/403/404)', async () => {
  const w = await world(app)
  const created = (await book(app, w.customer, fixedSlot(w.court.id, 3, '16:00', '17:00'))).json().data
  for (const who of [w.customer, (await world(app)).staff]) {
    assert.equal((await charge(who, created.id, { description: 'x', amount: 5 })).statusCode, 403)
    assert.equal((await pay(who, created.id, { amount: 5 })).statusCode, 403)
  }
  assert.equal((await charge(undefined, created.id, { description: 'x', amount: 5 })).statusCode, 401)
  // Authorization before validation.
  assert.equal((await charge(w.customer, created.id, {})).statusCode, 403)
  assert.equal((await pay(w.customer, created.id, { amount: 'lots' })).statusCode, 403)
  assert.equal((await setStatus(w.customer, created.id, { status: 'nope' })).statusCode, 403)
  assert.equal((await pay(w.staff, 99999999, { amount: 5 })).statusCode, 404)
  await forceStatus(created.id, 'cancelled')
  const c = await charge(w.staff, created.id, { description: 'x', amount: 5 })
  assert.equal(c.statusCode, 422)
  assert.deepEqual(c.json(), { message: 'A cancelled booking cannot take charges.' })
  const p = await pay(w.staff, created.id, { amount: 5 })
  assert.equal(p.statusCode, 422)
  assert.deepEqual(p.json(), { message: 'This booking cannot be paid.' })
})
