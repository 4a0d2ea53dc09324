import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { before, describe, test } from 'node:test'
import type { Page } from 'playwright-core'
import { date as formatDate } from '../../shared-ui/format.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { Zone } from '../../src/lib/zone.ts'
import { createUser } from '../helpers/factories.ts'
import { axeViolations, PHONE, screenshot, withConsole } from './browser.ts'

// The owner's Reports page (issue 33) in a real browser against the real server, on the demo data
// with its two months of history (src/cli/seed-history.ts) and a ManualClock: the totals, the
// stacked revenue chart (drawn on its canvas) and its text alternative, the heatmap and the top
// customers agree with GET …/reports/summary for the same range; this month, last month and a
// custom range; both CSV files download with the bearer token; staff and customers are refused;
// axe finds no violation at 390×844 and on a desktop.

const VENUE = 'Baneshwor Futsal Arena'
const zone = new Zone('Asia/Kathmandu')
const TODAY = '2026-11-26' // a Thursday
const BOOKINGS_HEADER =
  'booking_number,kind,date,date_bs,start_time,end_time,court_or_game,status,type,customer_name,customer_phone,' +
  'customer_email,total_amount,discount_amount,extras_total,paid_amount,refunded_amount,balance_due,' +
  'payment_method,payment_method_name,created_at,cancelled_at,cancel_reason'
const PAYMENTS_HEADER =
  'payment_id,received_at,received_date_bs,booking_number,kind,customer_name,method,method_name,' +
  'taken_at_desk_by,status,amount,' +
  'refunded_amount,net_amount,reference,gateway_transaction_id,unverified'

/** "1234.5" → "Rs 1,234.50", as the console writes money. */
const rs = (v: string) =>
  `${Number(v) < 0 ? '-' : ''}Rs ${Math.abs(Number(v)).toLocaleString('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`

interface Summary {
  bookings: { total: number }
  revenue: { net: string; gross: string; refunds: string; by_method: Record<string, string> }
  occupancy: { percent: number; booked_hours: number; open_hours: number }
  no_show_rate: number
  by_hour: { weekday: number; hour: number; booked_hours: number; open_hours: number }[]
  by_day: { date: string; bookings: number; net: string; by_method: Record<string, string> }[]
  top_customers: { name: string; bookings: number; net: string }[]
}

