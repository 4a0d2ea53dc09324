import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { accountSum } from '../../src/modules/ledger/index.ts'
import { book, fixedSlot, type World, world } from '../bookings/helpers.ts'
import { build } from '../helpers/app.ts'
import { FIXED_NOW, type TestUser } from '../helpers/factories.ts'
import { ledger, simulate } from './helpers.ts'

// Where a manual refund goes (POST /api/payments/{payment}/refund, `to`): the way the money came by
// default; Khalti payments back to their source through Khalti's refund API; desk money to the
// wallet only from the venue's own balance with the platform. Each moves the booking's refunded
// and paid amounts, and the ledger accounts it names.

// The app runs on a ManualClock at FIXED_NOW (Tuesday 10 March 2026, 09:00 venue time); booking
// dates count from that day, never from the machine's date.
let app: App
let day = 3
before(async () => {
  app = await build(undefined, {}, { clock: new ManualClock(FIXED_NOW) })
})
after(() => app.close())

function call(method: 'GET' | 'POST', url: string, user: TestUser, payload?: object) {
  return app.inject({ method, url, headers: user.headers, payload })
}

/** A 1,500.00 booking of the customer's, paid through `method` (a sandbox gateway or the wallet). */
async function paidOnline(w: World, method: string) {
  const booked = await book(app, w.customer, fixedSlot(w.court.id, day++))
  assert.equal(booked.statusCode, 201, booked.body)
  const id = booked.json().data.id as number
  const init = await call('POST', '/api/payments/initiate', w.customer, { booking_id: id, method })
  assert.ok(init.statusCode === 200 || init.statusCode === 201, init.body)
  if (method !== 'wallet') {
    const back = await app.inject({ method: 'GET', url: await simulate(app, init.json().data.payment_url, 'success') })
    assert.equal(back.statusCode, 200, back.body)
  }
  const payment = (await call('GET', `/api/bookings/${id}`, w.customer)).json().data.payments[0]
  return { id, paymentId: payment.id as number }
}

/** A 1,500.00 booking of the customer's, paid in cash at the desk. */
async function paidAtDesk(w: World) {
  const booked = await book(app, w.customer, fixedSlot(w.court.id, day++))
  assert.equal(booked.statusCode, 201, booked.body)
  const id = booked.json().data.id as number
  const paid = await call('POST', `/api/bookings/${id}/payments`, w.staff, { method: 'cash', amount: '1500.00' })
  assert.equal(paid.statusCode, 201, paid.body)
  const payment = (await call('GET', `/api/bookings/${id}`, w.customer)).json().data.payments[0]
  return { id, paymentId: payment.id as number }
}

const venueBalance = async (w: World) => -(await accountSum(app.ctx.db, `venue:${w.venue.id}:balance`))

test('a Khalti payment refunded to its source: Khalti sends it back, the wallet is untouched, the balance reopens', async () => {
  const w = await world(app)
  const { id, paymentId } = await paidOnline(w, 'gateway_2')
  const clearingBefore = await accountSum(app.ctx.db, 'gateway:gateway_2:clearing')
  const res = await call('POST', `/api/payments/${paymentId}/refund`, w.owner, { amount: '500.00', to: 'source' })
  assert.equal(res.statusCode, 200, res.body)
  assert.equal(res.json().message, 'Refund sent back through Khalti.')
  assert.equal(res.json().data.status, 'partially_refunded')
  assert.equal((await ledger(app, w.customer.id)).balance, 0)
  const booking = (await call('GET', `/api/bookings/${id}`, w.customer)).json().data
  assert.equal(booking.paid_amount, '1000.00')
  assert.equal(booking.refunded_amount, '500.00')
  assert.equal(booking.balance_due, '500.00')
  assert.equal(booking.is_paid, false)
  assert.equal(await accountSum(app.ctx.db, 'gateway:gateway_2:clearing'), clearingBefore - 50000)
  assert.equal(await venueBalance(w), 100000)
  // The rest, in full, also through Khalti (the sandbox refuses more than is left).
  const rest = await call('POST', `/api/payments/${paymentId}/refund`, w.owner, { to: 'source' })
  assert.equal(rest.statusCode, 200, rest.body)
  assert.equal(rest.json().data.status, 'refunded')
  assert.equal(rest.json().message, 'Refund sent back through Khalti.')
  // Refunded in full, the booking is no longer paid: it can be paid again.
  const after = (await call('GET', `/api/bookings/${id}`, w.customer)).json().data
  assert.deepEqual(
    [after.status, after.paid_amount, after.refunded_amount, after.balance_due, after.is_paid],
    ['confirmed', '0.00', '1500.00', '1500.00', false],
  )
  const again = await call('POST', '/api/payments/initiate', w.customer, { booking_id: id, method: 'gateway_2' })
  assert.equal(again.statusCode, 201, again.body)
})

