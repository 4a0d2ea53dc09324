import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { Browser } from 'playwright-core'
import { ManualClock } from '../../src/lib/clock.ts'
import { axeViolations, contextAt, launchBrowser, open, startWebServer, type WebServer } from './browser.ts'

// Data that reads in Nepali (issue 50) in the customer app: in Nepali a venue's page and card show
// its name_ne and address_ne, its amenities' and courts' sports' Nepali names, and the sport filter
// lists the sports in Nepali; a Devanagari search finds the venue; in English nothing changes.

const NOW = new Date('2026-12-01T03:15:00Z')
const SLUG = 'baneshwor-futsal-arena'

describe('web: names in Nepali', () => {
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

  test("a venue's page in Nepali: its Nepali name and address, amenities and sports", async () => {
    const context = await contextAt(browser, NOW)
    const page = await open(context, server, `/venues/${SLUG}`)
    await page.getByRole('heading', { name: 'Baneshwor Futsal Arena', level: 1 }).waitFor()
    await page.getByText('New Baneshwor, near Everest Hotel, Kathmandu').waitFor()
    await page.getByLabel('Language').selectOption('ne')
    await page.getByRole('heading', { name: 'बानेश्वर फुटसल एरेना', level: 1 }).waitFor()
    await page.getByText('नयाँ बानेश्वर, एभरेस्ट होटल नजिक, Kathmandu').waitFor()
    await page
      .getByRole('listitem')
      .filter({ hasText: /^पार्किङ$/ })
      .waitFor()
    assert.ok(((await page.locator('.choice').first().textContent()) ?? '').includes('फुटसल'))
    assert.deepEqual(await axeViolations(page), [])
    await context.close()
  })

  test('finding in Nepali: a Devanagari search finds Baneshwor, its card in Nepali, sports listed in Nepali', async () => {
    const context = await contextAt(browser, NOW)
    const page = await open(context, server, `/?q=${encodeURIComponent('बानेश्वर')}`)
    await page.getByLabel('Language').selectOption('ne')
    await page.getByRole('link', { name: 'बानेश्वर फुटसल एरेना' }).first().waitFor()
    const sports = await page.locator('#find-sport option').allTextContents()
    assert.ok(sports.includes('फुटसल') && sports.includes('ब्याडमिन्टन'), sports.join(' '))
    await context.close()
  })
})
