import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { columnName, header } from '../../src/lib/csv.ts'
import { methodName } from '../../src/lib/payment-methods.ts'
import { STATEMENT_COLUMNS } from '../../src/modules/payouts/service.ts'
import { BOOKING_COLUMNS, PAYMENT_COLUMNS } from '../../src/modules/reports/exports.ts'
import { book, fixedSlot, type World, world } from '../bookings/helpers.ts'
import { build } from '../helpers/app.ts'
import { daysFromFixedNow, FIXED_NOW, type TestUser } from '../helpers/factories.ts'

// The owner's CSV files in the reader's language (issue 50; docs/languages.md, "CSV files"): the
// header row (and the words among the cells: the payment method's name, the statement's opening
// balance, the book's totals row) in Nepali for a Nepali reader; an English reader's file byte for
// byte as it was. The codes, amounts, dates and the byte-order mark are the same in both.

let app: App
let w: World
let nepali: TestUser
const today = daysFromFixedNow(0)
before(async () => {
  app = await build(undefined, {}, { clock: new ManualClock(FIXED_NOW) })
  w = await world(app, { wallet: 1_000_000 })
  // The owner reads Nepali; the manager English.
  nepali = w.owner
  const set = await app.inject({
    method: 'PUT',
    url: '/api/profile',
    headers: nepali.headers,
    payload: { locale: 'ne' },
  })
  assert.equal(set.statusCode, 200, set.body)
  // A booking paid from the wallet (which leaves the booking's payment_method empty), one paid in
  // cash at the desk.
  const online = (await book(app, w.customer, fixedSlot(w.court.id, 1))).json().data
  const paid = await app.inject({
    method: 'POST',
    url: '/api/payments/initiate',
    headers: w.customer.headers,
    payload: { booking_type: 'court', booking_id: online.id, method: 'wallet' },
  })
  assert.equal(paid.statusCode, 200, paid.body)
  // The second is to be paid at the venue (its payment_method "cash"), then paid at the desk.
  const desk = (await book(app, w.customer, fixedSlot(w.court.id, 2))).json().data
  const intent = await app.inject({
    method: 'POST',
    url: '/api/payments/initiate',
    headers: w.customer.headers,
    payload: { booking_type: 'court', booking_id: desk.id, method: 'cash' },
  })
  assert.equal(intent.statusCode, 200, intent.body)
  const cash = await app.inject({
    method: 'POST',
    url: `/api/bookings/${desk.id}/payments`,
    headers: w.staff.headers,
    payload: { method: 'cash', amount: '1500.00' },
  })
  assert.equal(cash.statusCode, 201, cash.body)
})
after(() => app.close())

const get = (url: string, user: TestUser, headers: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url, headers: { ...user.headers, ...headers } })

/** The file's lines (CRLF or LF), after checking and removing the byte-order mark when `bom`. */
function lines(res: Awaited<ReturnType<typeof get>>, bom: boolean): string[] {
  assert.equal(res.statusCode, 200, res.body)
  assert.match(String(res.headers['content-type']), /^text\/csv/)
  const head = [...res.rawPayload.subarray(0, 3)]
  if (bom) assert.deepEqual(head, [0xef, 0xbb, 0xbf], 'UTF-8 with a byte-order mark')
  else assert.notDeepEqual(head, [0xef, 0xbb, 0xbf])
  return res.rawPayload
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .filter((l) => l !== '')
}

const NEPALI_BOOKING_HEADER =
  'बुकिङ नम्बर,किसिम,मिति,मिति (वि.सं.),सुरु समय,अन्त्य समय,कोर्ट वा खेल,अवस्था,प्रकार,ग्राहकको नाम,ग्राहकको फोन,' +
  'ग्राहकको इमेल,जम्मा रकम,छुट,थप सामानको जम्मा,तिरिएको रकम,फिर्ता गरिएको रकम,तिर्न बाँकी,भुक्तानी विधिको कोड,' +
  'भुक्तानी विधि,बुक गरिएको समय,रद्द गरिएको समय,रद्दको कारण'

test('bookings.csv: a Nepali header and method names for a Nepali owner; the English file as it was', async () => {
  const url = `/api/venues/${w.venue.id}/reports/bookings.csv?from=${today}&to=${daysFromFixedNow(3)}`
  const english = lines(await get(url, w.manager), true)
  assert.equal(english[0], BOOKING_COLUMNS.join(','))
  // An account's stored language wins over the header (docs/languages.md): English for the manager.
  const asked = await get(url, w.manager, { 'accept-language': 'ne' })
  assert.equal(asked.body, (await get(url, w.manager)).body)
  const ne = lines(await get(url, nepali), true)
  assert.equal(ne[0], NEPALI_BOOKING_HEADER)
  assert.equal(ne[0].split(',').length, BOOKING_COLUMNS.length)
  assert.equal(ne.length, english.length)
  const method = BOOKING_COLUMNS.indexOf('payment_method')
  const name = BOOKING_COLUMNS.indexOf('payment_method_name')
  const rows = (file: string[]) => file.slice(1).map((l) => l.split(','))
  assert.deepEqual(
    rows(english).map((r) => [r[method], r[name]]),
    [
      ['', ''],
      ['cash', 'Cash'],
    ],
  )
  // The code stays the code; the name is Nepali.
  assert.deepEqual(
    rows(ne).map((r) => [r[method], r[name]]),
    [
      ['', ''],
      ['cash', 'नगद'],
    ],
  )
  // Every other cell is the same in both files.
  const others = (r: string[]) => r.filter((_, i) => i !== name)
  assert.deepEqual(rows(ne).map(others), rows(english).map(others))
})

