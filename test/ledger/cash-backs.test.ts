import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { account, accountSum } from '../../src/modules/ledger/index.ts'
import { book, fixedSlot, world } from '../bookings/helpers.ts'
import { build } from '../helpers/app.ts'
import { assignStaff, createUser, createVenue, FIXED_NOW, type TestUser } from '../helpers/factories.ts'
import { ledger } from '../payments/helpers.ts'

// Cash-backs: desk money refunded is handed back at the venue's desk, never credited to the platform
// wallet. The desk lists what is due, staff record paying it out once, and the ledger's desk account
// (the drawer) goes down by it.

// A fixed start; dates are counted from its day (fixedSlot), never from the real date.
const clock = new ManualClock(FIXED_NOW)
let app: App
before(async () => {
  app = await build(undefined, {}, { clock })
})
after(() => app.close())

function call(method: 'GET' | 'POST' | 'PATCH', url: string, user: TestUser, payload?: object) {
  return app.inject({ method, url, headers: user.headers, payload })
}

/** The venue's desk account on its normal (debit) side, in paisa. */
const deskOf = (venueId: number) => accountSum(app.ctx.db, account.venueDesk(venueId))

test('a cash booking cancelled by the venue is a cash-back due at the desk, paid out once by staff', async () => {
  const w = await world(app)
  const res = await book(app, w.customer, fixedSlot(w.court.id, 5))
  assert.equal(res.statusCode, 201, res.body)
  const id = res.json().data.id as number
  const paid = await call('POST', `/api/bookings/${id}/payments`, w.staff, { method: 'cash', amount: '1500.00' })
  assert.equal(paid.statusCode, 201, paid.body)
  assert.equal(paid.json().data.status, 'confirmed')
  assert.equal(await deskOf(w.venue.id), 150000, 'the cash is in the drawer')

  const cancel = await call('PATCH', `/api/bookings/${id}/status`, w.staff, {
    status: 'cancelled',
    cancel_reason: 'Pitch flooded',
  })
  assert.equal(cancel.statusCode, 200, cancel.body)
  assert.equal(cancel.json().data.status, 'cancelled')
  assert.equal(cancel.json().data.paid_amount, '0.00')

  // No wallet money: the cash is still in the venue's drawer.
  const wallet = await ledger(app, w.customer.id)
  assert.equal(wallet.balance, 0)
  assert.deepEqual(wallet.rows, [])
  assert.equal(await accountSum(app.ctx.db, account.wallet(w.customer.id)), 0)

  const list = await call('GET', `/api/venues/${w.venue.id}/cash-backs`, w.staff)
  assert.equal(list.statusCode, 200, list.body)
  assert.equal(list.headers['cache-control'], 'no-store')
  const due = list.json().data
  assert.equal(due.length, 1, list.body)
  const payment = await app.ctx.db
    .selectFrom('payments')
    .select(['id', 'status', 'refunded_amount'])
    .where('payable_type', '=', 'court')
    .where('payable_id', '=', id)
    .executeTakeFirstOrThrow()
  assert.deepEqual([payment.status, payment.refunded_amount], ['refunded', 150000])
  assert.equal(due[0].amount, '1500.00')
  assert.equal(due[0].status, 'due')
  assert.equal(due[0].booking_type, 'court')
  assert.equal(due[0].booking_id, id)
  assert.equal(due[0].payment_id, payment.id)
  assert.equal(due[0].user_id, w.customer.id)
  assert.equal(due[0].paid_by, null)
  assert.equal(due[0].paid_at, null)
  assert.match(due[0].created_at, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/)
  // Owed to the customer until handed over; still in the drawer.
  assert.equal(-(await accountSum(app.ctx.db, account.cashBackDue(w.venue.id))), 150000)
  assert.equal(await deskOf(w.venue.id), 150000)

  // Neither the customer nor another venue's staff may see or pay it.
  const other = await createUser(app, { roles: ['venue_owner'] })
  const otherVenue = await createVenue(app, other.id)
  const otherStaff = await createUser(app, { roles: ['staff'] })
  await assignStaff(app, otherVenue.id, otherStaff.id, 'staff')
  const payUrl = `/api/venues/${w.venue.id}/cash-backs/${due[0].id}/pay`
  assert.equal((await call('GET', `/api/venues/${w.venue.id}/cash-backs`, w.customer)).statusCode, 403)
  assert.equal((await call('POST', payUrl, w.customer)).statusCode, 403)
  assert.equal((await call('GET', `/api/venues/${w.venue.id}/cash-backs`, otherStaff)).statusCode, 403)
  assert.equal((await call('POST', payUrl, otherStaff)).statusCode, 403)
  // Through their own venue it is not theirs: not found, and nothing paid.
  const viaOwn = await call('POST', `/api/venues/${otherVenue.id}/cash-backs/${due[0].id}/pay`, otherStaff)
  assert.equal(viaOwn.statusCode, 404, viaOwn.body)
  assert.equal((await call('GET', `/api/venues/${otherVenue.id}/cash-backs`, otherStaff)).json().data.length, 0)
  assert.equal(await deskOf(w.venue.id), 150000)
  assert.equal((await call('POST', payUrl, w.customer)).statusCode, 403)
  assert.equal((await app.inject({ method: 'POST', url: payUrl })).statusCode, 401)

  const pay = await call('POST', payUrl, w.staff)
  assert.equal(pay.statusCode, 200, pay.body)
  assert.equal(pay.json().data.id, due[0].id)
  assert.equal(pay.json().data.status, 'paid')
  assert.equal(pay.json().data.paid_by, w.staff.id)
  assert.equal(pay.json().data.amount, '1500.00')
  assert.match(pay.json().data.paid_at, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/)

  // The drawer went down by the cash-back; nothing is owed any more.
  assert.equal(await deskOf(w.venue.id), 0)
  assert.equal(await accountSum(app.ctx.db, account.cashBackDue(w.venue.id)), 0)
  const entry = await app.ctx.db
    .selectFrom('ledger_entries')
    .select(['kind', 'created_by', 'venue_id', 'payment_id'])
    .where('kind', '=', 'cash_back')
    .where('venue_id', '=', w.venue.id)
    .execute()
  assert.deepEqual(entry, [{ kind: 'cash_back', created_by: w.staff.id, venue_id: w.venue.id, payment_id: payment.id }])

  // Once only.
  const again = await call('POST', payUrl, w.staff)
  assert.equal(again.statusCode, 422, again.body)
  assert.equal(again.json().message, 'This cash-back has already been paid.')
  assert.equal(await deskOf(w.venue.id), 0)

  assert.equal((await call('GET', `/api/venues/${w.venue.id}/cash-backs`, w.staff)).json().data.length, 0)
  const paidList = await call('GET', `/api/venues/${w.venue.id}/cash-backs?status=paid`, w.owner)
  assert.equal(paidList.statusCode, 200, paidList.body)
  assert.deepEqual(
    paidList.json().data.map((c: { id: number; status: string; paid_by: number }) => [c.id, c.status, c.paid_by]),
    [[due[0].id, 'paid', w.staff.id]],
  )
  assert.equal((await ledger(app, w.customer.id)).balance, 0)
})

