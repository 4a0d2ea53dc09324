import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { build } from '../helpers/app.ts'
import { createCourt, createUser, createVenue } from '../helpers/factories.ts'
import { insertBooking } from '../payments/helpers.ts'

// Receipt numbers start again at 1 on Shrawan 1, the first day of a Nepali fiscal year:
// 17 July 2026 (AD) is Shrawan 1, 2083 (BS), the first day of fiscal year 2083/84
// (test/receipts/nepali-date.test.ts says where that comes from). Venue time: Asia/Kathmandu.

const clock = new ManualClock('2026-07-16T18:00:00+05:45')
let app: App
before(async () => {
  app = await build(undefined, {}, { clock })
})
after(() => app.close())

test('the numbering of receipts and credit notes starts again on Shrawan 1', async () => {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const venue = await createVenue(app, owner.id)
  const court = await createCourt(app, venue.id)
  const user = await createUser(app, { wallet: 500000 })
  const bookings = []
  for (let i = 0; i < 3; i++) {
    bookings.push(
      await insertBooking(app, {
        userId: user.id,
        venueId: venue.id,
        courtId: court.id,
        total: 100000,
        date: `2026-07-2${i + 2}`,
      }),
    )
  }
  const pay = async (id: number) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/payments/initiate',
      headers: user.headers,
      payload: { booking_id: id, method: 'wallet' },
    })
    assert.equal(res.statusCode, 200, res.body)
    return res.json().data.payment.id as number
  }
  const receipts = async (id: number) =>
    (await app.inject({ method: 'GET', url: `/api/bookings/${id}/receipts`, headers: user.headers })).json().data

  const first = await pay(bookings[0].id) // Ashad 32, 2083, 18:00
  clock.set('2026-07-16T23:59:59+05:45') // the fiscal year's last second
  await pay(bookings[1].id)
  clock.set('2026-07-17T00:00:00+05:45') // Shrawan 1, 2083
  await pay(bookings[2].id)
  const refund = await app.inject({
    method: 'POST',
    url: `/api/payments/${first}/refund`,
    headers: owner.headers,
    payload: { amount: '100.00' },
  })
  assert.equal(refund.statusCode, 200, refund.body)

  const [a] = await receipts(bookings[0].id)
  const [b] = await receipts(bookings[1].id)
  const [c] = await receipts(bookings[2].id)
  assert.deepEqual(
    [a, b, c].map((r) => [r.receipt_number, r.fiscal_year, r.issued_on, r.issued_on_bs]),
    [
      ['R-2082/83-000001', '2082/83', '2026-07-16', '2083-03-32'],
      ['R-2082/83-000002', '2082/83', '2026-07-16', '2083-03-32'],
      ['R-2083/84-000001', '2083/84', '2026-07-17', '2083-04-01'],
    ],
  )
  assert.equal(b.issued_at, '2026-07-16 23:59:59')
  assert.equal(c.issued_at, '2026-07-17 00:00:00')
  // A refund in the new year of a payment of the old one: the new year's first credit note.
  const credit = (await receipts(bookings[0].id))[1]
  assert.equal(credit.receipt_number, 'CN-2083/84-000001')
  assert.equal(credit.original_receipt.receipt_number, 'R-2082/83-000001')
})
