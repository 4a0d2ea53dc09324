import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { book, fixedSlot, world } from '../bookings/helpers.ts'
import { build } from '../helpers/app.ts'
import { FIXED_NOW, type TestUser } from '../helpers/factories.ts'
import { ledger } from './helpers.ts'

// Money goes back the way it came: cash staff record at the desk is refunded at the desk (and a
// "gateway" payment at the desk is a QR the gateway must confirm, never a typed reference) and never becomes platform wallet money, so staff cannot mint
// wallet credit by recording a payment nobody made and cancelling, and an honest cash customer who
// cancels is paid back at the desk, not credited the cash still in the venue's drawer.

// The app runs on a ManualClock at FIXED_NOW (Tuesday 10 March 2026, 09:00 venue time); booking
// dates count from that day, never from the machine's date.
let app: App
before(async () => {
  app = await build(undefined, {}, { clock: new ManualClock(FIXED_NOW) })
})
after(() => app.close())

function call(method: 'GET' | 'POST' | 'PATCH', url: string, user: TestUser, payload?: object) {
  return app.inject({ method, url, headers: user.headers, payload })
}

async function walletOf(user: TestUser) {
  const l = await ledger(app, user.id)
  assert.equal(l.balance, l.sum, 'balance == sum(ledger)')
  return l.balance
}

test('staff record a payment nobody made, charge the most they may and cancel: no wallet money is created', async () => {
  const w = await world(app)
  // On a booking of their own staff record nothing at all (test/payments/desk-limits.test.ts).
  const own = await book(app, w.staff, fixedSlot(w.court.id, 5, '12:00', '13:00'))
  assert.equal(own.statusCode, 201, own.body)
  const fakeOwn = { method: 'gateway_1', amount: 1500, reference: 'NOTHING-RECEIVED' }
  assert.equal((await call('POST', `/api/bookings/${own.json().data.id}/payments`, w.staff, fakeOwn)).statusCode, 403)
  // A customer's booking (a friend's account, say) is where the desk records payments.
  const theirs = await book(app, w.customer, fixedSlot(w.court.id, 5))
  assert.equal(theirs.statusCode, 201, theirs.body)
  const id = theirs.json().data.id
  const fake = await call('POST', `/api/bookings/${id}/payments`, w.staff, {
    method: 'gateway_1',
    amount: 1500,
    reference: 'NOTHING-RECEIVED',
  })
  assert.equal(fake.statusCode, 201, fake.body)
  // A gateway method at the desk is a QR payment the gateway must confirm: nothing is received.
  assert.equal(fake.json().data.payment.status, 'initiated')
  // 10,000,000 is above MAX_CHARGE_AMOUNT; the most a charge may carry is 100,000.00.
  const huge = await call('POST', `/api/bookings/${id}/charges`, w.staff, {
    description: 'Extra',
    amount: '10000000.00',
  })
  assert.equal(huge.statusCode, 422, huge.body)
  for (let i = 0; i < 3; i++) {
    const charge = await call('POST', `/api/bookings/${id}/charges`, w.staff, {
      description: 'Extra',
      amount: '100000.00',
    })
    assert.equal(charge.statusCode, 201, charge.body)
    const paid = await call('POST', `/api/bookings/${id}/payments`, w.staff, { method: 'cash', amount: '100000.00' })
    assert.equal(paid.statusCode, 201, paid.body)
  }
  const cancel = await call('PATCH', `/api/bookings/${id}/status`, w.staff, { status: 'cancelled' })
  assert.equal(cancel.statusCode, 200, cancel.body)
  assert.equal(cancel.json().data.paid_amount, '0.00')
  assert.equal(await walletOf(w.customer), 0)
  assert.equal(await walletOf(w.staff), 0)
  const credits = await app.ctx.db
    .selectFrom('wallet_transactions')
    .select('id')
    .where('user_id', 'in', [w.staff.id, w.customer.id])
    .where('type', '=', 'credit')
    .execute()
  assert.deepEqual(credits, [])
  // Every desk payment is recorded as refunded at the desk.
  const payments = await app.ctx.db
    .selectFrom('payments')
    .select(['status', 'amount', 'refunded_amount'])
    .where('payable_type', '=', 'court')
    .where('payable_id', '=', id)
    .execute()
  assert.equal(payments.length, 4)
  // The three cash payments are refunded at the desk; the QR payment nobody paid was never money.
  const received = payments.filter((p) => p.status !== 'initiated')
  assert.equal(received.length, 3)
  for (const p of received) assert.deepEqual([p.status, p.refunded_amount], ['refunded', p.amount])
})