test('a partial manual refund of cash is a cash-back of that part; an unknown one is 404', async () => {
  const w = await world(app)
  const id = (await book(app, w.customer, fixedSlot(w.court.id, 6))).json().data.id as number
  const paid = await call('POST', `/api/bookings/${id}/payments`, w.staff, { method: 'cash', amount: '1500.00' })
  assert.equal(paid.statusCode, 201, paid.body)
  const payment = await app.ctx.db
    .selectFrom('payments')
    .select('id')
    .where('payable_type', '=', 'court')
    .where('payable_id', '=', id)
    .executeTakeFirstOrThrow()
  const refund = await call('POST', `/api/payments/${payment.id}/refund`, w.owner, { amount: '400.50' })
  assert.equal(refund.statusCode, 200, refund.body)
  const due = (await call('GET', `/api/venues/${w.venue.id}/cash-backs`, w.manager)).json().data
  assert.deepEqual(
    due.map((c: { amount: string; status: string; payment_id: number }) => [c.amount, c.status, c.payment_id]),
    [['400.50', 'due', payment.id]],
  )
  assert.equal((await ledger(app, w.customer.id)).balance, 0)
  const pay = await call('POST', `/api/venues/${w.venue.id}/cash-backs/${due[0].id}/pay`, w.manager)
  assert.equal(pay.statusCode, 200, pay.body)
  assert.equal(pay.json().data.paid_by, w.manager.id)
  assert.equal(await deskOf(w.venue.id), 150000 - 40050)
  const missing = await call('POST', `/api/venues/${w.venue.id}/cash-backs/999999999/pay`, w.staff)
  assert.equal(missing.statusCode, 404, missing.body)
})
