import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { invoiceLanguage } from '../../src/modules/receipts/language.ts'
import { amountInWords } from '../../src/modules/receipts/words.ts'
import { book, fixedSlot } from '../bookings/helpers.ts'
import { build } from '../helpers/app.ts'
import { createUser, FIXED_NOW } from '../helpers/factories.ts'
import { simulate } from '../payments/helpers.ts'
import { caller, paidBooking, pdfText, receiptsOf, taxWorld } from './helpers.ts'

// What an invoice says (issue 49): title, seller, buyer with PAN and address, lines of quantity ×
// rate, discounts and the platform coupon's share, VAT, amount in words, the original and its copies,
// the Nepali PDF; credit notes name the invoice and its date and what reached the customer.

let app: App
let call: ReturnType<typeof caller>
before(async () => {
  app = await build(undefined, {}, { clock: new ManualClock(FIXED_NOW) })
  call = caller(app)
})
after(() => app.close())

let day = 3
const pdf = (id: number, who: { headers: Record<string, string> }, headers: Record<string, string> = {}, query = '') =>
  call('GET', `/api/receipts/${id}${query}`, who, undefined, { accept: 'application/pdf', ...headers })

test('amounts in words, English and Nepali, in lakh and crore', () => {
  assert.equal(amountInWords(150000, 'en'), 'One Thousand Five Hundred Rupees Only')
  assert.equal(amountInWords(132743, 'en'), 'One Thousand Three Hundred Twenty-Seven Rupees and Forty-Three Paisa Only')
  assert.equal(
    amountInWords(12345678900, 'en'),
    'Twelve Crore Thirty-Four Lakh Fifty-Six Thousand Seven Hundred Eighty-Nine Rupees Only',
  )
  assert.equal(amountInWords(0, 'en'), 'Zero Rupees Only')
  assert.equal(amountInWords(150050, 'ne'), 'एक हजार पाँच सय रुपैयाँ पचास पैसा मात्र')
  assert.equal(amountInWords(9900000, 'ne'), 'उनान्सय हजार रुपैयाँ मात्र')
  assert.equal(amountInWords(25000000, 'ne'), 'दुई लाख पचास हजार रुपैयाँ मात्र')
})

test("the PDF language: ?lang first, else the language of the request's answers", () => {
  assert.equal(invoiceLanguage('ne', 'en'), 'ne')
  assert.equal(invoiceLanguage('en', 'ne'), 'en')
  assert.equal(invoiceLanguage(undefined, 'ne'), 'ne')
  assert.equal(invoiceLanguage(undefined, 'en'), 'en')
  assert.equal(invoiceLanguage('fr', 'en'), 'en')
})

test('a tax invoice: seller, buyer PAN and address from the profile, hours × rate, VAT, words, method, dates', async () => {
  const w = await taxWorld(app)
  const details = await call('PUT', '/api/profile/invoice-details', w.buyer, {
    buyer_pan: '123456789',
    buyer_address: 'Lalitpur-3',
  })
  assert.equal(details.statusCode, 200, details.body)
  assert.deepEqual(details.json().data, { buyer_pan: '123456789', buyer_address: 'Lalitpur-3' })
  assert.deepEqual((await call('GET', '/api/profile/invoice-details', w.buyer)).json().data, details.json().data)
  const { invoice: r } = await paidBooking(app, w, day++, { start: '10:00', end: '12:00' })
  assert.equal(r.title, 'Tax Invoice')
  assert.deepEqual(r.venue, {
    id: w.venue.id,
    legal_name: 'Baneshwor Futsal Pvt. Ltd.',
    address: 'Baneshwor, Kathmandu',
    pan_number: '601234567',
  })
  assert.equal(r.customer_name, 'Sita Sharma')
  assert.equal(r.buyer_pan, '123456789')
  assert.equal(r.buyer_address, 'Lalitpur-3')
  assert.equal(r.lines.length, 1)
  assert.deepEqual(
    { ...r.lines[0], description: undefined },
    {
      description: undefined,
      quantity: 2,
      unit: 'hour',
      rate: '1500.00',
      amount: '3000.00',
    },
  )
  assert.equal(r.total, '3000.00')
  assert.equal(r.taxable_amount, '2654.87')
  assert.equal(r.vat, '345.13')
  assert.equal(r.amount_in_words, 'Three Thousand Rupees Only')
  assert.equal(r.method_label, 'Courtside wallet')
  assert.equal(r.issued_on, '2026-03-10')
  assert.equal(r.issued_on_bs, '2082-11-26')
  assert.equal(r.print_count, 0)
  assert.equal(r.ird_sync, 'not_required')

  // The bad shapes are 422, never coerced.
  const bad = await call('PUT', '/api/profile/invoice-details', w.buyer, { buyer_pan: 123456789, buyer_address: null })
  assert.equal(bad.statusCode, 422)
  const short = await call('PUT', '/api/profile/invoice-details', w.buyer, { buyer_pan: '1234', buyer_address: null })
  assert.equal(short.statusCode, 422)
  assert.ok(short.json().errors.buyer_pan)
  assert.equal(
    (await call('PUT', '/api/profile/invoice-details', undefined, { buyer_pan: null, buyer_address: null })).statusCode,
    401,
  )

  const res = await pdf(r.id, w.buyer)
  assert.equal(res.statusCode, 200)
  const { pages, text } = await pdfText(res.rawPayload)
  assert.equal(pages, 1)
  for (const expected of [
    'Tax Invoice',
    'Baneshwor Futsal Pvt. Ltd.',
    'PAN/VAT No.: 601234567',
    r.receipt_number,
    '2082-11-26 BS',
    '2026-03-10 AD',
    'Sita Sharma',
    'Buyer PAN: 123456789',
    'Lalitpur-3',
    '1500.00',
    'hour',
    'NPR 2654.87',
    'NPR 345.13',
    'NPR 3000.00',
    'Three Thousand Rupees Only',
    'Courtside wallet',
  ]) {
    assert.ok(text.includes(expected), `"${expected}" is not in the PDF text: ${text}`)
  }
  assert.ok(!text.includes('TAX INVOICE / RECEIPT'))
  assert.ok(!text.includes('Copy of Original'), 'the first print is the original')
})

