import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import type { Page } from 'playwright-core'
import { bsDate, date, digits, groupLakh, money } from '../../shared-ui/format.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { Zone } from '../../src/lib/zone.ts'
import { axeViolations, PHONE, screenshot, withConsole } from './browser.ts'

// The day board in Nepali (issue 50) on a 390-px phone, against the real server and the demo data:
// the desk switches the language in the shell; the board's heading has the venue's Nepali name and
// the day with its BS date beside the AD one; the grid, the walk-in dialog, its confirmation, the
// booking's cell, the day's totals and the booking panel speak Nepali, with Devanagari digits and
// lakh grouping (रु १,९००.००); axe finds no violation on the board or in either dialog.

/** The demo venue's name in Nepali (name_ne), which the console shows in Nepali. */
const VENUE_NE = 'बानेश्वर फुटसल एरेना'
const zone = new Zone('Asia/Kathmandu')
const TODAY = '2026-11-26'
const COURT = 'Court A'

describe('console: the day board and Manage venue in Nepali on a phone', () => {
  const ui = withConsole({ clock: new ManualClock(zone.instant(TODAY, '16:10')) })
  const { inject, login, pageAs } = ui
  let staffToken: string
  let page: Page

  before(async () => {
    staffToken = await login('staff@courtside.test')
  })

  /** The board as the service gives it to the desk now. */
  const board = async () =>
    (await inject('GET', `/api/venues/${ui.venueId}/board?date=${TODAY}`, staffToken)).json().data
  const column = (name: string) =>
    page.locator('section.board-col', { has: page.getByRole('heading', { name, exact: true }) })

  test('the board in Nepali: the heading with the BS date, the grid and totals in Devanagari, axe 0', async () => {
    page = await pageAs('staff@courtside.test', PHONE)
    await page.goto(`${ui.server.url}/console/#/venues/${ui.venueId}/board`)
    await page.locator('.live-live').waitFor()
    await page.getByLabel('Language').selectOption('ne')
    const heading = page.getByRole('heading', { level: 1 })
    await heading.filter({ hasText: VENUE_NE }).waitFor()
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'ne-NP')
    // AD with its weekday and the BS date beside it, both in Nepali: "बिहि २६ नोभेम्बर २०२६ · १० मंसिर २०८३".
    assert.equal(await heading.textContent(), `${VENUE_NE} · ${date(TODAY, 'ne', { weekday: true })}`)
    assert.ok(bsDate(TODAY, 'ne').length > 0)
    assert.match((await heading.textContent()) ?? '', new RegExp(`· ${bsDate(TODAY, 'ne')}$`))
    const nav = page.getByRole('navigation', { name: 'दिन' })
    assert.deepEqual(await nav.getByRole('button').allTextContents(), ['← अघिल्लो दिन', 'आज', 'अर्को दिन →', '+१ हप्ता'])
    await page
      .locator('.live')
      .filter({ hasText: /^प्रत्यक्ष$/ })
      .waitFor()
    // Today opens at the current hour: the earlier hours are one row, in Nepali and Devanagari.
    await page.getByRole('button', { name: /^अघि: [०-९]{2}:००–१६:०० · [०-९]+ बुकिङ$/ }).waitFor()
    assert.equal(await page.locator('.board-axis .axis-hour').first().textContent(), '१६:००')
    // A free slot with its price per hour in lakh grouping and Devanagari digits.
    const slot = (await board()).columns
      .find((c: { name: string }) => c.name === COURT)
      .slots.find((s: { start_time: string; state: string }) => s.start_time === '18:00')
    assert.equal(slot.state, 'free')
    const free = column(COURT).getByRole('button', { name: new RegExp(`^${COURT}, १८:०० खाली`) })
    assert.equal(await free.textContent(), `${COURT}, १८:०० खाली · ${money(slot.price, 'ne')}/घण्टा`)
    assert.deepEqual(await axeViolations(page), [], 'the board in Nepali, 390 px')
    assert.ok(
      await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
      'the page does not scroll sideways at 390 px (the grid scrolls in its own box)',
    )
  })

  test('a walk-in through the Nepali dialog: its confirmation, its cell and the totals in Nepali', async () => {
    await column(COURT)
      .getByRole('button', { name: new RegExp(`^${COURT}, १८:०० खाली`) })
      .click()
    const dialog = page.getByRole('dialog', { name: `नयाँ बुकिङ: ${COURT}, १८:००` })
    await dialog.waitFor()
    assert.equal(await dialog.locator('p.muted').first().textContent(), date(TODAY, 'ne', { weekday: true }))
    await dialog.getByLabel('ग्राहकको नाम').fill('राम थापा')
    await dialog.getByLabel('फोन').fill('+9779811111111')
    assert.deepEqual(await dialog.getByLabel('बुकिङको प्रकार').locator('option').allTextContents(), [
      'सिधै आएका',
      'फोनबाट बुकिङ',
    ])
    await dialog.getByLabel('बुकिङको प्रकार').selectOption('walkin')
    await dialog.getByLabel('अवधि').selectOption({ label: '१ स्लट (१८:००–१९:००)' })
    assert.equal(await dialog.getByLabel('दोहोर्याउनुहोस्').locator('option').first().textContent(), 'यो मिति मात्र')
    assert.equal(
      await dialog.getByLabel('दोहोर्याउनुहोस्').locator('option').nth(1).textContent(),
      'हरेक बिहीबार, २ हप्तासम्म',
    )
    assert.deepEqual(await axeViolations(page), [], 'the walk-in dialog in Nepali, 390 px')
    await dialog.getByRole('button', { name: 'बुक गर्नुहोस्', exact: true }).click()
    const done = page.getByText(/^राम थापा का लागि BK-\d{4}-\d{6} बुक गरियो, १८:००–१९:००।$/)
    await done.waitFor()

    const now = await board()
    const made = now.bookings.find((b: { customer_name: string }) => b.customer_name === 'राम थापा')
    assert.equal(made.status, 'pending')
    const cell = column(COURT).getByRole('button', { name: /राम थापा/ })
    await cell.waitFor()
    assert.equal(
      await cell.textContent(),
      `${COURT}, १८:००–१९:०० राम थापा ${made.booking_number} भुक्तानी बाँकी बाँकी ${money(made.balance_due, 'ne')}`,
    )
    const totals = page.locator('dl[aria-label="दिनको जम्मा"]')
    const figure = (label: string) =>
      totals
        .locator('div')
        .filter({ has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) })
        .locator('dd')
    await figure('बुकिङहरू')
      .filter({ hasText: digits(groupLakh(String(now.totals.bookings)), 'ne') })
      .waitFor()
    assert.equal(await figure('बाँकी').textContent(), money(now.totals.due, 'ne'))
    assert.match((await figure('बाँकी').textContent()) ?? '', /^रु [०-९,]+\.[०-९]{2}$/)
    assert.deepEqual(await axeViolations(page), [], 'the board with the walk-in, in Nepali, 390 px')
    await page.evaluate(() => window.scrollTo(0, 0))
    await screenshot(page, 'console-board-nepali-phone')

    // The booking's panel in Nepali: its facts, the balance in रु, the status buttons.
    await cell.click()
    const panel = page.getByRole('dialog', { name: `बुकिङ ${made.booking_number}` })
    await panel.getByText('तिर्न बाँकी', { exact: true }).waitFor()
    assert.equal(await panel.locator('.booking-facts dd.strong').textContent(), money(made.balance_due, 'ne'))
    assert.match(
      (await panel.locator('.booking-facts').textContent()) ?? '',
      new RegExp(`कहिले${COURT}, ${date(TODAY, 'ne', { weekday: true, adOnly: true })}, १८:००–१९:००`),
    )
    // Booked as a walk-in, shown as one.
    assert.match((await panel.locator('.booking-facts').textContent()) ?? '', /प्रकारसिधै आएका/)
    await panel.getByRole('heading', { name: 'नगद लिनुहोस्' }).waitFor()
    await panel.getByRole('heading', { name: 'रसिदहरू', exact: true }).waitFor()
    await panel.getByRole('button', { name: 'बन्द गर्नुहोस्', exact: true }).waitFor()
    assert.deepEqual(await axeViolations(page), [], 'the booking panel in Nepali, 390 px')
  })

  test('Manage venue in Nepali: the tabs, and a holiday added with its BS date; axe 0', async () => {
    const owner = await pageAs('owner1@courtside.test', PHONE)
    await owner.goto(`${ui.server.url}/console/#/venues/${ui.venueId}/manage/holidays`)
    await owner.getByRole('heading', { name: 'Manage Baneshwor Futsal Arena' }).waitFor()
    await owner.getByLabel('Language').selectOption('ne')
    await owner.getByRole('heading', { level: 1, name: `${VENUE_NE} व्यवस्थापन` }).waitFor()
    const tabs = owner.getByRole('navigation', { name: 'भेन्यु व्यवस्थापन' }).getByRole('link')
    assert.deepEqual(await tabs.allTextContents(), [
      'कोर्ट र खेलहरू',
      'समय तालिका',
      'मूल्य',
      'बिदाहरू',
      'कुपनहरू',
      'कर्मचारी',
      'विवरण',
      'प्रमाणीकरण',
    ])
    const day = '2027-01-20'
    await owner.getByLabel('मिति').fill(day)
    await owner.getByLabel('बिदाको नाम').fill('स्थानीय बिदा')
    await owner.getByRole('button', { name: 'बिदा थप्नुहोस्', exact: true }).click()
    await owner
      .getByRole('status')
      .filter({ hasText: `${date(day, 'ne', { weekday: true, adOnly: true })} मा स्थानीय बिदा थपियो।` })
      .waitFor()
    const row = owner.getByRole('table', { name: 'बिदाहरू' }).getByRole('row').filter({ hasText: 'स्थानीय बिदा' })
    assert.match((await row.textContent()) ?? '', new RegExp(`^${date(day, 'ne', { weekday: true })}स्थानीय बिदा`))
    assert.deepEqual(await axeViolations(owner), [], 'Manage › Holidays in Nepali, 390 px')
    // Schedule: the week's hours per day in Nepali, saved with a Nepali confirmation.
    await tabs.filter({ hasText: 'समय तालिका' }).click()
    await owner.getByRole('heading', { name: /^.+ को साप्ताहिक समय$/ }).waitFor()
    await owner.getByRole('table', { name: 'दिनअनुसार खुल्ने समय' }).getByRole('rowheader', { name: 'सोमबार' }).waitFor()
    assert.equal(await owner.getByLabel('सोमबार खुल्ने').count(), 1)
    assert.deepEqual(await axeViolations(owner), [], 'Manage › Schedule in Nepali, 390 px')
    await owner.getByRole('button', { name: 'साप्ताहिक समय सुरक्षित गर्नुहोस्' }).click()
    await owner
      .getByRole('status')
      .filter({ hasText: /को साप्ताहिक समय तालिका सुरक्षित भयो।$/ })
      .waitFor()
    // Verification: the demo venue is verified, said in Nepali.
    await tabs.filter({ hasText: 'प्रमाणीकरण' }).click()
    await owner.getByRole('heading', { name: 'प्रमाणीकरण', exact: true }).waitFor()
    await owner.getByText('ग्राहकहरूले यो स्थललाई प्रमाणित देख्छन्।').waitFor()
    assert.equal(await owner.locator('strong.status').textContent(), 'प्रमाणित')
    assert.deepEqual(await axeViolations(owner), [], 'Manage › Verification in Nepali, 390 px')
    await owner.close()
  })
})