test('to source is only for online Khalti payments; to desk is only for desk money', async () => {
  const w = await world(app, { wallet: 500000 })
  const byWallet = await paidOnline(w, 'wallet')
  const source = await call('POST', `/api/payments/${byWallet.paymentId}/refund`, w.owner, { to: 'source' })
  assert.equal(source.statusCode, 422, source.body)
  assert.deepEqual(Object.keys(source.json().errors), ['to'])
  const desk = await call('POST', `/api/payments/${byWallet.paymentId}/refund`, w.owner, { to: 'desk' })
  assert.equal(desk.statusCode, 422, desk.body)
  assert.deepEqual(Object.keys(desk.json().errors), ['to'])
  const cash = await paidAtDesk(w)
  const deskSource = await call('POST', `/api/payments/${cash.paymentId}/refund`, w.owner, { to: 'source' })
  assert.equal(deskSource.statusCode, 422, deskSource.body)
  const bogus = await call('POST', `/api/payments/${cash.paymentId}/refund`, w.owner, { to: 'bank' })
  assert.equal(bogus.statusCode, 422, bogus.body)
})

test('desk money to the wallet only from the venue balance, by an owner or manager; by default a cash-back', async () => {
  const w = await world(app)
  const cash = await paidAtDesk(w)
  // The venue has taken no online money: its balance with the platform is 0.
  const short = await call('POST', `/api/payments/${cash.paymentId}/refund`, w.owner, { to: 'wallet' })
  assert.equal(short.statusCode, 422, short.body)
  assert.deepEqual(short.json().errors, { to: ["The venue's balance with the platform does not cover this refund."] })
  assert.equal((await ledger(app, w.customer.id)).balance, 0)
  // Staff may not refund at all.
  const staff = await call('POST', `/api/payments/${cash.paymentId}/refund`, w.staff, { to: 'wallet' })
  assert.equal(staff.statusCode, 403, staff.body)
  // A Khalti payment for another booking gives the venue a balance of 1,500.00.
  await paidOnline(w, 'gateway_2')
  assert.equal(await venueBalance(w), 150000)
  const ok = await call('POST', `/api/payments/${cash.paymentId}/refund`, w.manager, { amount: '400.00', to: 'wallet' })
  assert.equal(ok.statusCode, 200, ok.body)
  assert.equal(ok.json().message, "Refund credited to the customer wallet from the venue's balance.")
  assert.equal((await ledger(app, w.customer.id)).balance, 40000)
  assert.equal(await venueBalance(w), 110000)
  // The default for desk money: a cash-back due at the desk, no wallet money.
  const back = await call('POST', `/api/payments/${cash.paymentId}/refund`, w.owner, { amount: '100.00' })
  assert.equal(back.statusCode, 200, back.body)
  assert.equal(back.json().message, "Refund recorded: pay it back at the venue's desk.")
  assert.equal((await ledger(app, w.customer.id)).balance, 40000)
  const due = (await call('GET', `/api/venues/${w.venue.id}/cash-backs`, w.staff)).json().data
  assert.deepEqual(
    due.map((c: { amount: string; status: string }) => [c.amount, c.status]),
    [['100.00', 'due']],
  )
  const booking = (await call('GET', `/api/bookings/${cash.id}`, w.customer)).json().data
  assert.equal(booking.refunded_amount, '500.00')
  assert.equal(booking.paid_amount, '1000.00')
})
