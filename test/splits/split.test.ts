import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { build } from '../helpers/app.ts'
import { createUser, FIXED_NOW } from '../helpers/factories.ts'
import { bookingState, payShare, type ShareOut, split, splitWorld } from './helpers.ts'

// POST /api/bookings/{booking}/split and GET …/shares: equal shares to the paisa, re-split, 409 after
// a payment, who may split and read, and the 422s of a bad body. ManualClock at FIXED_NOW.
let app: App
before(async () => {
  app = await build(undefined, {}, { clock: new ManualClock(FIXED_NOW) })
})
after(() => app.close())

test('1500.01 in 4 shares: equal to the paisa, the remainder on the first, summing to the total', async () => {
  const w = await splitWorld(app, { total: 150001 })
  const res = await split(app, w.organizer, w.booking.id, { shares: 4 })
  assert.equal(res.statusCode, 201, res.body)
  const data = res.json().data
  assert.equal(data.booking_id, w.booking.id)
  assert.equal(data.total, '1500.01')
  assert.deepEqual(
    data.shares.map((s: ShareOut) => s.amount),
    ['375.01', '375.00', '375.00', '375.00'],
  )
  for (const s of data.shares as ShareOut[]) {
    assert.equal(s.status, 'unpaid')
    assert.equal(s.payer, null)
    assert.match(s.pay_url, /^http:\/\/localhost:8000\/s\/[A-Za-z0-9_-]{24}$/)
  }
  assert.equal(new Set(data.shares.map((s: ShareOut) => s.pay_url)).size, 4)
  // Two days ahead at 18:00: due 120 minutes before the start, and the booking is held until then.
  assert.equal(data.deadline, `${data.deadline.slice(0, 10)} 16:00:00`)
  const row = await bookingState(app, w.booking.id)
  assert.equal(row.status, 'pending')
  assert.equal(app.ctx.zone.format(row.hold_expires_at), data.deadline)

  const shares = await app.inject({
    method: 'GET',
    url: `/api/bookings/${w.booking.id}/shares`,
    headers: w.organizer.headers,
  })
  assert.equal(shares.statusCode, 200, shares.body)
  assert.deepEqual(shares.json().data, data)
})

test('splitting again before any payment replaces the shares; after a payment it is 409', async () => {
  const w = await splitWorld(app, { total: 100000 })
  const first = (await split(app, w.organizer, w.booking.id, { shares: 5 })).json().data
  const again = await split(app, w.organizer, w.booking.id, { shares: 3 })
  assert.equal(again.statusCode, 201, again.body)
  const second = again.json().data
  assert.deepEqual(
    second.shares.map((s: ShareOut) => s.amount),
    ['333.34', '333.33', '333.33'],
  )
  // The old links are gone.
  const old = await app.inject({ method: 'GET', url: `/api/shares/${first.shares[0].pay_url.split('/').pop()}` })
  assert.equal(old.statusCode, 404)

  const friend = await createUser(app, { wallet: 50000 })
  const paid = await payShare(app, friend, second.shares[1].pay_url, { method: 'wallet' })
  assert.equal(paid.statusCode, 200, paid.body)
  const third = await split(app, w.organizer, w.booking.id, { shares: 2 })
  assert.equal(third.statusCode, 409, third.body)
  assert.deepEqual(third.json(), { message: 'A share of this booking has been paid: its split can no longer change.' })
})

test('only the organizer splits and reads the shares: staff, the owner and others are refused', async () => {
  const w = await splitWorld(app)
  const stranger = await createUser(app)
  for (const user of [w.staff, w.owner, stranger]) {
    const res = await split(app, user, w.booking.id, { shares: 2 })
    assert.equal(res.statusCode, 403, res.body)
    assert.deepEqual(res.json(), { message: 'This action is unauthorized.' })
    // Refused before the body is read: a bad body is still 403, never a 422.
    assert.equal((await split(app, user, w.booking.id, { shares: 'x' })).statusCode, 403)
  }
  assert.equal((await split(app, undefined, w.booking.id, { shares: 2 })).statusCode, 401)
  assert.equal((await split(app, w.organizer, 999999, { shares: 2 })).statusCode, 404)
  assert.equal((await split(app, w.organizer, w.booking.id, { shares: 2 })).statusCode, 201)
  for (const user of [w.staff, w.owner, stranger]) {
    const res = await app.inject({ method: 'GET', url: `/api/bookings/${w.booking.id}/shares`, headers: user.headers })
    assert.equal(res.statusCode, 403, res.body)
  }
  const notSplit = await splitWorld(app)
  const res = await app.inject({
    method: 'GET',
    url: `/api/bookings/${notSplit.booking.id}/shares`,
    headers: notSplit.organizer.headers,
  })
  assert.equal(res.statusCode, 404)
})

