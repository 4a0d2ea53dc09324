import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { Browser, Page } from 'playwright-core'
import { ManualClock } from '../../src/lib/clock.ts'
import {
  axeViolations,
  contextAt,
  launchBrowser,
  open,
  PHONE,
  screenshot,
  startWebServer,
  type WebServer,
} from './browser.ts'
import { appDate, bookCourt, pageToken } from './helpers-account.ts'

// The app's and the pages' now, a Tuesday at 09:00 in Kathmandu: never the machine's clock.
const NOW = new Date('2026-12-01T03:15:00Z')

// A new customer on a phone, in real Chromium against the real server: signs up, tops up the
// wallet through the eSewa sandbox (the return page asks the service, not the redirect), sees a
// paid booking confirmed in My bookings, cancels another after seeing the refund quote, and reads
// it all again in Nepali (Devanagari digits, lakh grouping, Bikram Sambat dates).

describe('the customer account on a phone', () => {
  let server: WebServer
  let browser: Browser
  before(async () => {
    server = await startWebServer(new ManualClock(NOW))
    browser = await launchBrowser()
  })
  after(async () => {
    await browser?.close()
    await server?.close()
  })

  async function noViolations(page: Page, where: string) {
    assert.deepEqual(await axeViolations(page), [], where)
  }

  test('sign up, top up, a booking confirmed, another cancelled with the quote shown, then in Nepali', async () => {
    const context = await contextAt(browser, NOW, PHONE)
    const page = await open(context, server, '/signup')
    await noViolations(page, 'sign up')
    await page.getByLabel('Full name').fill('Sita Gurung')
    await page.getByLabel('Email').fill('sita@example.com')
    await page.getByLabel('Mobile number (optional)').fill('+9779812345678')
    await page.getByLabel('Password', { exact: true }).fill('correct horse 42')
    await page.getByLabel('Password again').fill('correct horse 42')
    await page.getByRole('button', { name: 'Create account' }).click()
    await page.getByRole('heading', { name: 'My bookings' }).waitFor()
    await page.getByText('No upcoming bookings').waitFor()

    // The wallet, topped up with a lakh through the eSewa sandbox.
    await page.goto(`${server.url}/wallet`)
    await page.getByText('Rs 0.00').waitFor()
    await noViolations(page, 'wallet')
    await page.getByLabel('Amount (Rs)').fill('100000')
    await page.getByLabel('eSewa').check()
    await page.getByRole('button', { name: 'Continue to payment' }).click()
    await page.getByRole('button', { name: 'Pay', exact: true }).click()
    // Back on the payment return page, which asks the service until the top-up is settled.
    await page.getByText('Top-up received. New balance: Rs 1,00,000.00.').waitFor()
    assert.match(new URL(page.url()).pathname, /^\/payments\/\d+\/return$/)
    await page.getByRole('status').getByRole('link', { name: 'Wallet' }).click()
    await page.getByRole('heading', { name: 'Wallet' }).waitFor()
    assert.equal(await page.getByTestId('balance').textContent(), 'Rs 1,00,000.00')
    await page.getByRole('listitem').filter({ hasText: 'Top-up' }).filter({ hasText: '+Rs 1,00,000.00' }).waitFor()

    // Two bookings paid from the wallet (through the API, as the booking pages do).
    const token = await pageToken(page)
    const date = appDate(server, 3)
    const [kept, cancelled] = await bookCourt(server, token, date, 2, true)

    // The sections bar takes a signed-in customer to their bookings from any page.
    const sections = page.getByRole('navigation', { name: 'Sections' })
    await sections.getByRole('link', { name: 'My bookings' }).click()
    await page.getByRole('heading', { name: 'My bookings' }).waitFor()
    assert.equal(await sections.getByRole('link', { name: 'My bookings' }).getAttribute('aria-current'), 'page')
    const card = (number: string) => page.getByRole('listitem').filter({ hasText: number })
    await card(kept.number).getByText('Confirmed').waitFor()
    await card(cancelled.number).getByText('Confirmed').waitFor()
    await screenshot(page, 'web-my-bookings-phone')
    await noViolations(page, 'my bookings')

    // Cancel: the refund quote comes first, then the cancel.
    await card(cancelled.number).getByRole('button', { name: 'Cancel booking' }).click()
    const refund = card(cancelled.number).getByTestId('refund')
    await refund.waitFor()
    const quoted = await refund.textContent()
    assert.equal(quoted, `Rs ${Number(cancelled.total).toLocaleString('en-IN')}.00`, 'paid long before: all back')
    await noViolations(page, 'cancel quote')
    await card(cancelled.number).scrollIntoViewIfNeeded()
    await screenshot(page, 'web-cancel-quote-phone')
    await card(cancelled.number).getByRole('button', { name: 'Cancel booking' }).click()
    await page.getByText(`Booking cancelled. Refund: ${quoted}.`).waitFor()
    const row = await server.app.ctx.db
      .selectFrom('bookings')
      .select(['status'])
      .where('id', '=', cancelled.id)
      .executeTakeFirstOrThrow()
    assert.equal(row.status, 'cancelled')
    await page.getByRole('button', { name: /^Past/ }).click()
    await card(cancelled.number).getByText('Cancelled').waitFor()
    await page.getByRole('button', { name: /^Upcoming/ }).click()
    await card(kept.number).getByText('Confirmed').waitFor()

    // नेपाली: Devanagari digits, lakh grouping, the Bikram Sambat date beside the AD one; remembered.
    await page.getByLabel('Language').selectOption('ne')
    await page.getByRole('heading', { name: 'मेरा बुकिङ' }).waitFor()
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'ne-NP')
    const text = (await card(kept.number).textContent()) ?? ''
    assert.match(text, /पक्का भयो/)
    assert.match(text, /रु [०-९,]+\.००/)
    assert.doesNotMatch(text.replace(kept.number, ''), /[0-9]/, 'no Latin digit but the booking number')
    assert.match(text, /(वैशाख|जेठ|असार|साउन|भदौ|असोज|कात्तिक|मंसिर|पुस|माघ|फागुन|चैत) २०[८९][०-९]/)
    await noViolations(page, 'my bookings in Nepali')
    await screenshot(page, 'web-my-bookings-nepali-phone')
    await page.goto(`${server.url}/wallet`)
    await page.getByRole('heading', { name: 'वालेट' }).waitFor()
    await page.getByRole('listitem').filter({ hasText: '+रु १,००,०००.००' }).waitFor() // the top-up in the history
    assert.match((await page.getByTestId('balance').textContent()) ?? '', /^रु [०-९]{2},[०-९]{3}\.[०-९]{2}$/)
    await page.reload()
    await page.getByRole('heading', { name: 'वालेट' }).waitFor()
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'ne-NP', 'the choice is remembered')
    await context.close()
  })
})
