import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { fiscalYearOf, toBs } from '../../src/lib/nepali-date.ts'
import { axeViolations, withConsole } from './browser.ts'

// The platform's commission invoice on the console's Money page (docs/payments.md, "The platform's
// VAT on commission"): the month's statement lists the invoices issued in it, and each opens its PDF
// (GET /api/venues/{venue}/commission-invoices/{id}/pdf with the bearer token), its print recorded;
// axe finds no violation on the page with the list.

describe('console: the commission invoice PDF from the Money page', () => {
  const ui = withConsole({ timeout: 10_000 })
  const { inject, login, pageAs } = ui
  let invoice: { id: number; number: string }

  before(async () => {
    const ownerToken = await login('owner1@courtside.test')
    // Issued today on the API's clock (the board's date), so this month's statement lists it; the
    // amounts as the monthly job would have written them (225.00 = 199.11 + 25.89 VAT).
    const today = (await inject('GET', `/api/venues/${ui.venueId}/board`, ownerToken)).json().data.date as string
    const fy = fiscalYearOf(today)
    const row = await ui.server.app.ctx.db
      .insertInto('commission_invoices')
      .values({
        venue_id: ui.venueId,
        fiscal_year: fy,
        sequence: 1,
        invoice_number: `PC-${fy}-000001`,
        bs_month: '2083-07',
        period_from: '2026-10-18',
        period_to: '2026-11-16',
        total: 22500,
        taxable_amount: 19911,
        vat_amount: 2589,
        issued_at: ui.server.app.ctx.clock.now(),
        issued_on: today,
        issued_on_bs: toBs(today),
        platform_name: 'Courtside',
        platform_pan: '600000001',
        venue_legal_name: 'Baneshwor Futsal Arena Pvt. Ltd.',
        venue_pan: '601234567',
      })
      .returning(['id', 'invoice_number'])
      .executeTakeFirstOrThrow()
    invoice = { id: Number(row.id), number: row.invoice_number }
  })

  test('the owner opens the PDF of the month’s commission invoice', async () => {
    const owner = await pageAs('owner1@courtside.test')
    await owner.goto(`${ui.server.url}/console/#/venues/${ui.venueId}/money`)
    await owner.getByRole('heading', { name: 'Commission invoices from the platform' }).waitFor()
    const button = owner.getByRole('button', { name: `Print ${invoice.number} (PDF)` })
    const [response] = await Promise.all([
      owner.waitForResponse((r) => new URL(r.url()).pathname.endsWith(`/commission-invoices/${invoice.id}/pdf`)),
      button.click(),
    ])
    assert.equal(response.status(), 200)
    assert.match(response.headers()['content-type'] ?? '', /^application\/pdf/)
    const prints = await ui.server.app.ctx.db
      .selectFrom('commission_invoice_prints')
      .select('copy_number')
      .where('invoice_id', '=', invoice.id)
      .execute()
    assert.deepEqual(
      prints.map((p) => p.copy_number),
      [0],
    )
    assert.deepEqual(await axeViolations(owner), [], 'money page with commission invoices')
  })
})
