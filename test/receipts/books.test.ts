import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { bsMonthOf } from '../../src/modules/receipts/books.ts'
import { book, fixedSlot } from '../bookings/helpers.ts'
import { build } from '../helpers/app.ts'
import { createUser, FIXED_NOW } from '../helpers/factories.ts'
import { caller, paidBooking, pdfText, receiptsOf, taxWorld } from './helpers.ts'

// The sales book, the sales-return book and the invoice register (issue 49). The app's clock stands
// at FIXED_NOW: 10 March 2026 is 2082-11-26 BS, month 11 (Falgun) of fiscal year 2082/83.

let app: App
let call: ReturnType<typeof caller>
before(async () => {
  app = await build(undefined, {}, { clock: new ManualClock(FIXED_NOW) })
  call = caller(app)
})
after(() => app.close())

let day = 3
const month = '?fiscal_year=2082/83&month=11'

test('a BS month of a fiscal year: Shrawan–Chaitra in its first year, Baishakh–Asar in the next', () => {
  assert.equal(bsMonthOf('2083/84', 8), '2083-08')
  assert.equal(bsMonthOf('2083/84', 4), '2083-04')
  assert.equal(bsMonthOf('2083/84', 3), '2084-03')
})

test('the sales book and sales-return book of a month add up to the ledger; JSON, CSV and PDF', async () => {
  const w = await taxWorld(app)
  await call('PUT', '/api/profile/invoice-details', w.buyer, { buyer_pan: '123456789', buyer_address: null })
  const a = await paidBooking(app, w, day++)
  const b = await paidBooking(app, w, day++, { start: '10:00', end: '12:00' })
  const desk = (await book(app, w.customer, fixedSlot(w.court.id, day++))).json().data
  const cash = await call('POST', `/api/bookings/${desk.id}/payments`, w.staff, { method: 'cash', amount: '1500.00' })
  assert.equal(cash.statusCode, 201, cash.body)
  // A partial refund and a cancellation: credit notes.
  assert.equal(
    (await call('POST', `/api/payments/${a.paymentId}/refund`, w.owner, { amount: '300.00', reason: 'Lights' }))
      .statusCode,
    200,
  )
  assert.equal((await call('PATCH', `/api/bookings/${b.booking.id}/cancel`, w.customer, {})).statusCode, 200)

  const sales = await call('GET', `/api/venues/${w.venue.id}/sales-book${month}`, w.manager)
  assert.equal(sales.statusCode, 200, sales.body)
  const s = sales.json().data
  assert.equal(s.bs_month, '2082-11')
  assert.deepEqual(
    s.rows.map((r: { number: string; buyer_pan: string | null; total: string }) => [r.number, r.buyer_pan, r.total]),
    [
      [a.invoice.receipt_number, '123456789', '1500.00'],
      [b.invoice.receipt_number, '123456789', '3000.00'],
      [(await receiptsOf(app, w, desk.id))[0].receipt_number, '123456789', '1500.00'],
    ],
  )
  assert.deepEqual(s.rows[0], {
    date_bs: '2082-11-26',
    date_ad: '2026-03-10',
    number: a.invoice.receipt_number,
    buyer_name: 'Sita Sharma',
    buyer_pan: '123456789',
    ref_number: null,
    total: '1500.00',
    non_taxable: '0.00',
    taxable: '1327.43',
    vat: '172.57',
  })
  assert.deepEqual(s.totals, { total: '6000.00', non_taxable: '0.00', taxable: '5309.73', vat: '690.27' })

  const returns = (await call('GET', `/api/venues/${w.venue.id}/sales-return-book${month}`, w.owner)).json().data
  assert.deepEqual(
    returns.rows.map((r: { ref_number: string; total: string }) => [r.ref_number, r.total]),
    [
      [a.invoice.receipt_number, '300.00'],
      [b.invoice.receipt_number, '3000.00'],
    ],
  )
  assert.equal(returns.totals.total, '3300.00')

  // The month's sales less its returns are what the ledger says the venue took, online and at the desk.
  const st = (await call('GET', `/api/venues/${w.venue.id}/statement?from=2026-03-10&to=2026-03-10`, w.owner)).json()
    .data
  const ledgerNet = Number(st.online_gross) + Number(st.desk_gross) - Number(st.refunds) - Number(st.desk_refunds)
  assert.equal(Number(s.totals.total) - Number(returns.totals.total), ledgerNet)
  // And the VAT adds up: taxable + VAT = total.
  assert.equal((Number(s.totals.taxable) * 100 + Number(s.totals.vat) * 100) / 100, Number(s.totals.total))

  const csv = await call('GET', `/api/venues/${w.venue.id}/sales-book${month}`, w.owner, undefined, {
    accept: 'text/csv',
  })
  assert.equal(csv.statusCode, 200)
  assert.match(csv.headers['content-type'] as string, /^text\/csv/)
  // Written like every export: a byte-order mark (Excel reads Devanagari names right) and CRLF.
  assert.ok(csv.body.startsWith('\uFEFF'), 'the book starts with a byte-order mark')
  assert.ok(csv.body.endsWith('\r\n'))
  const lines = csv.body.slice(1).trim().split('\r\n')
  assert.equal(lines[0], 'date_bs,number,buyer_name,buyer_pan,total,non_taxable,taxable,vat')
  assert.equal(lines[1], `2082-11-26,${a.invoice.receipt_number},Sita Sharma,123456789,1500.00,0.00,1327.43,172.57`)
  assert.equal(lines.at(-1), 'Total,,,,6000.00,0.00,5309.73,690.27')
  const returnCsv = await call('GET', `/api/venues/${w.venue.id}/sales-return-book${month}`, w.owner, undefined, {
    accept: 'text/csv',
  })
  assert.match(returnCsv.body.split('\r\n')[0], /^\uFEFFdate_bs,number,ref_invoice_number,/)

  const pdf = await call('GET', `/api/venues/${w.venue.id}/sales-book${month}`, w.owner, undefined, {
    accept: 'application/pdf',
  })
  assert.equal(pdf.statusCode, 200)
  const { text } = await pdfText(pdf.rawPayload)
  for (const expected of [
    'Sales book',
    'Baneshwor Futsal Pvt. Ltd.',
    a.invoice.receipt_number,
    '6000.00',
    '690.27',
    'Buyer PAN',
  ]) {
    assert.ok(text.includes(expected), `"${expected}" is not in the PDF text: ${text}`)
  }
})

