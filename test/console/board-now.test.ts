import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core'
import { ManualClock } from '../../src/lib/clock.ts'
import { createUser, type TestUser } from '../helpers/factories.ts'
import {
  axeViolations,
  type ConsoleServer,
  demoVenueId,
  launchBrowser,
  screenshot,
  signIn,
  startConsoleServer,
} from './browser.ts'

// Issue 35 at the desk, in Chromium against the real API on the demo data, with the service's
// clock standing at Friday 4 December 2026, 17:40 in Kathmandu: the board of today opens at the
// current hour with one "Earlier" row, keeps the court names in view, jumps a week, clips no cell
// on a 390-px phone; a payment hold's waiting customers and the waitlist offer with its expiry; a
// weekly series made for a regular team, seen on its booking and cancelled from a date; unique
// accessible names on Pricing and one close control per dialog; the wait of a 429 on sign-in.

const NOW = '2026-12-04T11:55:00Z' // 17:40 in Asia/Kathmandu (UTC+05:45)
const TODAY = '2026-12-04'
const NEXT_WEEK = '2026-12-11'
const PHONE = { width: 390, height: 844 }
const DESKTOP = { width: 1280, height: 900 }

/** The buttons of a dialog that only close it: exactly one is wanted (the header's "Close"). */
async function closeControls(dialog: Locator): Promise<string[]> {
  await dialog.waitFor()
  const names = await dialog
    .getByRole('button')
    .evaluateAll((buttons) => buttons.map((b) => (b.getAttribute('aria-label') ?? b.textContent ?? '').trim()))
  return names.filter((n) => /^(close|cancel|keep\b.*|×)$/i.test(n))
}

