import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { amountInWords } from '../../src/modules/receipts/words.ts'
import { book, fixedSlot } from '../bookings/helpers.ts'
import { build } from '../helpers/app.ts'
import { createUser, createVenue, FIXED_NOW } from '../helpers/factories.ts'
import { caller, paidBooking, pdfText, taxWorld } from '../receipts/helpers.ts'

// GET /api/venues/{venue}/commission-invoices/{id}/pdf: the platform's monthly commission invoice to
// a venue as a one-page PDF, read back with pdf.js (docs/payments.md, "The platform's VAT on
// commission"). The clock starts at FIXED_NOW, 10 March 2026 (2082-11-26 BS, Falgun); the invoice of
// Falgun is issued on 20 March 2026 (2082-12-06 BS).

let app: App
let clock: ManualClock
let call: ReturnType<typeof caller>
before(async () => {
  clock = new ManualClock(FIXED_NOW)
  app = await build(
    undefined,
    { PLATFORM_COMMISSION_PERCENT: '10', PLATFORM_PAN: '600000001', PLATFORM_LEGAL_NAME: 'Courtside Nepal Pvt. Ltd.' },
    { clock },
  )
  call = caller(app)
})
after(() => app.close())

const pdf = (venue: number | string, id: number | string, who: Parameters<typeof call>[2], query = '') =>
  call('GET', `/api/venues/${venue}/commission-invoices/${id}/pdf${query}`, who)

test("a month's commission invoice as a PDF: Tax Invoice from the platform to the venue, lines, VAT, words, copies", async () => {
  const w = await taxWorld(app)
  const admin = await createUser(app, { roles: ['super_admin'] })
  const rate = await call('PATCH', `/api/admin/venues/${w.venue.id}/commission`, admin, {
    percent: 10,
    desk_percent: 5,
  })
  assert.equal(rate.statusCode, 200, rate.body)
  // Online: 1,500.00 from the wallet → 150.00 commission. Desk: 1,500.00 cash → 75.00.
  await paidBooking(app, w, 3)
  const desk = (await book(app, w.customer, fixedSlot(w.court.id, 4))).json().data
  const cash = await call('POST', `/api/bookings/${desk.id}/payments`, w.staff, { method: 'cash', amount: 1500 })
  assert.equal(cash.statusCode, 201, cash.body)

  clock.set('2026-03-20T03:15:00Z')
  const issued = await call('POST', '/api/admin/commission-invoices', admin, { fiscal_year: '2082/83', month: 11 })
  assert.equal(issued.statusCode, 201, issued.body)
  const inv = issued.json().data.find((i: { buyer: { venue_id: number } }) => i.buyer.venue_id === w.venue.id)
  // 225.00 with VAT: 199.11 taxable + 25.89 VAT (17.26 + 8.63, per entry); the taxable split 132.74 online, 66.37 desk.
  assert.deepEqual([inv.total, inv.taxable_amount, inv.vat], ['225.00', '199.11', '25.89'])

  const first = await pdf(w.venue.id, inv.id, w.owner)
  assert.equal(first.statusCode, 200, first.body)
  assert.match(first.headers['content-type'] as string, /^application\/pdf/)
  assert.equal(first.headers['cache-control'], 'private, no-store')
  assert.equal(first.rawPayload.subarray(0, 4).toString(), '%PDF')
  const { pages, text } = await pdfText(first.rawPayload)
  assert.equal(pages, 1)
  for (const expected of [
    'Tax Invoice',
    'Courtside Nepal Pvt. Ltd.',
    'PAN/VAT No.: 600000001',
    inv.invoice_number,
    'Fiscal year: 2082/83',
    '2082-12-06 BS / 2026-03-20 AD',
    'Nepali month: 2082-11',
    'Buyer: Baneshwor Futsal Pvt. Ltd.',
    'Buyer PAN: 601234567',
    'Buyer address: ',
    'Commission on online payments (gateways and wallets)',
    'NPR 132.74',
    'Commission on payments taken at the desk',
    'NPR 66.37',
    'Taxable amount',
    'NPR 199.11',
    'VAT 13%',
    'NPR 25.89',
    'NPR 225.00',
    `In words: ${amountInWords(22500, 'en')}`,
  ]) {
    assert.ok(text.includes(expected), `"${expected}" is not in the PDF text: ${text}`)
  }
  assert.ok(!text.includes('Copy of Original'), 'the first print is the original')

  // Every later print is a copy, numbered; each print is recorded with who printed it.
  const second = await pdf(w.venue.slug, inv.id, w.manager)
  assert.equal(second.statusCode, 200, second.body)
  assert.ok((await pdfText(second.rawPayload)).text.includes('Copy of Original (1)'))
  const third = await pdf(w.venue.id, inv.id, admin, '?lang=ne')
  assert.equal(third.statusCode, 200, third.body)
  const ne = (await pdfText(third.rawPayload)).text
  // (pdf.js reads shaped Devanagari back with some signs reordered: the words are checked in part.)
  assert.equal(amountInWords(22500, 'ne'), 'दुई सय पच्चीस रुपैयाँ मात्र')
  for (const expected of ['Copy of Original (2)', 'कर बीजक', 'सय पच्चीस', 'मात्र', amountInWords(22500, 'en')]) {
    assert.ok(ne.includes(expected), `"${expected}" is not in the Nepali PDF text: ${ne}`)
  }
  const prints = await app.ctx.db
    .selectFrom('commission_invoice_prints')
    .select(['copy_number', 'printed_by'])
    .where('invoice_id', '=', inv.id)
    .orderBy('copy_number')
    .execute()
  assert.deepEqual(
    prints.map((p) => [p.copy_number, Number(p.printed_by)]),
    [
      [0, w.owner.id],
      [1, w.manager.id],
      [2, admin.id],
    ],
  )

  // Staff, customers and another venue's owner: 403 (and no print recorded); signed out: 401.
  const otherOwner = await createUser(app, { roles: ['venue_owner'] })
  await createVenue(app, otherOwner.id)
  for (const who of [w.staff, w.customer, otherOwner]) {
    const res = await pdf(w.venue.id, inv.id, who)
    assert.equal(res.statusCode, 403, res.body)
  }
  assert.equal((await pdf(w.venue.id, inv.id, undefined)).statusCode, 401)
  // Unknown invoice, an invoice of another venue through this venue, an unknown venue, a bad id: 404.
  assert.equal((await pdf(w.venue.id, 999999, w.owner)).statusCode, 404)
  assert.equal((await pdf(w.venue.id, 'abc', w.owner)).statusCode, 404)
  assert.equal((await pdf('no-such-venue', inv.id, admin)).statusCode, 404)
  const other = await taxWorld(app)
  assert.equal((await pdf(other.venue.id, inv.id, other.owner)).statusCode, 404)
  const count = await app.ctx.db
    .selectFrom('commission_invoice_prints')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('invoice_id', '=', inv.id)
    .executeTakeFirstOrThrow()
  assert.equal(Number(count.n), 3)
  clock.set(FIXED_NOW)
})