test('the first print is the original, each later one "Copy of Original (n)", every print recorded', async () => {
  const w = await taxWorld(app)
  const { invoice } = await paidBooking(app, w, day++)
  const first = await pdfText((await pdf(invoice.id, w.staff)).rawPayload)
  assert.ok(!first.text.includes('Copy of Original'))
  const second = await pdfText((await pdf(invoice.id, w.buyer)).rawPayload)
  assert.ok(second.text.includes('Copy of Original (1)'), second.text)
  const third = await pdfText((await pdf(invoice.id, w.owner)).rawPayload)
  assert.ok(third.text.includes('Copy of Original (2)'), third.text)
  const json = (await call('GET', `/api/receipts/${invoice.id}`, w.buyer)).json().data
  assert.equal(json.print_count, 3)
  const prints = await app.ctx.db
    .selectFrom('receipt_prints')
    .select(['copy_number', 'printed_by'])
    .where('receipt_id', '=', invoice.id)
    .orderBy('copy_number')
    .execute()
  assert.deepEqual(
    prints.map((p) => [p.copy_number, Number(p.printed_by)]),
    [
      [0, w.staff.id],
      [1, w.buyer.id],
      [2, w.owner.id],
    ],
  )
  // Prints are kept: never changed or removed.
  await assert.rejects(
    app.ctx.db.deleteFrom('receipt_prints').where('receipt_id', '=', invoice.id).execute(),
    /append-only/,
  )
})

test('two prints at once take the original and copy 1, never the same number', async () => {
  const w = await taxWorld(app)
  const { invoice } = await paidBooking(app, w, day++)
  const both = await Promise.all([pdf(invoice.id, w.staff), pdf(invoice.id, w.manager)])
  for (const res of both) assert.equal(res.statusCode, 200, res.body)
  const marks = await Promise.all(
    both.map(async (res) => (await pdfText(res.rawPayload)).text.includes('Copy of Original (1)')),
  )
  assert.deepEqual(marks.sort(), [false, true])
})

test('the desk adds the buyer PAN and address before the first print; 409 after, 403 for others, 422 on bad shapes', async () => {
  const w = await taxWorld(app)
  const { invoice } = await paidBooking(app, w, day++)
  const url = `/api/receipts/${invoice.id}/buyer`
  const body = { buyer_pan: '987654321', buyer_address: 'Bhaktapur' }
  assert.equal((await call('PUT', url, w.buyer, body)).statusCode, 403)
  const stranger = await createUser(app, { roles: ['venue_owner'] })
  assert.equal((await call('PUT', url, stranger, body)).statusCode, 403)
  assert.equal((await call('PUT', url, undefined, body)).statusCode, 401)
  assert.equal((await call('PUT', '/api/receipts/999999999/buyer', w.staff, body)).statusCode, 404)
  const bad = await call('PUT', url, w.staff, { buyer_pan: '98765', buyer_address: 'x' })
  assert.equal(bad.statusCode, 422)
  assert.ok(bad.json().errors.buyer_pan)
  assert.equal((await call('PUT', url, w.staff, { buyer_pan: 987654321, buyer_address: 'x' })).statusCode, 422)
  const set = await call('PUT', url, w.staff, body)
  assert.equal(set.statusCode, 200, set.body)
  assert.equal(set.json().data.buyer_pan, '987654321')
  assert.equal(set.json().data.buyer_address, 'Bhaktapur')
  const printed = await pdfText((await pdf(invoice.id, w.staff)).rawPayload)
  assert.ok(printed.text.includes('987654321'))
  assert.ok(printed.text.includes('Bhaktapur'))
  const late = await call('PUT', url, w.manager, { buyer_pan: '111111111', buyer_address: null })
  assert.equal(late.statusCode, 409)
  assert.deepEqual(late.json(), { message: 'This invoice has been printed: its buyer details can no longer change.' })
})