describe('the board at the desk on Friday 17:40 (issue 35)', () => {
  const clock = new ManualClock(NOW)
  let server: ConsoleServer
  let browser: Browser
  let venueId: number
  let courtA: number
  const contexts: BrowserContext[] = []

  before(async () => {
    server = await startConsoleServer({ WAITLIST_OFFER_MINUTES: '10', BOOKING_HOLD_MINUTES: '15' }, { clock })
    browser = await launchBrowser(server.app.ctx.clock)
    venueId = await demoVenueId(server)
    const court = await server.app.ctx.db
      .selectFrom('courts')
      .select('id')
      .where('venue_id', '=', venueId)
      .where('name', '=', 'Court A')
      .executeTakeFirstOrThrow()
    courtA = court.id
  })
  after(async () => {
    for (const c of contexts) await c.close()
    await browser?.close()
    await server?.close()
  })

  async function page(email: string, viewport: { width: number; height: number }, hash = `/venues/${venueId}/board`) {
    const context = await browser.newContext({ viewport, timezoneId: 'Asia/Kathmandu' })
    contexts.push(context)
    const p = await context.newPage()
    await signIn(p, server.url, email, server.seed.password)
    await p.goto(`${server.url}/console/#${hash}`)
    return p
  }
  const column = (p: Page, name: string): Locator =>
    p.locator('section.board-col', { has: p.getByRole('heading', { name, exact: true }) })

  async function login(email: string): Promise<{ headers: Record<string, string> }> {
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password: server.seed.password },
    })
    assert.equal(res.statusCode, 200, res.body)
    return { headers: { authorization: `Bearer ${res.json().token}` } }
  }

  /** Cells whose content is taller than their box (cut off), by their text. */
  const clippedCells = (p: Page) =>
    p.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('.board-scroll .cell')]
        .filter((c) => c.scrollHeight > c.clientHeight)
        .map((c) => `${c.textContent} (${c.scrollHeight} > ${c.clientHeight})`),
    )

  let phone: Page
  let desk: Page

  test('on a phone, today opens at the current hour with one "Earlier" row that expands', async () => {
    phone = await page('staff@courtside.test', PHONE)
    await phone.locator('.live-live').waitFor()
    await phone.getByRole('heading', { name: /Fri,? 4 Dec 2026/ }).waitFor()
    const earlier = phone.getByRole('button', { name: /^Earlier: 06:00–17:00 · 0 bookings$/ })
    assert.equal(await earlier.getAttribute('aria-expanded'), 'false')
    // The grid starts at 17:00 (the slot in progress at 17:40, "now"), the evening follows; nothing from the morning.
    assert.equal(await phone.locator('.board-axis .axis-hour').first().textContent(), '17:00')
    assert.equal(await column(phone, 'Court A').getByText('06:00').count(), 0)
    // The current hour and the next one are on the phone's first screen.
    const now = (await column(phone, 'Court A').getByText('17:00').boundingBox())!
    const evening = (await column(phone, 'Court A')
      .getByRole('button', { name: /^Court A, 18:00 Free/ })
      .boundingBox())!
    assert.ok(now.y > 0 && evening.y < PHONE.height - 40, `17:00 at ${now.y}px, 18:00 at ${evening.y}px`)
    assert.deepEqual(await axeViolations(phone), [])

    await earlier.click()
    const hide = phone.getByRole('button', { name: 'Hide the hours before 17:00' })
    assert.equal(await hide.getAttribute('aria-expanded'), 'true')
    assert.equal(await phone.locator('.board-axis .axis-hour').first().textContent(), '06:00')
    await column(phone, 'Court A').getByText('06:00').first().waitFor()
    await hide.click()
    assert.equal(await phone.locator('.board-axis .axis-hour').first().textContent(), '17:00')
  })

  test('court names stay in view while the board scrolls down and sideways', async () => {
    // The whole day (taller than the phone) scrolls inside the board.
    await phone.getByRole('button', { name: /^Earlier/ }).click()
    const at = await phone.evaluate(async () => {
      const box = document.querySelector<HTMLElement>('.board-scroll')!
      box.scrollTop = 250
      box.scrollLeft = 300
      await new Promise((r) => requestAnimationFrame(() => r(null)))
      const frame = box.getBoundingClientRect()
      const heads = [...box.querySelectorAll<HTMLElement>('.board-col .col-head')].map((h) => h.getBoundingClientRect())
      const hour = box.querySelector<HTMLElement>('.board-axis .axis-hour')!.getBoundingClientRect()
      return {
        scrolled: box.scrollTop,
        headTops: heads.map((h) => Math.round(h.top - frame.top)),
        hourLeft: Math.round(hour.left - frame.left),
      }
    })
    assert.ok(at.scrolled > 0, 'the board scrolled')
    // Every court's head sits at the top of the scrolled board (sticky), the hours at its left.
    assert.ok(
      at.headTops.every((t) => t >= 0 && t <= 2),
      at.headTops.join(','),
    )
    assert.ok(at.hourLeft >= 0 && at.hourLeft <= 2, String(at.hourLeft))
    await phone.getByRole('button', { name: /^Hide the hours/ }).click()
  })

  test('"+1 week" beside the day buttons jumps to the same weekday next week', async () => {
    const nav = phone.getByRole('navigation', { name: 'Day' })
    const labels = await nav.getByRole('button').allTextContents()
    assert.deepEqual(labels, ['← Previous day', 'Today', 'Next day →', '+1 week'])
    await nav.getByRole('button', { name: '+1 week' }).click()
    await phone.getByRole('heading', { name: /Fri,? 11 Dec 2026/ }).waitFor()
    assert.match(phone.url(), new RegExp(`date=${NEXT_WEEK}$`))
    // Another day than today: the whole day, no "Earlier" row.
    assert.equal(await phone.getByRole('button', { name: /^Earlier/ }).count(), 0)
    assert.equal(await phone.locator('.board-axis .axis-hour').first().textContent(), '06:00')
    await nav.getByRole('button', { name: 'Today' }).click()
    await phone.getByRole('heading', { name: /Fri,? 4 Dec 2026/ }).waitFor()
  })

  let waiting: TestUser[]
  let holdId: number

  test('at 390 px no cell is cut off: a payment hold with customers waiting shows every line', async () => {
    const customer = await login('customer@courtside.test')
    const held = await server.app.inject({
      method: 'POST',
      url: '/api/bookings',
      headers: customer.headers,
      payload: { court_id: courtA, date: TODAY, start_time: '19:00', end_time: '20:00', payment_method: 'gateway_1' },
    })
    assert.equal(held.statusCode, 201, held.body)
    holdId = held.json().data.id
    waiting = [
      await createUser(server.app, { name: 'Sita Maharjan Shrestha' }),
      await createUser(server.app, { name: 'Hari Karki' }),
    ]
    for (const who of waiting) {
      const res = await server.app.inject({
        method: 'POST',
        url: '/api/waitlist',
        headers: who.headers,
        payload: { court_id: courtA, date: TODAY, start_time: '19:00', end_time: '20:00' },
      })
      assert.equal(res.statusCode, 201, res.body)
    }
    // A joined waitlist sends no change event: the desk's board shows the count on its next load.
    await phone.reload()
    const cell = column(phone, 'Court A').getByRole('button', { name: /Bikash Thapa/ })
    await cell.waitFor()
    assert.match((await cell.textContent()) ?? '', /Hold ends 17:55 \(15 min\) 2 waiting Due Rs [\d,]+\.00$/)
    assert.deepEqual(await clippedCells(phone), [])
    // Every column keeps at least the width of its content (the page itself never scrolls sideways).
    assert.equal(
      await phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
      0,
    )
    await phone.getByRole('button', { name: /^Earlier/ }).click()
    assert.deepEqual(await clippedCells(phone), [])
    await phone.getByRole('button', { name: /^Hide the hours/ }).click()
    assert.deepEqual(await axeViolations(phone), [])
    // The picture: the board from its "Earlier" row down.
    await phone.evaluate(() => window.scrollTo(0, document.querySelector<HTMLElement>('.board-scroll')!.offsetTop - 8))
    await screenshot(phone, 'console-board-phone')
    await phone.evaluate(() => window.scrollTo(0, 0))
  })

  test('a freed slot is offered to the first in line: the board shows the offer, its expiry and who still waits', async () => {
    const customer = await login('customer@courtside.test')
    const cancelled = await server.app.inject({
      method: 'PATCH',
      url: `/api/bookings/${holdId}/cancel`,
      headers: customer.headers,
      payload: {},
    })
    assert.equal(cancelled.statusCode, 200, cancelled.body)
    const offer = column(phone, 'Court A').getByRole('button', { name: /Sita Maharjan Shrestha/ })
    await offer.waitFor({ timeout: 5000 })
    assert.match((await offer.textContent()) ?? '', /Waitlist offer ends 17:50 \(10 min\) 1 waiting/)
    assert.deepEqual(await clippedCells(phone), [])
    await offer.click()
    const dialog = phone.getByRole('dialog', { name: /Booking BK-/ })
    const facts = dialog.locator('.booking-facts')
    await facts.waitFor()
    assert.match(
      (await facts.textContent()) ?? '',
      /Waitlist1 customer waiting for this slot · offered to Sita Maharjan Shrestha from the waitlist; Waitlist offer ends 17:50 \(10 min\)/,
    )
    assert.deepEqual(await closeControls(dialog), ['Close'])
    assert.deepEqual(await axeViolations(phone), [])
    await dialog.getByRole('button', { name: 'Close' }).click()
    await dialog.waitFor({ state: 'detached' })
  })

  test('a weekly series for a regular team: made from a free slot, shown on its booking, cancelled from a date', async () => {
    desk = await page('staff@courtside.test', DESKTOP, `/venues/${venueId}/board?date=${NEXT_WEEK}`)
    await desk.locator('.live-live').waitFor()
    await column(desk, 'Court B')
      .getByRole('button', { name: /^Court B, 19:00 Free/ })
      .click()
    const create = desk.getByRole('dialog', { name: /New booking: Court B, 19:00/ })
    assert.deepEqual(await closeControls(create), ['Close'])
    await create.getByLabel('Customer name').fill('Thamel Tigers')
    await create.getByLabel('Phone').fill('9811111111')
    await create.getByLabel('Booking type').selectOption('offline')
    await create.getByLabel('Repeat').selectOption({ label: 'Every Friday for 4 weeks' })
    await create.getByLabel('Skip weeks already taken').waitFor()
    assert.deepEqual(await axeViolations(desk), [])
    await create.getByRole('button', { name: 'Book every week' }).click()
    await desk.getByText(/^Booked Thamel Tigers every Friday 19:00–20:00: 4 weeks from Fri,? 11 Dec 2026\.$/).waitFor()
    const cell = column(desk, 'Court B').getByRole('button', { name: /Thamel Tigers/ })
    await cell.waitFor()
    assert.match((await cell.textContent()) ?? '', /BK-\d{4}-\d{6} · weekly/)

    await cell.click()
    const panel = desk.getByRole('dialog', { name: /Booking BK-/ })
    const series = panel.getByRole('region', { name: 'Weekly series' })
    await series.getByText(/^Thamel Tigers, every Friday 19:00–20:00, 4 weeks from Fri,? 11 Dec 2026\.$/).waitFor()
    const weeks = await series.getByRole('listitem').allTextContents()
    assert.equal(weeks.length, 4)
    assert.match(weeks[0], /^Fri,? 11 Dec 2026 · BK-\d{4}-\d{6} · Awaiting payment \(this booking\)$/)
    assert.match(weeks[3], /^Fri,? 1 Jan 2027 · BK-/)
    assert.deepEqual(await closeControls(panel), ['Close'])
    await series.getByLabel('Cancel the series from').selectOption('2026-12-25')
    await series.getByLabel('Reason for cancelling the series').fill('Team moves to Saturdays')
    assert.deepEqual(await axeViolations(desk), [])
    await desk.setViewportSize({ width: 1280, height: 1250 })
    await screenshot(desk, 'console-series')
    await desk.setViewportSize(DESKTOP)
    await series.getByRole('button', { name: /^Cancel 2 weeks from Fri,? 25 Dec 2026$/ }).click()
    await panel.getByText('2 bookings cancelled.', { exact: true }).waitFor()
    await series.getByText(/^Fri,? 1 Jan 2027 · BK-\d{4}-\d{6} · Cancelled$/).waitFor()
    const rows = await server.app.ctx.db
      .selectFrom('bookings')
      .select(['date', 'status', 'cancel_reason'])
      .where('customer_name', '=', 'Thamel Tigers')
      .orderBy('date')
      .execute()
    assert.deepEqual(
      rows.map((r) => [r.date, r.status, r.cancel_reason]),
      [
        ['2026-12-11', 'pending', null],
        ['2026-12-18', 'pending', null],
        ['2026-12-25', 'cancelled', 'Team moves to Saturdays'],
        ['2027-01-01', 'cancelled', 'Team moves to Saturdays'],
      ],
    )
    await panel.getByRole('button', { name: 'Close' }).click()
  })

  test('the maintenance dialogs have one close control each', async () => {
    await desk.getByRole('button', { name: 'Block Court A time' }).click()
    const block = desk.getByRole('dialog', { name: 'Block Court A for maintenance' })
    assert.deepEqual(await closeControls(block), ['Close'])
    await block.getByRole('button', { name: 'Block court' }).click()
    const made = column(desk, 'Court A').getByRole('button', { name: /Maintenance/ })
    await made.click()
    const remove = desk.getByRole('dialog', { name: 'Maintenance on Court A' })
    assert.deepEqual(await closeControls(remove), ['Close'])
    assert.deepEqual(await axeViolations(desk), [])
    await remove.getByRole('button', { name: 'Remove block' }).click()
    await made.waitFor({ state: 'detached' })
  })

  for (const [label, viewport] of [
    ['desktop', DESKTOP],
    ['390 px', PHONE],
  ] as const) {
    test(`Pricing (${label}): every rule's buttons have their own name; its dialogs one close control`, async () => {
      const owner = await page('owner1@courtside.test', viewport, `/venues/${venueId}/manage/pricing`)
      await owner.getByLabel('Court').selectOption({ label: 'Court A' })
      const table = owner.getByRole('table', { name: 'Pricing rules' })
      await table.getByRole('button').first().waitFor()
      const names = await table
        .getByRole('button')
        .evaluateAll((buttons) => buttons.map((b) => b.textContent?.replace(/\s+/g, ' ').trim() ?? ''))
      assert.equal(new Set(names).size, names.length, names.join(' | '))
      // The demo's three rules that start at 06:00 on Court A.
      for (const name of [
        'Edit rule 06:00–09:00, Court A, every day',
        'Edit rule 06:00–21:00, Court A, Saturday',
        'Edit rule 06:00–22:00, Court A, every day',
      ]) {
        assert.ok(names.includes(name), `${name} in ${names.join(' | ')}`)
      }
      assert.deepEqual(await axeViolations(owner), [])
      await table.getByRole('button', { name: 'Edit rule 06:00–09:00, Court A, every day' }).click()
      const edit = owner.getByRole('dialog', { name: 'Edit pricing rule' })
      assert.deepEqual(await closeControls(edit), ['Close'])
      assert.deepEqual(await axeViolations(owner), [])
      await edit.getByRole('button', { name: 'Close' }).click()
      await table.getByRole('button', { name: 'Delete rule 06:00–22:00, Court A, every day' }).click()
      const confirm = owner.getByRole('dialog', { name: 'Delete this pricing rule?' })
      assert.deepEqual(await closeControls(confirm), ['Close'])
      await confirm.getByRole('button', { name: 'Close' }).click()
      // The courts' dialog too.
      await owner.goto(`${server.url}/console/#/venues/${venueId}/manage/courts`)
      await owner.getByRole('button', { name: 'Edit Court A' }).click()
      const court = owner.getByRole('dialog', { name: 'Edit Court A' })
      assert.deepEqual(await closeControls(court), ['Close'])
      await court.getByRole('button', { name: 'Close' }).click()
    })
  }
})

