import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { Zone } from '../../src/lib/zone.ts'
import { book, fixedSlot, played, type World, world } from '../bookings/helpers.ts'
import { build } from '../helpers/app.ts'
import { createUser, FIXED_NOW, type TestUser } from '../helpers/factories.ts'

// Payouts happen once (issue 46): a reference is recorded once per venue, even by two at once; a
// payout leaves the reserve (online money of upcoming bookings customers may still get back); a
// venue that refunds after a payout is listed as owing, and its next online money settles it.

const zone = new Zone('Asia/Kathmandu')
const clock = new ManualClock(FIXED_NOW)
const today = zone.today(clock.now())
clock.set(zone.instant(today, '12:00'))

let app: App
let admin: TestUser
let day = 3
before(async () => {
  app = await build(undefined, {}, { clock })
  admin = await createUser(app, { roles: ['super_admin'] })
})
after(() => app.close())

const call = (method: 'GET' | 'POST' | 'PATCH', url: string, user: TestUser, payload?: object) =>
  app.inject({ method, url, headers: user.headers, payload })

/** A booking `day` days ahead, paid from the wallet (Rs 1,500 online money for the venue); its id. */
async function paidAhead(w: World): Promise<number> {
  const booked = await book(app, w.customer, fixedSlot(w.court.id, day++))
  assert.equal(booked.statusCode, 201, booked.body)
  const id = booked.json().data.id as number
  const pay = await call('POST', '/api/payments/initiate', w.customer, { booking_id: id, method: 'wallet' })
  assert.equal(pay.statusCode, 200, pay.body)
  return id
}

const dueOf = async (w: World) =>
  (await call('GET', '/api/admin/payouts/due', admin))
    .json()
    .data.find((d: { venue: { id: number } }) => d.venue.id === w.venue.id)

test('a payout reference is recorded once per venue, even by two at once; another venue may use it', async () => {
  const w = await world(app, { wallet: 1_000_000 })
  for (let i = 0; i < 2; i++) await played(app, w, await paidAhead(w))
  const url = `/api/admin/venues/${w.venue.id}/payouts`
  const body = { amount: '100.00', reference: 'NIBL-TXN-555', paid_on: today }
  const [a, b] = await Promise.all([call('POST', url, admin, body), call('POST', url, admin, body)])
  assert.deepEqual([a.statusCode, b.statusCode].sort(), [201, 409])
  const again = await call('POST', url, admin, { ...body, reference: ' nibl-txn-555 ' })
  assert.equal(again.statusCode, 409)
  assert.deepEqual(again.json(), {
    message: 'A payout with reference NIBL-TXN-555 is already recorded for this venue.',
  })
  const listed = await call('GET', `/api/venues/${w.venue.id}/payouts`, w.owner)
  assert.equal(listed.json().data.length, 1)
  const other = await world(app, { wallet: 1_000_000 })
  await played(app, other, await paidAhead(other))
  assert.equal((await call('POST', `/api/admin/venues/${other.venue.id}/payouts`, admin, body)).statusCode, 201)
})

test('a payout leaves what upcoming bookings may still refund; payouts due shows balance, reserve, available', async () => {
  const w = await world(app, { wallet: 1_000_000 })
  const past = await paidAhead(w)
  await played(app, w, past)
  await paidAhead(w) // upcoming: its Rs 1,500 may still be refunded
  assert.deepEqual(
    { ...(await dueOf(w)), venue: undefined, payout_account: undefined },
    {
      venue: undefined,
      payout_account: undefined,
      balance: '3000.00',
      reserve: '1500.00',
      available: '1500.00',
      owing: false,
    },
  )
  const url = `/api/admin/venues/${w.venue.id}/payouts`
  const over = await call('POST', url, admin, { amount: '1500.01', reference: 'R-1', paid_on: today })
  assert.equal(over.statusCode, 422)
  assert.deepEqual(over.json().errors, {
    amount: [
      "The amount must not be greater than the 1500.00 available: the venue's balance of 3000.00 less 1500.00 still refundable for upcoming bookings.",
    ],
  })
  assert.equal(
    (await call('POST', url, admin, { amount: '1500.00', reference: 'R-1', paid_on: today })).statusCode,
    201,
  )
  assert.deepEqual(
    { ...(await dueOf(w)), venue: undefined, payout_account: undefined },
    {
      venue: undefined,
      payout_account: undefined,
      balance: '1500.00',
      reserve: '1500.00',
      available: '0.00',
      owing: false,
    },
  )
})

test('refunds after a payout leave a venue owing; listed as such, its next online money settles it', async () => {
  const w = await world(app, { wallet: 1_000_000 })
  const first = await paidAhead(w)
  // An earlier arrangement paid the venue out before the session (recorded when nothing was reserved).
  await app.ctx.db.updateTable('bookings').set({ status: 'completed' }).where('id', '=', first).execute()
  const url = `/api/admin/venues/${w.venue.id}/payouts`
  assert.equal(
    (await call('POST', url, admin, { amount: '1500.00', reference: 'R-9', paid_on: today })).statusCode,
    201,
  )
  await app.ctx.db.updateTable('bookings').set({ status: 'confirmed' }).where('id', '=', first).execute()
  const cancel = await call('POST', `/api/bookings/${first}/status`, w.staff, { status: 'cancelled' })
  const patched =
    cancel.statusCode === 404
      ? await call('PATCH', `/api/bookings/${first}/status`, w.staff, { status: 'cancelled' })
      : cancel
  assert.equal(patched.statusCode, 200, patched.body)
  const owing = await dueOf(w)
  assert.equal(owing.owing, true)
  assert.equal(owing.balance, '-1500.00')
  assert.equal(owing.available, '0.00')
  assert.equal((await call('POST', url, admin, { amount: '1.00', reference: 'R-10', paid_on: today })).statusCode, 422)
  // The next online money settles the debt first.
  await played(app, w, await paidAhead(w))
  assert.equal(await dueOf(w), undefined, 'a balance of 0.00 is neither due nor owing')
})
