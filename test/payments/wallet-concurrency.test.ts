import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { build } from '../helpers/app.ts'
import { createCourt, createUser, createVenue, daysFromFixedNow, FIXED_NOW } from '../helpers/factories.ts'
import { insertBooking, ledger } from './helpers.ts'

// The app runs on a ManualClock at FIXED_NOW (Tuesday 10 March 2026, 09:00 venue time); booking
// dates count from that day, never from the machine's date.
let app: App
before(async () => {
  app = await build(undefined, {}, { clock: new ManualClock(FIXED_NOW) })
})
after(() => app.close())

test('50 concurrent wallet payments against a balance that covers 10: exactly 10 succeed, never negative', async () => {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const venue = await createVenue(app, owner.id)
  const court = await createCourt(app, venue.id)
  const user = await createUser(app, { wallet: 10 * 50000 })
  const bookings = []
  for (let i = 0; i < 50; i++) {
    bookings.push(
      await insertBooking(app, {
        userId: user.id,
        venueId: venue.id,
        courtId: court.id,
        total: 50000,
        date: daysFromFixedNow(1 + i),
      }),
    )
  }
  const results = await Promise.all(
    bookings.map((b) =>
      app.inject({
        method: 'POST',
        url: '/api/payments/initiate',
        headers: user.headers,
        payload: { booking_id: b.id, method: 'wallet' },
      }),
    ),
  )
  const codes = results.map((r) => r.statusCode)
  assert.equal(codes.filter((c) => c === 200).length, 10, JSON.stringify(codes))
  assert.equal(codes.filter((c) => c === 422).length, 40)
  for (const r of results.filter((r) => r.statusCode === 422))
    assert.deepEqual(r.json(), { message: 'Insufficient wallet balance.' })

  const l = await ledger(app, user.id)
  assert.equal(l.balance, 0)
  assert.equal(l.sum, 0)
  assert.equal(l.rows.filter((r) => r.type === 'debit').length, 10)
  const confirmed = await app.ctx.db
    .selectFrom('bookings')
    .select('id')
    .where('user_id', '=', user.id)
    .where('status', '=', 'confirmed')
    .execute()
  assert.equal(confirmed.length, 10)
  const payments = await app.ctx.db
    .selectFrom('payments')
    .select('id')
    .where('user_id', '=', user.id)
    .where('method', '=', 'wallet')
    .execute()
  assert.equal(payments.length, 10)
  // Every ledger row's balance_after is a step of one consistent history.
  const after = (
    await app.ctx.db
      .selectFrom('wallet_transactions')
      .select('balance_after')
      .where('user_id', '=', user.id)
      .orderBy('id')
      .execute()
  ).map((r) => r.balance_after)
  assert.deepEqual(after, [500000, 450000, 400000, 350000, 300000, 250000, 200000, 150000, 100000, 50000, 0])
})