test('payments.csv: the Nepali header; amounts, codes and dates unchanged', async () => {
  const url = `/api/venues/${w.venue.id}/reports/payments.csv?from=${today}&to=${today}`
  const english = lines(await get(url, w.manager), true)
  assert.equal(english[0], PAYMENT_COLUMNS.join(','))
  const ne = lines(await get(url, nepali), true)
  assert.equal(
    ne[0],
    'भुक्तानी नम्बर,प्राप्त समय,प्राप्त मिति (वि.सं.),बुकिङ नम्बर,किसिम,ग्राहकको नाम,विधिको कोड,भुक्तानी विधि,' +
      'डेस्कमा लिने,अवस्था,रकम,फिर्ता गरिएको रकम,खुद रकम,सन्दर्भ,गेटवे कारोबार नम्बर,अप्रमाणित',
  )
  const name = PAYMENT_COLUMNS.indexOf('method_name')
  const cells = (file: string[]) => file.slice(1).map((l) => l.split(','))
  assert.deepEqual(
    cells(english)
      .map((r) => r[name])
      .sort(),
    ['Cash', 'Wallet'],
  )
  assert.deepEqual(
    cells(ne)
      .map((r) => r[name])
      .sort(),
    ['नगद', 'वालेट'],
  )
  const amount = PAYMENT_COLUMNS.indexOf('amount')
  assert.deepEqual(
    cells(ne).map((r) => r[amount]),
    cells(english).map((r) => r[amount]),
  )
})

test('the statement CSV: Nepali header and opening-balance words; the English header and row as they were', async () => {
  const url = `/api/venues/${w.venue.id}/statement?from=${today}&to=${today}`
  const english = lines(await get(url, w.manager, { accept: 'text/csv' }), true)
  assert.equal(english[0], 'date,date_bs,booking_number,kind,description,amount,balance_after')
  assert.equal(english[0], STATEMENT_COLUMNS.join(','))
  assert.match(english[1], /^2026-03-10,2082-11-26,,opening_balance,Opening balance,,-?\d+\.\d{2}$/)
  const ne = lines(await get(url, nepali, { accept: 'text/csv' }), true)
  assert.equal(ne[0], 'मिति,मिति (वि.सं.),बुकिङ नम्बर,किसिम,विवरण,रकम,पछिको मौज्दात')
  assert.equal(ne[1], english[1].replace('Opening balance', 'सुरुको मौज्दात'))
  assert.deepEqual(ne.slice(2), english.slice(2))
})

test('the sales book CSV: Nepali columns and totals word for a Nepali owner; the English header unchanged', async () => {
  const url = `/api/venues/${w.venue.id}/sales-book?fiscal_year=2082/83&month=11`
  // Written like every export: with a byte-order mark.
  const english = lines(await get(url, w.manager, { accept: 'text/csv' }), true)
  assert.equal(english[0], 'date_bs,number,buyer_name,buyer_pan,total,non_taxable,taxable,vat')
  assert.match(english.at(-1)!, /^Total,,,,/)
  const ne = lines(await get(url, nepali, { accept: 'text/csv' }), true)
  assert.equal(ne[0], 'मिति (वि.सं.),नम्बर,खरिदकर्ताको नाम,खरिदकर्ताको प्यान,जम्मा,कर नलाग्ने रकम,करयोग्य रकम,मूल्य अभिवृद्धि कर')
  assert.equal(ne.at(-1), english.at(-1)!.replace(/^Total/, 'जम्मा'))
  const returns = `/api/venues/${w.venue.id}/sales-return-book?fiscal_year=2082/83&month=11`
  const neReturns = lines(await get(returns, nepali, { accept: 'text/csv' }), true)
  assert.match(neReturns[0], /^मिति \(वि\.सं\.\),नम्बर,सम्बन्धित बीजक नम्बर,/)
})

test('an English reader: header() and methodName() are the English ones; a column the catalogue lacks keeps its name', () => {
  assert.equal(header(['a', 'date']), '\uFEFFa,date\r\n')
  assert.equal(header(['date', 'no_such_column'], 'ne'), '\uFEFFमिति,no_such_column\r\n')
  assert.equal(columnName('date_bs', 'en'), 'date_bs')
  assert.equal(methodName('gateway_1'), 'eSewa')
  assert.equal(methodName('gateway_1', 'ne'), 'eSewa')
  assert.equal(methodName('gateway_2', 'ne'), 'Khalti')
  assert.equal(methodName('gateway_3', 'ne'), 'Fonepay')
  assert.equal(methodName('cash', 'ne'), 'नगद')
  assert.equal(methodName('wallet', 'ne'), 'वालेट')
  assert.equal(methodName('bank_transfer', 'ne'), 'bank_transfer')
  assert.equal(methodName(null, 'ne'), '')
})