test('the books: who may read them, and the query validated', async () => {
  const w = await taxWorld(app)
  const url = `/api/venues/${w.venue.id}/sales-book`
  for (const who of [w.staff, w.customer, await createUser(app, { roles: ['venue_owner'] })]) {
    assert.equal((await call('GET', `${url}${month}`, who)).statusCode, 403)
  }
  assert.equal((await call('GET', `${url}${month}`, undefined)).statusCode, 401)
  const admin = await createUser(app, { roles: ['super_admin'] })
  assert.equal((await call('GET', `${url}${month}`, admin)).statusCode, 200)
  for (const q of [
    '?fiscal_year=2082&month=11',
    '?fiscal_year=2082/83&month=13',
    '?fiscal_year=2082/83',
    '?month=11',
  ]) {
    const res = await call('GET', `${url}${q}`, w.owner)
    assert.equal(res.statusCode, 422, `${q}: ${res.body}`)
  }
  const empty = (await call('GET', `${url}?fiscal_year=2082/83&month=4`, w.owner)).json().data
  assert.deepEqual(empty.rows, [])
  assert.deepEqual(empty.totals, { total: '0.00', non_taxable: '0.00', taxable: '0.00', vat: '0.00' })
  assert.equal((await call('GET', `/api/venues/999999999/invoices?fiscal_year=2082/83`, w.owner)).statusCode, 404)
})

test("the invoice register: the directive's columns, printed by and when, active until fully credited", async () => {
  const w = await taxWorld(app, { vat: false })
  const a = await paidBooking(app, w, day++)
  const desk = (await book(app, w.customer, fixedSlot(w.court.id, day++))).json().data
  await call('POST', `/api/bookings/${desk.id}/payments`, w.staff, { method: 'cash', amount: '1500.00' })
  await call('GET', `/api/receipts/${a.invoice.id}`, w.staff, undefined, { accept: 'application/pdf' })
  await call('GET', `/api/receipts/${a.invoice.id}`, w.buyer, undefined, { accept: 'application/pdf' })
  assert.equal((await call('PATCH', `/api/bookings/${a.booking.id}/cancel`, w.customer, {})).statusCode, 200)
  const res = await call('GET', `/api/venues/${w.venue.id}/invoices?fiscal_year=2082/83`, w.manager)
  assert.equal(res.statusCode, 200, res.body)
  const rows = res.json().data
  assert.deepEqual(
    rows.map((r: { type: string; active: boolean }) => [r.type, r.active]),
    [
      ['receipt', false],
      ['receipt', true],
      ['credit_note', true],
    ],
  )
  const [first, second] = rows
  assert.deepEqual(
    { ...first, printed_time: undefined },
    {
      fiscal_year: '2082/83',
      number: a.invoice.receipt_number,
      type: 'receipt',
      customer: 'Sita Sharma',
      pan: null,
      date_bs: '2082-11-26',
      date_ad: '2026-03-10',
      amount: '1500.00',
      discount: '0.00',
      taxable: '0.00',
      tax: '0.00',
      total: '1500.00',
      synced_with_ird: false,
      ird_sync: 'not_required',
      printed: true,
      print_count: 2,
      active: false,
      printed_time: undefined,
      entered_by: 'Online (system)',
      printed_by: first.printed_by,
      realtime: false,
      payment_method: 'Courtside wallet',
      transaction_id: first.transaction_id,
    },
  )
  assert.equal(first.printed_time, '2026-03-10 09:00:00')
  const staffName = await app.ctx.db
    .selectFrom('users')
    .select('name')
    .where('id', '=', w.staff.id)
    .executeTakeFirstOrThrow()
  assert.equal(first.printed_by, staffName.name)
  assert.equal(second.entered_by, staffName.name)
  assert.equal(second.payment_method, 'Cash')
  assert.equal(second.printed, false)
  const month11 = await call('GET', `/api/venues/${w.venue.id}/invoices?fiscal_year=2082/83&month=11`, w.owner)
  assert.equal(month11.json().data.length, 3)
  const month10 = await call('GET', `/api/venues/${w.venue.id}/invoices?fiscal_year=2082/83&month=10`, w.owner)
  assert.deepEqual(month10.json().data, [])
  assert.equal((await call('GET', `/api/venues/${w.venue.id}/invoices?fiscal_year=2082/83`, w.staff)).statusCode, 403)
})
