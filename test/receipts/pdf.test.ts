import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { book, fixedSlot, world } from '../bookings/helpers.ts'
import { build } from '../helpers/app.ts'
import { FIXED_NOW } from '../helpers/factories.ts'
import { pdfText as pdfTextOf } from './helpers.ts'

// GET /api/receipts/{receipt} with Accept: application/pdf: a one-page PDF, read back with pdf.js.

let app: App
before(async () => {
  app = await build(undefined, {}, { clock: new ManualClock(FIXED_NOW) })
})
after(() => app.close())

/** The PDF's text with its items spaced apart. */
const pdfText = (bytes: Buffer) => pdfTextOf(bytes, ' ')

test('the receipt as a one-page PDF carries its number, the PAN, the dates, the VAT and the total', async () => {
  const w = await world(app, { wallet: 150000 })
  const set = await app.inject({
    method: 'PATCH',
    url: `/api/venues/${w.venue.id}`,
    headers: w.owner.headers,
    payload: { pan_number: '601234567', vat_registered: true, legal_name: 'Kathmandu Futsal Pvt. Ltd.' },
  })
  assert.equal(set.statusCode, 200, set.body)
  const booking = (await book(app, w.customer, fixedSlot(w.court.id, 4))).json().data
  await app.inject({
    method: 'POST',
    url: '/api/payments/initiate',
    headers: w.customer.headers,
    payload: { booking_id: booking.id, method: 'wallet' },
  })
  const list = await app.inject({
    method: 'GET',
    url: `/api/bookings/${booking.id}/receipts`,
    headers: w.customer.headers,
  })
  const receipt = list.json().data[0]

  const res = await app.inject({
    method: 'GET',
    url: `/api/receipts/${receipt.id}`,
    headers: { ...w.customer.headers, accept: 'application/pdf' },
  })
  assert.equal(res.statusCode, 200)
  assert.match(res.headers['content-type'] as string, /^application\/pdf/)
  assert.equal(res.rawPayload.subarray(0, 5).toString(), '%PDF-')
  const { pages, text } = await pdfText(res.rawPayload)
  assert.equal(pages, 1)
  for (const expected of [
    receipt.receipt_number,
    '601234567',
    'Kathmandu Futsal Pvt. Ltd.',
    'NPR 1500.00',
    'NPR 1327.43',
    'NPR 172.57',
    receipt.issued_on_bs,
    booking.booking_number,
  ]) {
    assert.ok(text.includes(expected), `"${expected}" is not in the PDF text: ${text}`)
  }

  // JSON stays the default; a client preferring JSON gets JSON.
  const json = await app.inject({
    method: 'GET',
    url: `/api/receipts/${receipt.id}`,
    headers: { ...w.customer.headers, accept: 'application/json, application/pdf;q=0.5' },
  })
  assert.equal(json.json().data.receipt_number, receipt.receipt_number)
})