test('a venue with a PAN and no VAT prints "Invoice" and no VAT; a venue without a PAN prints no PAN at all', async () => {
  const panOnly = await taxWorld(app, { vat: false })
  const { invoice: a } = await paidBooking(app, panOnly, day++)
  assert.equal(a.title, 'Invoice')
  assert.equal(a.vat, null)
  const textA = (await pdfText((await pdf(a.id, panOnly.buyer)).rawPayload)).text
  assert.ok(textA.includes('Invoice'))
  assert.ok(!textA.includes('Tax Invoice'))
  assert.ok(textA.includes('PAN: 601234567'))
  const none = await taxWorld(app, { vat: false, pan: null })
  const { invoice: b } = await paidBooking(app, none, day++)
  assert.equal(b.title, 'Invoice')
  assert.equal(b.venue.pan_number, null)
  const textB = (await pdfText((await pdf(b.id, none.buyer)).rawPayload)).text
  assert.ok(!textB.includes('PAN'), textB)
  assert.ok(!/not registered/.test(textB), textB)
})

test("the Nepali PDF: a Devanagari name renders, Nepali title and words; ?lang=ne or the account's language", async () => {
  const w = await taxWorld(app, { customerName: 'राम बहादुर श्रेष्ठ' })
  const { invoice } = await paidBooking(app, w, day++)
  assert.equal(invoice.customer_name, 'राम बहादुर श्रेष्ठ')
  const byQuery = await pdfText((await pdf(invoice.id, w.buyer, {}, '?lang=ne')).rawPayload)
  for (const expected of [
    'राम बहादुर श्रेष्ठ',
    'कर बीजक',
    'एक हजार पाँच सय',
    'One Thousand Five Hundred Rupees Only',
    invoice.receipt_number,
  ]) {
    assert.ok(byQuery.text.includes(expected), `"${expected}" is not in the PDF text: ${byQuery.text}`)
  }
  // A signed-in user's own language wins over the browser's Accept-Language (lib/i18n/locale.ts).
  const byHeader = await pdfText((await pdf(invoice.id, w.buyer, { 'accept-language': 'ne' })).rawPayload)
  assert.ok(!byHeader.text.includes('कर बीजक'), 'the account is in English')
  // A customer whose profile is in Nepali gets the Nepali PDF without asking.
  const set = await call('PUT', '/api/profile', w.buyer, { locale: 'ne' })
  assert.equal(set.statusCode, 200, set.body)
  const byProfile = await pdfText((await pdf(invoice.id, w.buyer)).rawPayload)
  assert.ok(byProfile.text.includes('कर बीजक'), byProfile.text)
  assert.equal((await call('PUT', '/api/profile', w.buyer, { locale: 'en' })).statusCode, 200)
  // The English PDF still shows the Devanagari name.
  const english = await pdfText((await pdf(invoice.id, w.buyer)).rawPayload)
  assert.ok(english.text.includes('राम बहादुर श्रेष्ठ'))
  assert.ok(!english.text.includes('कर बीजक'))
  assert.equal((await pdf(invoice.id, w.buyer, {}, '?lang=fr')).statusCode, 422)
})

test("a platform coupon's share is in the venue's invoice; a venue coupon is a discount line", async () => {
  const admin = await createUser(app, { roles: ['super_admin'] })
  const w = await taxWorld(app)
  const made = await call('POST', '/api/admin/coupons', admin, {
    code: 'INV200',
    type: 'fixed',
    value: 200,
    is_active: true,
  })
  assert.equal(made.statusCode, 201, made.body)
  const { invoice: p } = await paidBooking(app, w, day++, { extra: { coupon_code: 'INV200' } })
  assert.equal(p.total, '1500.00')
  assert.equal(p.customer_paid, '1300.00')
  assert.equal(p.platform_share, '200.00')
  assert.equal(p.taxable_amount, '1327.43')
  assert.deepEqual(
    p.lines.map((l) => l.amount),
    ['1500.00'],
  )
  const text = (await pdfText((await pdf(p.id, w.buyer)).rawPayload)).text
  assert.ok(text.includes('NPR 1300.00') && text.includes('NPR 200.00'), text)

  const own = await call('POST', `/api/venues/${w.venue.id}/coupons`, w.owner, {
    code: 'OWN200',
    type: 'fixed',
    value: 200,
    is_active: true,
  })
  assert.equal(own.statusCode, 201, own.body)
  const { invoice: v } = await paidBooking(app, w, day++, { extra: { coupon_code: 'OWN200' } })
  assert.equal(v.total, '1300.00')
  assert.equal(v.platform_share, '0.00')
  assert.equal(v.discount_amount, '200.00')
  assert.deepEqual(
    v.lines.map((l) => [l.unit, l.quantity, l.rate, l.amount]),
    [
      ['hour', 1, '1500.00', '1500.00'],
      ['discount', 1, '-200.00', '-200.00'],
    ],
  )
})

