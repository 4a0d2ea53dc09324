import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { issueReceipt } from '../../src/modules/receipts/index.ts'
import { build } from '../helpers/app.ts'
import { createCourt, createUser, createVenue, daysFromFixedNow, FIXED_NOW } from '../helpers/factories.ts'
import { insertBooking } from '../payments/helpers.ts'

// Receipt numbers are unique and gap-free per venue, fiscal year and series, under concurrent
// payments and rollbacks (docs/payments.md, "Receipts and IRD").

let app: App
before(async () => {
  app = await build(undefined, {}, { clock: new ManualClock(FIXED_NOW) })
})
after(() => app.close())

const numbersAt = async (venueId: number) =>
  await app.ctx.db
    .selectFrom('receipts')
    .select(['receipt_number', 'sequence', 'fiscal_year', 'payment_id'])
    .where('venue_id', '=', venueId)
    .where('type', '=', 'receipt')
    .orderBy('sequence')
    .execute()

test('20 customers paying by wallet at once at one venue: receipts 1 to 20, each once', async () => {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const venue = await createVenue(app, owner.id)
  const court = await createCourt(app, venue.id)
  const payers = []
  for (let i = 0; i < 20; i++) {
    const user = await createUser(app, { wallet: 100000 })
    const booking = await insertBooking(app, {
      userId: user.id,
      venueId: venue.id,
      courtId: court.id,
      total: 100000,
      date: daysFromFixedNow(2 + i),
    })
    payers.push({ user, booking })
  }
  const results = await Promise.all(
    payers.map(({ user, booking }) =>
      app.inject({
        method: 'POST',
        url: '/api/payments/initiate',
        headers: user.headers,
        payload: { booking_id: booking.id, method: 'wallet' },
      }),
    ),
  )
  for (const r of results) assert.equal(r.statusCode, 200, r.body)
  const rows = await numbersAt(venue.id)
  assert.deepEqual(
    rows.map((r) => r.sequence),
    Array.from({ length: 20 }, (_, i) => i + 1),
  )
  assert.equal(new Set(rows.map((r) => r.receipt_number)).size, 20)
  assert.equal(new Set(rows.map((r) => r.fiscal_year)).size, 1)
  // One receipt per payment, each payment's own.
  const paid = results.map((r) => r.json().data.payment.id as number).sort((a, b) => a - b)
  assert.deepEqual(
    rows.map((r) => r.payment_id).sort((a, b) => a - b),
    paid,
  )
})

test('a payment that rolls back gives its number back: the next receipt takes it', async () => {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const venue = await createVenue(app, owner.id)
  const court = await createCourt(app, venue.id)
  const user = await createUser(app, { wallet: 300000 })
  const bookings = []
  for (let i = 0; i < 2; i++) {
    bookings.push(
      await insertBooking(app, {
        userId: user.id,
        venueId: venue.id,
        courtId: court.id,
        total: 100000,
        date: daysFromFixedNow(3 + i),
      }),
    )
  }
  const pay = (id: number) =>
    app.inject({
      method: 'POST',
      url: '/api/payments/initiate',
      headers: user.headers,
      payload: { booking_id: id, method: 'wallet' },
    })
  assert.equal((await pay(bookings[0].id)).statusCode, 200)
  // A receipt allocated in a transaction that then fails (after the money step, as any later step could).
  const payment = (await numbersAt(venue.id))[0].payment_id
  await assert.rejects(
    app.ctx.db.transaction().execute(async (trx) => {
      const r = await issueReceipt(app.ctx, trx, payment)
      assert.equal(r?.sequence, 2)
      throw new Error('later step failed')
    }),
    /later step failed/,
  )
  assert.equal((await pay(bookings[1].id)).statusCode, 200)
  assert.deepEqual(
    (await numbersAt(venue.id)).map((r) => r.sequence),
    [1, 2],
  )
})
