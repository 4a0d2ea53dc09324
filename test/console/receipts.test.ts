import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { createUser, ordinaryDayAfter } from '../helpers/factories.ts'
import {
  axeViolations,
  CONSOLE_NOW,
  type ConsoleServer,
  demoVenueId,
  launchBrowser,
  signIn,
  startConsoleServer,
} from './browser.ts'

// Receipts in the booking panel (issue 31) in a real browser against the real server: a booking a
// customer paid from their wallet through the API shows its receipt (number, type, total, issued) in
// the staff's booking dialog on the day board, and "Print" fetches the receipt's PDF with the bearer
// token and opens it in a new tab from a blob: URL. axe finds no violation in the dialog.

const date = ordinaryDayAfter(CONSOLE_NOW, 4)

describe('console: receipts in the booking panel', () => {
  let server: ConsoleServer
  let browser: Browser
  let venueId: number
  let booking: { id: number; number: string; total: string }
  let receipt: { id: number; receipt_number: string; type: string; total: string; issued_at: string }
  const contexts: BrowserContext[] = []

  before(async () => {
    server = await startConsoleServer()
    browser = await launchBrowser(server.app.ctx.clock)
    venueId = await demoVenueId(server)
    const court = await server.app.ctx.db
      .selectFrom('courts')
      .select('id')
      .where('venue_id', '=', venueId)
      .where('name', '=', 'Court B')
      .executeTakeFirstOrThrow()
    const customer = await createUser(server.app, { wallet: 1_000_000, name: 'Receipt Gita' })
    const inject = (method: 'GET' | 'POST', url: string, payload?: object) =>
      server.app.inject({ method, url, headers: { authorization: `Bearer ${customer.token}` }, payload })
    const booked = await inject('POST', '/api/bookings', {
      court_id: court.id,
      date,
      start_time: '14:00',
      end_time: '15:00',
    })
    assert.equal(booked.statusCode, 201, booked.body)
    const id = booked.json().data.id as number
    const paid = await inject('POST', '/api/payments/initiate', { booking_id: id, method: 'wallet' })
    assert.ok(paid.statusCode < 300, paid.body)
    const detail = (await inject('GET', `/api/bookings/${id}`)).json().data
    assert.equal(detail.balance_due, '0.00')
    booking = { id, number: detail.booking_number, total: detail.total_amount }
    const receipts = (await inject('GET', `/api/bookings/${id}/receipts`)).json().data
    assert.equal(receipts.length, 1)
    receipt = receipts[0]
  })
  after(async () => {
    for (const c of contexts) await c.close()
    await browser?.close()
    await server?.close()
  })

  test("the staff open the paid booking from the board, see its receipt and print the service's PDF", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, timezoneId: 'Asia/Kathmandu' })
    contexts.push(context)
    const page: Page = await context.newPage()
    page.setDefaultTimeout(10_000)
    await signIn(page, server.url, 'staff@courtside.test', server.seed.password)
    await page.goto(`${server.url}/console/#/venues/${venueId}/board?date=${date}`)
    await page.getByRole('button', { name: new RegExp(booking.number) }).click()
    const dialog = page.getByRole('dialog', { name: `Booking ${booking.number}` })
    await dialog.getByRole('heading', { name: 'Receipts', exact: true }).waitFor()

    const table = dialog.getByRole('table', { name: 'Issued receipts and credit notes' })
    const row = table.getByRole('row').filter({ hasText: receipt.receipt_number })
    await row.waitFor()
    assert.equal(receipt.type, 'receipt')
    assert.equal(receipt.total, booking.total)
    const text = (await row.textContent()) ?? ''
    assert.match(receipt.receipt_number, /^R-\d{4}\/\d{2}-\d{6}$/)
    assert.match(text, /Receipt/)
    assert.match(text, new RegExp(`Rs ${Number(booking.total).toLocaleString('en-US', { minimumFractionDigits: 2 })}`))
    assert.match(text, new RegExp(receipt.issued_at.slice(0, 16)))
    assert.deepEqual(await axeViolations(page), [], 'booking dialog with receipts')

    const pdfs: Buffer[] = []
    await page.route(`**/api/receipts/${receipt.id}`, async (route) => {
      const answer = await route.fetch()
      pdfs.push(await answer.body())
      await route.fulfill({ response: answer })
    })
    // Print: the PDF comes with the bearer token (an unsigned request would be 401) and opens in a
    // new tab from an object URL.
    const [response, popup] = await Promise.all([
      page.waitForResponse((r) => new URL(r.url()).pathname === `/api/receipts/${receipt.id}`),
      page.waitForEvent('popup'),
      row.getByRole('button', { name: `Print ${receipt.receipt_number}` }).click(),
    ])
    assert.equal(response.status(), 200)
    assert.match(response.headers()['content-type'] ?? '', /^application\/pdf/)
    assert.equal(response.request().headers().accept, 'application/pdf')
    assert.match(response.request().headers().authorization ?? '', /^Bearer /)
    assert.match(popup.url(), /^blob:http:\/\/127\.0\.0\.1:\d+\//)
    // The bytes are the service's PDF (seen by the route above, which passes the answer on unchanged).
    assert.equal(pdfs.length, 1)
    assert.equal(pdfs[0].subarray(0, 5).toString('latin1'), '%PDF-')
    assert.ok(pdfs[0].length > 1000, `a PDF of ${pdfs[0].length} bytes`)
  })
})