test('a part payment is one line towards the booking; the credit note names the invoice, its date and reason', async () => {
  const w = await taxWorld(app)
  const booked = (await book(app, w.customer, fixedSlot(w.court.id, day++))).json().data
  const paid = await call('POST', `/api/bookings/${booked.id}/payments`, w.staff, { method: 'cash', amount: '500.00' })
  assert.equal(paid.statusCode, 201, paid.body)
  const [part] = await receiptsOf(app, w, booked.id)
  assert.deepEqual(
    part.lines.map((l) => [l.unit, l.amount]),
    [['payment', '500.00']],
  )
  assert.match(part.lines[0].description, /^Payment towards Court booking /)
  const refund = await call('POST', `/api/payments/${part.payment_id}/refund`, w.owner, {
    amount: '200.00',
    reason: 'Rain',
  })
  assert.equal(refund.statusCode, 200, refund.body)
  const cn = (await receiptsOf(app, w, booked.id))[1]
  assert.equal(cn.title, 'Credit Note')
  assert.deepEqual(cn.original_receipt, {
    id: part.id,
    receipt_number: part.receipt_number,
    issued_on: part.issued_on,
    issued_on_bs: part.issued_on_bs,
  })
  assert.equal(cn.reason, 'Rain')
  assert.equal(cn.total, '200.00')
  assert.equal(cn.refunded_amount, '200.00')
  assert.equal(cn.refunded_to, 'desk')
  const text = (await pdfText((await pdf(cn.id, w.owner)).rawPayload)).text
  for (const expected of [
    'Credit Note',
    part.receipt_number,
    `Invoice date: ${part.issued_on_bs} BS`,
    'Reason: Rain',
    'Two Hundred Rupees Only',
  ]) {
    assert.ok(text.includes(expected), `"${expected}" is not in the PDF text: ${text}`)
  }
})

test('a Fonepay payment with a promotion: the cancel message and the credit note say what reached the wallet', async () => {
  const w = await taxWorld(app, { price: 110000, wallet: 0 })
  const booked = (await book(app, w.customer, fixedSlot(w.court.id, day++))).json().data
  const start = await call('POST', '/api/payments/initiate', w.customer, { booking_id: booked.id, method: 'gateway_3' })
  assert.equal(start.statusCode, 201, start.body)
  assert.equal(
    (await app.inject({ method: 'GET', url: await simulate(app, start.json().data.payment_url, 'success') }))
      .statusCode,
    200,
  )
  // Fonepay said the customer paid 990.00 of the 1,100.00 (P_AMT), as the settle path records it.
  await app.ctx.db
    .updateTable('payments')
    .set({ paid_amount: 99000 })
    .where('id', '=', start.json().data.payment.id)
    .execute()
  const preview = await call('GET', `/api/bookings/${booked.id}/cancellation`, w.customer)
  assert.equal(preview.json().data.refund_amount, '990.00')
  const cancel = await call('PATCH', `/api/bookings/${booked.id}/cancel`, w.customer, {})
  assert.equal(cancel.statusCode, 200, cancel.body)
  assert.equal(cancel.json().message, 'Booking cancelled. Rs 990.00 refunded to your wallet.')
  assert.equal(cancel.json().refund_amount, '990.00')
  const [, cn] = await receiptsOf(app, w, booked.id)
  assert.equal(cn.total, '1100.00') // the sale reversed
  assert.equal(cn.refunded_amount, '990.00') // what reached the customer
  assert.equal(cn.refunded_to, 'wallet')
  const text = (await pdfText((await pdf(cn.id, w.buyer)).rawPayload)).text
  assert.ok(text.includes('Refunded to the customer') && text.includes('NPR 990.00'), text)
  const wallet = await app.ctx.db
    .selectFrom('users')
    .select('wallet_balance')
    .where('id', '=', w.buyer.id)
    .executeTakeFirstOrThrow()
  assert.equal(Number(wallet.wallet_balance), 99000)
})
