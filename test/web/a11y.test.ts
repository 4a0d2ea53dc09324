import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { ManualClock } from '../../src/lib/clock.ts'
import {
  axeViolations,
  contextAt,
  DESKTOP,
  launchBrowser,
  login,
  PHONE,
  screenshot,
  signInAs,
  startWebServer,
  topUp,
  type WebServer,
} from './browser.ts'

// axe-core (WCAG 2.1 A and AA) finds no violation on the booking core's pages,
// on a phone (390 × 844) and on a desktop, in English and in Nepali: find, a venue with a slot
// picked and the waitlist open, the widget, the booking page, and the payment's return page.

const NOW = new Date('2026-12-01T03:15:00Z')
const TOMORROW = '2026-12-02'
const SLUG = 'baneshwor-futsal-arena'
const CUSTOMER = 'customer@courtside.test'

describe('accessibility of the booking pages', () => {
  let server: WebServer
  let browser: Browser
  let bookPath: string
  let returnPath: string
  before(async () => {
    server = await startWebServer(new ManualClock(NOW))
    browser = await launchBrowser()
    // A free slot to book, and a booking paid from the wallet whose return page is shown.
    const customer = await login(server, CUSTOMER)
    const { data: courts } = await customer.GET('/api/venues/{venue}/courts', { params: { path: { venue: SLUG } } })
    const court = courts!.data[0]
    const { data: day } = await customer.GET('/api/courts/{court}/availability', {
      params: { path: { court: String(court.id) }, query: { date: TOMORROW } },
    })
    const [slot, other] = day!.slots.filter((s) => s.is_available)
    bookPath = `/book?court=${court.id}&date=${TOMORROW}&start=${slot.start_time}&end=${slot.end_time}`
    await topUp(server, CUSTOMER, '5000.00')
    const { data: booking } = await customer.POST('/api/bookings', {
      body: { court_id: court.id, date: TOMORROW, start_time: other.start_time, end_time: other.end_time },
    })
    const { data: paid } = await customer.POST('/api/payments/initiate', {
      body: { booking_id: booking!.data.id, method: 'wallet' },
    })
    assert.ok(paid && 'payment' in paid.data && paid.data.payment, 'the wallet paid')
    returnPath = `/payments/${paid.data.payment.id}/return`
  })
  after(async () => {
    await browser?.close()
    await server?.close()
  })

  async function check(page: Page, what: string) {
    const violations = await axeViolations(page)
    assert.deepEqual(violations, [], `${what}: ${JSON.stringify(violations, null, 1)}`)
  }

  for (const [viewport, options] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    for (const lang of ['en', 'ne'] as const) {
      test(`${viewport}, ${lang}: find, venue, widget, booking and payment pages`, async () => {
        const context: BrowserContext = await contextAt(browser, NOW, options)
        await context.addInitScript((l: string) => localStorage.setItem('courtside.lang', l), lang)
        const page = await context.newPage()
        const heading = (en: string, ne: string) => page.getByRole('heading', { name: lang === 'en' ? en : ne })

        // Signed out: the start page, the venue page, the widget and the booking page's prompt.
        await page.goto(`${server.url}/`)
        await page.locator('.venue-card').first().waitFor()
        await check(page, 'find')
        if (lang === 'en' && viewport === 'phone') await screenshot(page, `web-find-phone`)

        await page.goto(`${server.url}/v/${SLUG}?date=${TOMORROW}`)
        await page.locator('button.slot.free').first().click()
        await page.locator('.summary').waitFor()
        await check(page, 'venue with a slot picked')
        if (lang === 'en' && viewport === 'phone') await screenshot(page, `web-venue-phone`)
        await page.locator('button.slot.taken').first().click()
        await page.locator('.waitlist').waitFor()
        await check(page, 'venue with the waitlist open')

        await page.goto(`${server.url}/embed/v/${SLUG}`)
        await page.locator('.slot').first().waitFor()
        await check(page, 'widget')

        await page.goto(`${server.url}${bookPath}`)
        await heading('Your booking', 'तपाईंको बुकिङ').waitFor()
        await check(page, 'booking, signed out')

        // Signed in: the booking page with its coupon and methods, then a payment's return page.
        await signInAs(context, server, CUSTOMER)
        await page.goto(`${server.url}${bookPath}`)
        await page.getByTestId('total').waitFor()
        await check(page, 'booking')
        if (lang === 'en' && viewport === 'phone') await screenshot(page, `web-book-phone`)

        await page.goto(`${server.url}${returnPath}`)
        await page.locator('.ok-text').waitFor()
        await check(page, 'payment return')
        await context.close()
      })
    }
  }
})