test('a cash customer who cancels in time is refunded at the desk, not in the wallet', async () => {
  const w = await world(app)
  const res = await book(app, w.customer, fixedSlot(w.court.id, 6))
  const id = res.json().data.id
  const paid = await call('POST', `/api/bookings/${id}/payments`, w.staff, { method: 'cash', amount: '1500.00' })
  assert.equal(paid.statusCode, 201, paid.body)
  assert.equal(paid.json().data.status, 'confirmed')
  const preview = await call('GET', `/api/bookings/${id}/cancellation`, w.customer)
  assert.equal(preview.json().data.refund_amount, '1500.00')
  assert.match(preview.json().data.reason, /Rs 1,500\.00 paid at the venue is refunded at its desk\./)
  const cancel = await call('PATCH', `/api/bookings/${id}/cancel`, w.customer, {})
  assert.equal(cancel.statusCode, 200, cancel.body)
  assert.equal(cancel.json().message, 'Booking cancelled. Rs 1,500.00 paid at the venue is refunded at its desk.')
  assert.equal(cancel.json().data.paid_amount, '0.00')
  assert.equal(await walletOf(w.customer), 0)
})

test("the venue's manual refund of a desk payment is paid back at the desk; of an online one, to the wallet", async () => {
  const w = await world(app, { wallet: 150000 })
  // Desk: cash.
  const desk = (await book(app, w.customer, fixedSlot(w.court.id, 7))).json().data
  await call('POST', `/api/bookings/${desk.id}/payments`, w.staff, { method: 'cash', amount: '1500.00' })
  const cash = await app.ctx.db
    .selectFrom('payments')
    .select('id')
    .where('payable_id', '=', desk.id)
    .where('payable_type', '=', 'court')
    .executeTakeFirstOrThrow()
  const back = await call('POST', `/api/payments/${cash.id}/refund`, w.owner, { amount: '500.00' })
  assert.equal(back.statusCode, 200, back.body)
  assert.equal(back.json().message, "Refund recorded: pay it back at the venue's desk.")
  assert.equal(back.json().data.status, 'partially_refunded')
  assert.equal(await walletOf(w.customer), 150000)
  const after = await call('GET', `/api/bookings/${desk.id}`, w.customer)
  assert.equal(after.json().data.paid_amount, '1000.00')
  assert.equal(after.json().data.balance_due, '500.00')
  // Online: the wallet.
  const online = (await book(app, w.customer, fixedSlot(w.court.id, 8))).json().data
  const pay = await call('POST', '/api/payments/initiate', w.customer, { booking_id: online.id, method: 'wallet' })
  assert.equal(pay.statusCode, 200, pay.body)
  assert.equal(await walletOf(w.customer), 0)
  const refund = await call('POST', `/api/payments/${pay.json().data.payment.id}/refund`, w.owner, {})
  assert.equal(refund.statusCode, 200, refund.body)
  assert.equal(refund.json().message, 'Refund credited to the customer wallet.')
  assert.equal(await walletOf(w.customer), 150000)
})

test('a completed session charged for extras is paid at the desk: the money goes to the booking, never back as a cash-back', async () => {
  for (const walkIn of [false, true]) {
    const w = await world(app)
    const booked = walkIn
      ? await call('POST', `/api/venues/${w.venue.id}/bookings`, w.staff, {
          ...fixedSlot(w.court.id, 6, '12:00', '13:00'),
          type: 'walkin',
          customer_name: 'Walk-in Ram',
        })
      : await book(app, w.customer, fixedSlot(w.court.id, 6, '12:00', '13:00'))
    assert.equal(booked.statusCode, 201, booked.body)
    const id = booked.json().data.id as number
    const total = booked.json().data.total_amount as string
    assert.equal(
      (await call('POST', `/api/bookings/${id}/payments`, w.staff, { method: 'cash', amount: total })).statusCode,
      201,
    )
    for (const status of ['playing', 'completed']) {
      assert.equal((await call('PATCH', `/api/bookings/${id}/status`, w.staff, { status })).statusCode, 200)
    }
    const charge = { description: 'Drinks after the game', amount: '250.00' }
    assert.equal((await call('POST', `/api/bookings/${id}/charges`, w.staff, charge)).statusCode, 201)
    const paid = await call('POST', `/api/bookings/${id}/payments`, w.staff, { method: 'cash', amount: '250.00' })
    assert.equal(paid.statusCode, 201, paid.body)
    const after = paid.json().data
    assert.equal(after.status, 'completed', `walk-in ${walkIn}`)
    assert.equal(after.balance_due, '0.00', `walk-in ${walkIn}`)
    const extra = after.payments.find((p: { amount: string }) => p.amount === '250.00')
    assert.equal(extra.status, 'completed', `walk-in ${walkIn}: the payment stays the booking's`)
    const cashBacks = await app.ctx.db.selectFrom('cash_backs').select('id').where('booking_id', '=', id).execute()
    assert.deepEqual(cashBacks, [], `walk-in ${walkIn}: no cash-back`)
    const again = await call('POST', `/api/bookings/${id}/payments`, w.staff, { method: 'cash', amount: '250.00' })
    assert.equal(again.statusCode, 422, `walk-in ${walkIn}: nothing is due any more`)
  }
})
