import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import type { Page } from 'playwright-core'
import { bsDate, digits, groupLakh } from '../../shared-ui/format.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { Zone } from '../../src/lib/zone.ts'
import { axeViolations, PHONE, screenshot, withConsole } from './browser.ts'

// The console in Nepali (issue 50) on a phone, against the real server and the demo data with its
// history: the owner switches the language in the shell; Reports and Cash-up speak Nepali, write
// money in lakh grouping with Devanagari digits (रु ४,४८,१९९.००), show the BS date beside the AD
// one, and the heatmap shows the evening; the choice stays after a reload; switching back gives
// English with lakh grouping too; axe finds no violation.

const VENUE = 'Baneshwor Futsal Arena'
/** The demo venue's name in Nepali (name_ne), which the console shows in Nepali. */
const VENUE_NE = 'बानेश्वर फुटसल एरेना'
const zone = new Zone('Asia/Kathmandu')
const TODAY = '2026-11-26'

/** "448199.00" as the console writes it in `lang`: "Rs 4,48,199.00" / "रु ४,४८,१९९.००". */
function rupees(amount: string, lang: 'en' | 'ne'): string {
  const [whole, frac = '00'] = amount.replace(/^-/, '').split('.')
  const sign = amount.startsWith('-') ? '-' : ''
  return digits(`${sign}${lang === 'ne' ? 'रु' : 'Rs'} ${groupLakh(whole)}.${frac.padEnd(2, '0')}`, lang)
}

describe('console: in Nepali on a phone', () => {
  const ui = withConsole({ clock: new ManualClock(zone.instant(TODAY, '18:30')), history: true })
  const { inject, login, pageAs } = ui
  let ownerToken: string
  let page: Page

  const figure = (list: string, label: string) =>
    page
      .locator(`dl[aria-label="${list}"] > div`)
      .filter({ has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) })
      .locator('dd')

  before(async () => {
    ownerToken = await login('owner1@courtside.test')
  })

  /** The owner account's stored language (users.locale) once it is `want`: the switch saves it. */
  async function storedLocale(want: 'en' | 'ne') {
    let locale = ''
    for (let i = 0; i < 50 && locale !== want; i++) {
      if (i) await new Promise((r) => setTimeout(r, 100))
      locale = (await inject('GET', '/api/profile', ownerToken)).json().data.locale
    }
    return locale
  }

  test('the owner switches to Nepali: Reports in Nepali, lakh grouping, BS dates, the evening on the heatmap', async () => {
    const s = (
      await inject('GET', `/api/venues/${ui.venueId}/reports/summary?from=2026-11-01&to=${TODAY}`, ownerToken)
    ).json().data
    page = await pageAs('owner1@courtside.test', PHONE)
    await page.goto(`${ui.server.url}/console/#/venues/${ui.venueId}/reports`)
    await page.getByRole('heading', { name: `Reports at ${VENUE}` }).waitFor()
    await page.getByLabel('Language').selectOption('ne')
    await page.getByRole('heading', { name: `${VENUE_NE} का रिपोर्टहरू` }).waitFor()
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'ne-NP')
    // Signed in, the switch is the account's language too: the service writes its errors and messages in it.
    assert.equal(await storedLocale('ne'), 'ne')
    await page.getByRole('navigation', { name: 'खण्डहरू' }).getByRole('link', { name: 'नगद मिलान' }).waitFor()
    // Money in lakh grouping with Devanagari digits; counts in Devanagari.
    await figure('अवधिको जम्मा', 'खुद आम्दानी').filter({ hasText: 'रु' }).waitFor()
    assert.equal(await figure('अवधिको जम्मा', 'खुद आम्दानी').textContent(), rupees(s.revenue.net, 'ne'))
    assert.equal(await figure('अवधिको जम्मा', 'बुकिङहरू').textContent(), digits(groupLakh(String(s.bookings.total)), 'ne'))
    assert.ok(Number(s.revenue.gross) >= 100000, `a lakh or more received: ${s.revenue.gross}`)
    assert.match(
      (await figure('अवधिको जम्मा', 'प्राप्त').textContent()) ?? '',
      /^रु [०-९]{1,2},[०-९]{2},[०-९]{3}\.[०-९]{2}$/,
    )
    // The range with its BS dates beside the AD ones.
    await page.getByText(bsDate('2026-11-01', 'ne'), { exact: false }).first().waitFor()
    assert.ok(((await page.locator('.card p.muted').first().textContent()) ?? '').includes(bsDate(TODAY, 'ne')))
    // The heatmap is turned on a phone: a row per hour, the evening there, nothing hidden sideways.
    const heat = page.getByRole('table', { name: /बार र घण्टा अनुसार प्रयोग दर/ })
    const hours = await heat.locator('tbody th').allTextContents()
    assert.ok(hours.includes('१८:००') && hours.includes('२१:००'), hours.join(' '))
    assert.ok(await page.locator('.heatmap-scroll').evaluate((el) => el.scrollWidth <= el.clientWidth + 1))
    await page.getByRole('table', { name: 'खुद आम्दानी अनुसार प्रमुख ग्राहकहरू' }).waitFor()
    assert.deepEqual(await axeViolations(page), [], 'reports in Nepali, 390 px')
    assert.ok(
      await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
      'the page does not scroll sideways at 390 px',
    )
    await page.evaluate(() => window.scrollTo(0, 0))
    await screenshot(page, 'console-reports-nepali-phone')
  })

  test('Cash-up in Nepali: the day with its BS date, the drawer figures in रु, and the choice kept after a reload', async () => {
    const day = (await inject('GET', `/api/venues/${ui.venueId}/cash-up?date=${TODAY}`, ownerToken)).json().data
    await page.getByRole('navigation', { name: 'खण्डहरू' }).getByRole('link', { name: 'नगद मिलान' }).click()
    await page.getByRole('heading', { name: `${VENUE_NE} मा नगद मिलान` }).waitFor()
    await page.reload()
    const title = page.getByRole('heading', { name: new RegExp(`${bsDate(TODAY, 'ne')}: खुला$`) })
    await title.waitFor()
    assert.match((await title.textContent()) ?? '', /^बिहि २६ नोभेम्बर २०२६ · /)
    assert.equal(await figure('अहिलेसम्मको दिनको नगद', 'दराजमा हुनुपर्ने').textContent(), rupees(day.expected_cash, 'ne'))
    await page.getByRole('table', { name: 'दिनका डेस्क भुक्तानीहरू' }).waitFor()
    await page.getByLabel('गनिएको नगद (रु)').fill('1')
    await page.getByText(/^दराजमा रु .* कम छ।$/).waitFor()
    assert.deepEqual(await axeViolations(page), [], 'cash-up in Nepali, 390 px')
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth))
    await page.evaluate(() => window.scrollTo(0, 0))
    await screenshot(page, 'console-cash-up-nepali-phone')
  })

  test('back to English: the same pages in English, money still in lakh grouping', async () => {
    await page.getByLabel('भाषा').selectOption('en')
    await page.getByRole('heading', { name: `Cash-up at ${VENUE}` }).waitFor()
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'en')
    assert.equal(await storedLocale('en'), 'en')
    await page.goto(`${ui.server.url}/console/#/venues/${ui.venueId}/reports`)
    await page.getByRole('heading', { name: `Reports at ${VENUE}` }).waitFor()
    await figure("The range's totals", 'Received').filter({ hasText: 'Rs' }).waitFor()
    assert.match(
      (await figure("The range's totals", 'Received').textContent()) ?? '',
      /^Rs \d{1,2},\d{2},\d{3}\.\d{2}$/,
    )
  })
})
