import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { accountSum } from '../../src/modules/ledger/index.ts'
import { book, fixedSlot, type World, world } from '../bookings/helpers.ts'
import { build } from '../helpers/app.ts'
import { createUser, FIXED_NOW, type TestUser } from '../helpers/factories.ts'

// Who funds a discount: a platform coupon (super admin, no venue) is paid by the platform, so the
// venue is credited the undiscounted price as the booking is paid (and loses it again on a refund);
// a venue's own coupon is the venue's price cut.

// The app runs on a ManualClock at FIXED_NOW (Tuesday 10 March 2026, 09:00 venue time); booking
// dates count from that day, never from the machine's date.
let app: App
let admin: TestUser
before(async () => {
  app = await build(undefined, {}, { clock: new ManualClock(FIXED_NOW) })
  admin = await createUser(app, { roles: ['super_admin'] })
})
after(() => app.close())

const call = (method: 'GET' | 'POST', url: string, user: TestUser, payload?: object) =>
  app.inject({ method, url, headers: user.headers, payload })
const balanceOf = async (w: World) => 0 - (await accountSum(app.ctx.db, `venue:${w.venue.id}:balance`)) + 0

async function coupon(user: TestUser, url: string, code: string) {
  const res = await call('POST', url, user, { code, type: 'fixed', value: 200, is_active: true })
  assert.equal(res.statusCode, 201, res.body)
}

async function payWithCoupon(w: World, code: string, days: number) {
  const booked = await book(app, w.customer, fixedSlot(w.court.id, days, '10:00', '11:00', { coupon_code: code }))
  assert.equal(booked.statusCode, 201, booked.body)
  assert.equal(booked.json().data.total_amount, '1300.00')
  const paid = await call('POST', '/api/payments/initiate', w.customer, {
    booking_id: booked.json().data.id,
    method: 'wallet',
  })
  assert.equal(paid.statusCode, 200, paid.body)
  return { id: booked.json().data.id as number, paymentId: paid.json().data.payment.id as number }
}

test('a platform coupon: the venue is credited the undiscounted price; a refund takes the discount back', async () => {
  const w = await world(app, { wallet: 500000 })
  await coupon(admin, '/api/admin/coupons', 'PLATFORM200')
  const { paymentId } = await payWithCoupon(w, 'PLATFORM200', 3)
  assert.equal(await balanceOf(w), 150000)
  assert.equal(await accountSum(app.ctx.db, 'discount:platform'), 20000)
  // Half refunded: half the discount goes back to the platform.
  const half = await call('POST', `/api/payments/${paymentId}/refund`, w.owner, { amount: '650.00' })
  assert.equal(half.statusCode, 200, half.body)
  assert.equal(await balanceOf(w), 150000 - 65000 - 10000)
  const rest = await call('POST', `/api/payments/${paymentId}/refund`, w.owner, {})
  assert.equal(rest.statusCode, 200, rest.body)
  assert.equal(await balanceOf(w), 0)
  assert.equal(await accountSum(app.ctx.db, 'discount:platform'), 0)
})

test("a venue's own coupon is its own price cut: the venue is credited what was paid", async () => {
  const w = await world(app, { wallet: 500000 })
  await coupon(w.owner, `/api/venues/${w.venue.id}/coupons`, 'VENUE200')
  await payWithCoupon(w, 'VENUE200', 4)
  assert.equal(await balanceOf(w), 130000)
})

test('a platform coupon that makes a booking free: the venue is credited the price at confirmation and loses it on a cancel', async () => {
  const w = await world(app)
  const made = await call('POST', '/api/admin/coupons', admin, {
    code: 'FREEPLAY',
    type: 'percent',
    value: '100',
    is_active: true,
  })
  assert.equal(made.statusCode, 201, made.body)
  const booked = await book(app, w.customer, fixedSlot(w.court.id, 5, '10:00', '11:00', { coupon_code: 'FREEPLAY' }))
  assert.equal(booked.statusCode, 201, booked.body)
  assert.equal(booked.json().data.total_amount, '0.00')
  assert.equal(booked.json().data.status, 'confirmed')
  assert.equal(await balanceOf(w), 150000)
  assert.equal(await accountSum(app.ctx.db, 'discount:platform'), 150000)
  const cancelled = await app.inject({
    method: 'PATCH',
    url: `/api/bookings/${booked.json().data.id}/cancel`,
    headers: w.customer.headers,
    payload: {},
  })
  assert.equal(cancelled.statusCode, 200, cancelled.body)
  assert.equal(await balanceOf(w), 0)
  assert.equal(await accountSum(app.ctx.db, 'discount:platform'), 0)
})