describe('console: reports', () => {
  const ui = withConsole({ clock: new ManualClock(zone.instant(TODAY, '18:30')), history: true })
  const { inject, login, pageAs } = ui
  let ownerToken: string

  const summary = async (from: string, to: string): Promise<Summary> => {
    const res = await inject('GET', `/api/venues/${ui.venueId}/reports/summary?from=${from}&to=${to}`, ownerToken)
    assert.equal(res.statusCode, 200, res.body)
    return res.json().data
  }
  /** The figure shown under `label` in the totals. */
  const total = (page: Page, label: string) =>
    page
      .locator('dl[aria-label="The range\'s totals"] > div')
      .filter({ has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) })

  /** Checks every figure of the page against the API's summary of the range. */
  async function agreesWithApi(page: Page, s: Summary) {
    assert.equal(await total(page, 'Bookings').locator('dd').textContent(), String(s.bookings.total))
    assert.equal(await total(page, 'Net revenue').locator('dd').textContent(), rs(s.revenue.net))
    assert.equal(await total(page, 'Refunded').locator('dd').textContent(), rs(s.revenue.refunds))
    assert.equal(await total(page, 'Occupancy').locator('dd').textContent(), `${s.occupancy.percent.toFixed(1)}%`)
    assert.equal(await total(page, 'No-show rate').locator('dd').textContent(), `${(s.no_show_rate * 100).toFixed(1)}%`)
    // The chart's text alternative: one row per day with its methods, net and bookings.
    const table = page.getByRole('table', { name: 'Net revenue by day and payment method' })
    const rows = table.locator('tbody tr')
    assert.equal(await rows.count(), s.by_day.length)
    for (const [i, d] of s.by_day.entries()) {
      const cells = await rows.nth(i).locator('th, td').allTextContents()
      assert.deepEqual(cells, [
        formatDate(d.date, 'en', { weekday: true }),
        ...['cash', 'wallet', 'gateway_1', 'gateway_2', 'gateway_3', 'other'].map((m) => rs(d.by_method[m])),
        rs(d.net),
        String(d.bookings),
      ])
    }
    // Top customers in the API's order.
    const top = page.getByRole('table', { name: 'Top customers by net revenue' }).locator('tbody tr')
    assert.equal(await top.count(), s.top_customers.length)
    for (const [i, c] of s.top_customers.entries()) {
      const cells = await top.nth(i).locator('td').allTextContents()
      assert.equal(cells[0], c.name)
      assert.equal(cells[2], String(c.bookings))
      assert.equal(cells[3], rs(c.net))
    }
  }

  before(async () => {
    ownerToken = await login('owner1@courtside.test')
  })

  let owner: Page

  test('this month so far: totals, the stacked chart and its table, the heatmap and top customers match the API', async () => {
    const s = await summary('2026-11-01', TODAY)
    assert.ok(s.bookings.total > 100, `the demo history has bookings: ${s.bookings.total}`)
    assert.ok(Number(s.revenue.net) > 0 && Number(s.revenue.refunds) > 0, JSON.stringify(s.revenue))
    assert.ok(s.no_show_rate > 0)
    for (const m of ['cash', 'wallet', 'gateway_1', 'gateway_2', 'gateway_3']) {
      assert.ok(Number(s.revenue.by_method[m]) > 0, `the history has ${m} money`)
    }

    owner = await pageAs('owner1@courtside.test', { height: 2000 })
    // The files the page loads (its Date stands at the service's clock, which leaves the
    // performance timeline without resource entries).
    const loaded: string[] = []
    owner.on('response', (r) => loaded.push(new URL(r.url()).pathname.split('/').pop() ?? ''))
    await owner.goto(`${ui.server.url}/console/#/venues/${ui.venueId}/board`)
    await owner.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Reports' }).click()
    await owner.getByRole('heading', { name: `Reports at ${VENUE}` }).waitFor()
    await owner.getByRole('heading', { name: 'Revenue by day' }).waitFor()
    assert.equal(await owner.getByRole('button', { name: 'This month' }).getAttribute('aria-pressed'), 'true')
    assert.equal(await owner.getByLabel('From', { exact: true }).inputValue(), '2026-11-01')
    assert.equal(await owner.getByLabel('To', { exact: true }).inputValue(), TODAY)
    await agreesWithApi(owner, s)

    // The chart is drawn: its canvas has painted pixels (Chart.js, loaded when the page asked for it).
    const canvas = owner.getByRole('img', { name: /Net revenue by day, stacked by payment method/ })
    await canvas.waitFor()
    let painted = 0
    for (let i = 0; i < 50 && painted === 0; i++) {
      painted = await canvas.evaluate((c: HTMLCanvasElement) => {
        const data = c.getContext('2d')?.getImageData(0, 0, c.width, c.height).data ?? new Uint8ClampedArray()
        let n = 0
        for (let p = 3; p < data.length; p += 4) if (data[p] > 0) n++
        return n
      })
      if (painted === 0) await owner.waitForTimeout(100)
    }
    assert.ok(painted > 1000, `the chart painted ${painted} pixels`)
    assert.ok(
      loaded.some((n) => n.startsWith('revenue-chart-')),
      `the chart's chunk was loaded: ${loaded.join(' ')}`,
    )

    // The heatmap: a row per weekday, a column per opening hour, each cell's text and title its share.
    const heat = owner.getByRole('table', { name: /Occupancy by weekday and hour/ })
    assert.equal(await heat.locator('tbody tr').count(), 7)
    assert.deepEqual(await heat.locator('tbody th').allTextContents(), [
      'Mon',
      'Tue',
      'Wed',
      'Thu',
      'Fri',
      'Sat',
      'Sun',
    ])
    const busiest = s.by_hour
      .filter((c) => c.open_hours > 0)
      .sort((a, b) => b.booked_hours / b.open_hours - a.booked_hours / a.open_hours)[0]
    const dayName = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'][busiest.weekday]
    const hh = String(busiest.hour).padStart(2, '0')
    const pct = `${Math.round(Math.min(busiest.booked_hours / busiest.open_hours, 1) * 100)}%`
    const cell = heat.locator(`td[title^="${dayName} ${hh}:00–"]`)
    assert.equal(await cell.textContent(), pct)
    assert.equal(
      await cell.getAttribute('title'),
      `${dayName} ${hh}:00–${String(busiest.hour + 1).padStart(2, '0')}:00: ${busiest.booked_hours} of ${busiest.open_hours} open hours booked (${pct})`,
    )
    assert.ok(Number(pct.slice(0, -1)) > 0)

    assert.deepEqual(await axeViolations(owner), [], 'reports, desktop')
    await owner.evaluate(() => window.scrollTo(0, 0))
    await screenshot(owner, 'console-reports')
  })

  test('last month and a custom range show that range, as the API counts it', async () => {
    await owner.getByRole('button', { name: 'Last month' }).click()
    await owner.waitForURL(/from=2026-10-01&to=2026-10-31/)
    await owner.getByText(/1 Oct 2026 · .* to .*31 Oct 2026 · /).waitFor()
    const october = await summary('2026-10-01', '2026-10-31')
    await total(owner, 'Bookings')
      .locator('dd')
      .filter({ hasText: new RegExp(`^${october.bookings.total}$`) })
      .waitFor()
    await agreesWithApi(owner, october)

    await owner.getByLabel('From', { exact: true }).fill('2026-11-10')
    await owner.getByLabel('To', { exact: true }).fill('2026-11-16')
    await owner.getByRole('button', { name: 'Show range' }).click()
    await owner.waitForURL(/from=2026-11-10&to=2026-11-16/)
    const week = await summary('2026-11-10', '2026-11-16')
    await owner
      .getByRole('table', { name: 'Net revenue by day and payment method' })
      .locator('tbody tr')
      .nth(6)
      .waitFor()
    await total(owner, 'Bookings')
      .locator('dd')
      .filter({ hasText: new RegExp(`^${week.bookings.total}$`) })
      .waitFor()
    await agreesWithApi(owner, week)
    assert.equal(await owner.getByRole('button', { name: 'This month' }).getAttribute('aria-pressed'), 'false')
  })

  test('the bookings and payments CSV files download with the bearer token', async () => {
    const week = await summary('2026-11-10', '2026-11-16')
    const [bookings] = await Promise.all([
      owner.waitForEvent('download'),
      owner.getByRole('button', { name: 'Download bookings CSV' }).click(),
    ])
    assert.equal(bookings.suggestedFilename(), 'bookings-baneshwor-futsal-arena-2026-11-10-2026-11-16.csv')
    const bookingsText = await readFile((await bookings.path())!, 'utf8')
    assert.ok(bookingsText.startsWith('\uFEFF'), 'UTF-8 with a byte-order mark')
    // (trim() also drops the byte-order mark.)
    const rows = bookingsText.trim().split('\r\n')
    assert.equal(rows[0], BOOKINGS_HEADER)
    assert.equal(rows.length - 1, week.bookings.total)

    const [payments] = await Promise.all([
      owner.waitForEvent('download'),
      owner.getByRole('button', { name: 'Download payments CSV' }).click(),
    ])
    assert.equal(payments.suggestedFilename(), 'payments-baneshwor-futsal-arena-2026-11-10-2026-11-16.csv')
    const paid = (await readFile((await payments.path())!, 'utf8')).trim().split('\r\n')
    assert.equal(paid[0], PAYMENTS_HEADER)
    assert.ok(paid.length > 10, `payments in the week: ${paid.length - 1}`)
    assert.ok(paid.slice(1).every((r) => /^\d+,2026-11-1[0-6] /.test(r)))
  })

  test('at 390×844 the page has no axe violation (and a phone picture)', async () => {
    const phone = await pageAs('owner1@courtside.test', PHONE)
    await phone.goto(`${ui.server.url}/console/#/venues/${ui.venueId}/reports`)
    await phone.getByRole('table', { name: 'Top customers by net revenue' }).waitFor()
    await phone.getByRole('img', { name: /Net revenue by day/ }).waitFor()
    assert.deepEqual(await axeViolations(phone), [], 'reports, 390 px')
    // On a phone the heatmap is turned (a row per hour, a column per weekday): the evening is there and
    // nothing is hidden to the right.
    const heat = phone.getByRole('table', { name: /Occupancy by weekday and hour/ })
    const hours = await heat.locator('tbody th').allTextContents()
    assert.ok(hours.includes('18:00') && hours.includes('21:00'), hours.join(' '))
    assert.ok(
      await phone.locator('.heatmap-scroll').evaluate((el) => el.scrollWidth <= el.clientWidth + 1),
      'the turned heatmap fits the width',
    )
    assert.ok(
      await phone.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
      'the page does not scroll sideways at 390 px (wide tables scroll in their own box)',
    )
    await phone.getByRole('heading', { name: 'Revenue by day' }).scrollIntoViewIfNeeded()
    await screenshot(phone, 'console-reports-phone')
  })

  test('staff do not see Reports and are refused on its URL; a customer cannot open it', async () => {
    const staff = await pageAs('staff@courtside.test', PHONE)
    const sections = staff.getByRole('navigation', { name: 'Sections' })
    await sections.getByRole('link', { name: 'Day board' }).waitFor()
    assert.equal(await sections.getByRole('link', { name: 'Reports' }).count(), 0)
    assert.equal(await sections.getByRole('link', { name: 'Cash-up' }).count(), 1)
    await staff.goto(`${ui.server.url}/console/#/venues/${ui.venueId}/reports`)
    await staff.getByText("Reports are for the venue's owner and managers.").waitFor()
    assert.deepEqual(await axeViolations(staff), [], 'refusal, 390 px')
    const staffToken = await login('staff@courtside.test')
    const refused = await inject(
      'GET',
      `/api/venues/${ui.venueId}/reports/summary?from=2026-11-01&to=${TODAY}`,
      staffToken,
    )
    assert.equal(refused.statusCode, 403)

    const customer = await createUser(ui.server.app, { name: 'Curious Customer' })
    const page = await pageAs(customer.email, { password: customer.password })
    await page.goto(`${ui.server.url}/console/#/venues/${ui.venueId}/reports`)
    await page.getByText('This venue is not one of yours.').waitFor()
    assert.equal(await page.getByRole('heading', { name: `Reports at ${VENUE}` }).count(), 0)
    const api = await inject(
      'GET',
      `/api/venues/${ui.venueId}/reports/summary?from=2026-11-01&to=${TODAY}`,
      customer.token,
    )
    assert.equal(api.statusCode, 403)
  })
})