test('a bad body is 422 with the field named; a confirmed or too-late booking cannot be split', async () => {
  const w = await splitWorld(app)
  for (const shares of [1, 21, 2.5, '3', null, true]) {
    const res = await split(app, w.organizer, w.booking.id, { shares })
    assert.equal(res.statusCode, 422, `${shares}: ${res.body}`)
    assert.ok(res.json().errors.shares, res.body)
  }
  const missing = await split(app, w.organizer, w.booking.id, {})
  assert.equal(missing.statusCode, 422)
  assert.ok(missing.json().errors.shares)

  const confirmed = await splitWorld(app)
  await app.ctx.db.updateTable('bookings').set({ status: 'confirmed' }).where('id', '=', confirmed.booking.id).execute()
  const res = await split(app, confirmed.organizer, confirmed.booking.id, { shares: 2 })
  assert.equal(res.statusCode, 409, res.body)
  assert.deepEqual(res.json(), { message: 'Only a pending booking that nothing has been paid for can be split.' })

  // Today at 10:30 (now is 09:00): 120 minutes before the start has already passed.
  const soon = await splitWorld(app, { days: 0, start: '10:00' })
  const late = await split(app, soon.organizer, soon.booking.id, { shares: 2 })
  assert.equal(late.statusCode, 422, late.body)
  assert.deepEqual(late.json(), {
    message: 'It is too late to split this booking: its shares would have no time to be paid.',
  })
})

test('a customer without a verified phone holds a split only for the online payment window', async () => {
  const w = await splitWorld(app)
  await app.ctx.db.updateTable('users').set({ phone_verified_at: null }).where('id', '=', w.organizer.id).execute()
  await app.ctx.db
    .updateTable('bookings')
    .set({ type: 'online', created_by: w.organizer.id })
    .where('id', '=', w.booking.id)
    .execute()
  const res = await split(app, w.organizer, w.booking.id, { shares: 2 })
  assert.equal(res.statusCode, 201, res.body)
  const minutes = app.ctx.config.bookingHoldMinutes
  const expected = new Date(app.ctx.clock.now().getTime() + minutes * 60_000)
  assert.equal(res.json().data.deadline, app.ctx.zone.format(expected))
})

test('the share page shows the booking, the amount and who has paid, to anyone with the link', async () => {
  const w = await splitWorld(app, { total: 200000 })
  const data = (await split(app, w.organizer, w.booking.id, { shares: 4 })).json().data
  const friend = await createUser(app, { name: 'Friend Gurung', wallet: 200000 })
  assert.equal((await payShare(app, friend, data.shares[2].pay_url, { method: 'wallet' })).statusCode, 200)
  const token = data.shares[3].pay_url.split('/').pop()
  const res = await app.inject({ method: 'GET', url: `/api/shares/${token}` })
  assert.equal(res.statusCode, 200, res.body)
  const page = res.json().data
  assert.equal(page.share.amount, '500.00')
  assert.equal(page.share.status, 'unpaid')
  assert.equal(page.booking.start_time, '18:00')
  assert.equal(page.booking.end_time, '19:00')
  assert.equal(page.booking.organizer, 'Organizer Rai')
  assert.equal(page.shares_total, 4)
  assert.equal(page.shares_paid, 1)
  assert.deepEqual(page.paid_by, [{ name: 'Friend Gurung', shares: 1 }])
  assert.equal((await app.inject({ method: 'GET', url: '/api/shares/nope' })).statusCode, 404)
})