describe('a visible wait on 429 (issue 35)', () => {
  let server: ConsoleServer
  let browser: Browser

  before(async () => {
    server = await startConsoleServer({ RATE_LIMIT_ENABLED: 'true' })
    browser = await launchBrowser(server.app.ctx.clock)
  })
  after(async () => {
    await browser?.close()
    await server?.close()
  })

  test('the sixth sign-in at one desk within a minute shows how long to wait, and "Sign in" waits', async () => {
    // A shift change: five colleagues sign in from the same address in a minute.
    for (let i = 0; i < 5; i++) {
      const res = await server.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress: '127.0.0.1',
        payload: { email: 'staff@courtside.test', password: server.seed.password },
      })
      assert.equal(res.statusCode, 200, res.body)
    }
    const context = await browser.newContext({ viewport: PHONE, timezoneId: 'Asia/Kathmandu' })
    try {
      const p = await context.newPage()
      await p.goto(`${server.url}/console/`)
      await p.getByLabel('Email or phone').fill('owner1@courtside.test')
      await p.getByLabel('Password').fill(server.seed.password)
      await p.getByRole('button', { name: 'Sign in' }).click()
      const alert = p.getByRole('alert')
      await alert.waitFor()
      const text = (await alert.textContent()) ?? ''
      // A full minute left (the sixth sign-in within a second of the first) reads "1 min".
      const m = /^Too many sign-ins from this desk in a minute\. Try again in (?:(\d+) s|(1) min)\.$/.exec(text)
      assert.ok(m, text)
      const seconds = m[1] ? Number(m[1]) : 60
      assert.ok(seconds >= 1 && seconds <= 60, text)
      const button = p.getByRole('button', { name: /^Sign in \(wait \d+ s\)$/ })
      assert.equal(await button.isDisabled(), true)
      assert.deepEqual(await axeViolations(p), [])
      await p.setViewportSize(DESKTOP)
      assert.deepEqual(await axeViolations(p), [])
      // The count goes down, a second at a time.
      await p.waitForFunction(
        (s) => {
          const label = [...document.querySelectorAll('button')].find((b) => b.textContent?.startsWith('Sign in'))
          const left = Number(/wait (\d+) s/.exec(label?.textContent ?? '')?.[1] ?? Number.NaN)
          return left < s
        },
        seconds,
        { timeout: 5000 },
      )
    } finally {
      await context.close()
    }
  })
})
