import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { build } from '../helpers/app.ts'
import {
  assignStaff,
  createCourt,
  createUser,
  createVenue,
  daysFromFixedNow,
  FIXED_NOW,
  type TestUser,
} from '../helpers/factories.ts'
import { insertBooking, ledger } from './helpers.ts'

// GET /api/payments/{payment}: who may read a payment.

// The app runs on a ManualClock at FIXED_NOW (Tuesday 10 March 2026, 09:00 venue time); booking
// dates count from that day, never from the machine's date.
let app: App
before(async () => {
  app = await build(undefined, {}, { clock: new ManualClock(FIXED_NOW) })
})
after(() => app.close())

const get = (id: number | string, headers?: Record<string, string>) =>
  app.inject({ method: 'GET', url: `/api/payments/${id}`, headers })

async function assertLedgerHolds(users: TestUser[]) {
  for (const u of users) {
    const l = await ledger(app, u.id)
    assert.equal(l.balance, l.sum, 'balance == sum(ledger)')
  }
}

test('a booking payment: the customer and the venue owner, manager and staff read it; others may not', async () => {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const venue = await createVenue(app, owner.id)
  const court = await createCourt(app, venue.id)
  const manager = await createUser(app, { roles: ['manager'] })
  const staff = await createUser(app, { roles: ['staff'] })
  await assignStaff(app, venue.id, manager.id, 'manager')
  await assignStaff(app, venue.id, staff.id, 'staff')
  const customer = await createUser(app)
  const stranger = await createUser(app)
  const otherOwner = await createUser(app, { roles: ['venue_owner'] })
  await createVenue(app, otherOwner.id)
  const booking = await insertBooking(app, {
    userId: customer.id,
    venueId: venue.id,
    courtId: court.id,
    total: 80000,
    date: daysFromFixedNow(3),
  })
  const init = await app.inject({
    method: 'POST',
    url: '/api/payments/initiate',
    headers: customer.headers,
    payload: { booking_id: booking.id, method: 'gateway_2' },
  })
  assert.equal(init.statusCode, 201, init.body)
  const id = init.json().data.payment.id as number

  for (const reader of [customer, owner, manager, staff]) {
    const res = await get(id, reader.headers)
    assert.equal(res.statusCode, 200, res.body)
    const data = res.json().data
    assert.equal(data.id, id)
    assert.equal(data.method, 'gateway_2')
    assert.equal(data.amount, '800.00')
    assert.equal(data.status, 'initiated') // the customer has not paid at the gateway yet
    assert.equal(data.booking_type, 'court')
    assert.equal(data.booking_id, booking.id)
    assert.deepEqual(data.booking, {
      id: booking.id,
      booking_type: 'court',
      booking_number: booking.booking_number,
      status: 'pending',
      total_amount: '800.00',
      paid_amount: '0.00',
      balance_due: '800.00',
      is_paid: false,
    })
    assert.equal(data.topup, null)
  }
  assert.equal((await get(id, stranger.headers)).statusCode, 403)
  assert.equal((await get(id, otherOwner.headers)).statusCode, 403)
  const anonymous = await get(id)
  assert.equal(anonymous.statusCode, 401)
  assert.ok(anonymous.json().message)
  for (const bad of [id + 1000, '0x10', '0', 'abc', '1e3']) {
    const res = await get(bad, customer.headers)
    assert.equal(res.statusCode, 404, String(bad))
    assert.deepEqual(Object.keys(res.json()), ['message'])
  }
  await assertLedgerHolds([customer, owner, manager, staff, stranger, otherOwner])
})

test('a top-up payment: only its customer reads it (venue staff have nothing to do with it)', async () => {
  const customer = await createUser(app)
  const stranger = await createUser(app)
  const owner = await createUser(app, { roles: ['venue_owner'] })
  await createVenue(app, owner.id)
  const topup = await app.inject({
    method: 'POST',
    url: '/api/wallet/topup',
    headers: customer.headers,
    payload: { amount: '250.00', method: 'gateway_3' },
  })
  assert.equal(topup.statusCode, 201, topup.body)
  const payment = await app.ctx.db
    .selectFrom('payments')
    .select('id')
    .where('payable_type', '=', 'topup')
    .where('payable_id', '=', topup.json().data.id)
    .executeTakeFirstOrThrow()

  const res = await get(payment.id, customer.headers)
  assert.equal(res.statusCode, 200, res.body)
  const data = res.json().data
  assert.equal(data.id, payment.id)
  assert.equal(data.method, 'gateway_3')
  assert.equal(data.amount, '250.00')
  assert.equal(data.status, 'initiated')
  assert.equal(data.booking_type, 'topup')
  assert.equal(data.booking, null)
  assert.deepEqual(
    {
      id: data.topup.id,
      status: data.topup.status,
      amount: data.topup.amount,
      balance_after: data.topup.balance_after,
    },
    { id: topup.json().data.id, status: 'pending', amount: '250.00', balance_after: null },
  )
  assert.equal((await get(payment.id, stranger.headers)).statusCode, 403)
  assert.equal((await get(payment.id, owner.headers)).statusCode, 403)
  assert.equal((await get(payment.id)).statusCode, 401)
  assert.equal((await get(payment.id + 1000, customer.headers)).statusCode, 404)
  assert.equal((await get('0x10', customer.headers)).statusCode, 404)
  await assertLedgerHolds([customer, stranger, owner])
})

test('GET /api/payments/{payment} is in the API document', async () => {
  const doc = (await app.inject({ method: 'GET', url: '/docs/json' })).json()
  assert.ok(doc.paths['/api/payments/{payment}']?.get)
})
