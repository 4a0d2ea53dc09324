import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { refundBooking } from '../../src/modules/booking-core/payment-records.ts'
import { build } from '../helpers/app.ts'
import { assignStaff, createCourt, createUser, createVenue, daysFromFixedNow, FIXED_NOW } from '../helpers/factories.ts'
import { insertBooking, ledger } from './helpers.ts'

// The app runs on a ManualClock at FIXED_NOW (Tuesday 10 March 2026, 09:00 venue time); booking
// dates count from that day, never from the machine's date.
let app: App
before(async () => {
  app = await build(undefined, {}, { clock: new ManualClock(FIXED_NOW) })
})
after(() => app.close())

let day = 0
/** A booking paid by wallet through the API. */
async function paidBooking() {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const venue = await createVenue(app, owner.id)
  const court = await createCourt(app, venue.id)
  const user = await createUser(app, { wallet: 100000 })
  const booking = await insertBooking(app, {
    userId: user.id,
    venueId: venue.id,
    courtId: court.id,
    total: 100000,
    date: daysFromFixedNow(2 + day++),
  })
  const res = await app.inject({
    method: 'POST',
    url: '/api/payments/initiate',
    headers: user.headers,
    payload: { booking_id: booking.id, method: 'wallet' },
  })
  assert.equal(res.statusCode, 200, res.body)
  return { owner, venue, user, booking, paymentId: res.json().data.payment.id as number }
}

const refund = (
  headers: Record<string, string> | undefined,
  id: number | string,
  payload: Record<string, unknown> = {},
) => app.inject({ method: 'POST', url: `/api/payments/${id}/refund`, headers, payload })

test('a partial then the rest: credit rows, refunded_amount and status; never more than paid', async () => {
  const { owner, user, booking, paymentId } = await paidBooking()
  const part = await refund(owner.headers, paymentId, { amount: '300.50', reason: 'Floodlights failed' })
  assert.equal(part.statusCode, 200, part.body)
  assert.equal(typeof part.json().message, 'string')
  assert.equal(part.json().data.id, paymentId)
  assert.equal(part.json().data.refunded_amount, '300.50')
  assert.equal(part.json().data.status, 'partially_refunded')
  const wallet = (await app.inject({ method: 'GET', url: '/api/wallet', headers: user.headers })).json()
  assert.equal(wallet.balance, '300.50')
  const credit = wallet.transactions.data[0]
  assert.equal(credit.type, 'credit')
  assert.equal(credit.amount, '300.50')
  assert.equal(credit.reference_type, 'booking')
  assert.equal(credit.reference_id, booking.id)
  assert.equal(credit.description, 'Floodlights failed')

  const over = await refund(owner.headers, paymentId, { amount: 700 })
  assert.equal(over.statusCode, 422)
  assert.deepEqual(over.json().errors, { amount: ['The amount must not be greater than the refundable 699.50.'] })

  const rest = await refund(owner.headers, paymentId)
  assert.equal(rest.json().data.refunded_amount, '1000.00')
  assert.equal(rest.json().data.status, 'refunded')
  const done = await refund(owner.headers, paymentId, { amount: 1 })
  assert.equal(done.statusCode, 422)
  const l = await ledger(app, user.id)
  assert.equal(l.balance, 100000)
  assert.equal(l.sum, 100000)
})

test('owner, manager and super_admin may refund; staff, customers and strangers may not', async () => {
  const { venue, user, paymentId } = await paidBooking()
  const manager = await createUser(app, { roles: ['manager'] })
  const staff = await createUser(app, { roles: ['staff'] })
  const admin = await createUser(app, { roles: ['super_admin'] })
  const stranger = await createUser(app, { roles: ['venue_owner'] })
  await assignStaff(app, venue.id, manager.id, 'manager')
  await assignStaff(app, venue.id, staff.id, 'staff')
  for (const u of [staff, user, stranger]) {
    const res = await refund(u.headers, paymentId, { amount: 1 })
    assert.equal(res.statusCode, 403)
    assert.deepEqual(res.json(), { message: 'This action is unauthorized.' })
  }
  assert.equal((await refund(undefined, paymentId, { amount: 1 })).statusCode, 401)
  assert.equal((await refund(manager.headers, paymentId, { amount: 1 })).statusCode, 200)
  assert.equal((await refund(admin.headers, paymentId, { amount: 1 })).statusCode, 200)
  assert.equal((await refund(admin.headers, 99999999)).statusCode, 404)
  assert.equal((await refund(admin.headers, 'abc')).statusCode, 404)
  const zero = await refund(admin.headers, paymentId, { amount: 0 })
  assert.equal(zero.statusCode, 422)
  assert.deepEqual(zero.json().errors, { amount: ['The amount field must be at least 0.01.'] })
})

test('refundBooking (the cancellation refund) credits online money to the wallet and marks the booking payments', async () => {
  const { user, venue, booking, paymentId } = await paidBooking()
  await app.ctx.db
    .transaction()
    .execute((trx) =>
      refundBooking(
        app.ctx,
        trx,
        'court',
        { id: booking.id, user_id: user.id, venue_id: venue.id },
        { toWallet: 100000, atDesk: 0 },
        `Refund for cancelled booking ${booking.booking_number}`,
      ),
    )
  const p = await app.ctx.db
    .selectFrom('payments')
    .select(['status', 'refunded_amount'])
    .where('id', '=', paymentId)
    .executeTakeFirstOrThrow()
  assert.equal(p.status, 'refunded')
  assert.equal(p.refunded_amount, 100000)
  const l = await ledger(app, user.id)
  assert.equal(l.balance, 100000)
  assert.equal(l.sum, 100000)
  await assert.rejects(
    app.ctx.db
      .transaction()
      .execute((trx) =>
        refundBooking(
          app.ctx,
          trx,
          'court',
          { id: booking.id, user_id: user.id, venue_id: venue.id },
          { toWallet: 1, atDesk: 0 },
          'again',
        ),
      ),
    /more than was paid/,
  )
})
