import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { Browser } from 'playwright-core'
import { createCourt, createVenue, daysAfter } from '../helpers/factories.ts'
import { payInsertedBookings } from '../helpers/ledger.ts'
import { pageWorkMs, REFERENCE_WORK_MS } from '../web/vitals.ts'
import { CONSOLE_NOW, type ConsoleServer, launchBrowser, signIn, startConsoleServer } from './browser.ts'

// The day board's render time for a busy venue: 12 courts and 100 bookings on one day, measured in
// a real browser from navigation (a fresh page load of the console at the board's address) to the
// board fully rendered (every booking's cell in the DOM). Printed for the closing note.

let server: ConsoleServer
let browser: Browser
before(async () => {
  server = await startConsoleServer()
  // The browser's own clock: the test reads the page's performance timeline (when the board's JSON
  // arrived), which Playwright's fixed clock (launchBrowser(clock)) leaves empty, and the load
  // measured several seconds slower under it; the board's date comes from the URL, not the device.
  browser = await launchBrowser()
})
after(async () => {
  await browser?.close()
  await server?.close()
})

test('the board of 12 courts with 100 bookings renders well within 3 s', async () => {
  const db = server.app.ctx.db
  const date = daysAfter(CONSOLE_NOW, 3)
  const owner = await db
    .selectFrom('users')
    .select('id')
    .where('email', '=', 'owner1@courtside.test')
    .executeTakeFirstOrThrow()
  const venue = await createVenue(server.app, owner.id, {
    name: 'Busy Friday Futsal',
    opening_time: '06:00:00',
    closing_time: '23:00:00',
  })
  const rows = []
  let n = 0
  for (let i = 0; i < 12; i++) {
    const court = await createCourt(server.app, venue.id, { name: `Court ${i + 1}`, slot_minutes: 60 })
    for (let h = 6 + (i % 2); h < 23 && n < 100; h += 2) {
      n++
      rows.push({
        booking_number: `BK-2026-${String(900000 + n)}`,
        court_id: court.id,
        venue_id: venue.id,
        customer_name: `Customer ${n}`,
        date,
        start_time: `${String(h).padStart(2, '0')}:00:00`,
        end_time: `${String(h + 1).padStart(2, '0')}:00:00`,
        base_amount: 150000,
        total_amount: 150000,
        paid_amount: n % 3 === 0 ? 150000 : 0,
        status: 'confirmed' as const,
        type: 'offline' as const,
      })
    }
  }
  await db.insertInto('bookings').values(rows).execute()
  await payInsertedBookings(server.app)

  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  const first = await context.newPage()
  await signIn(first, server.url, 'owner1@courtside.test', server.seed.password)
  await first.close()
  const address = `${server.url}/console/#/venues/${venue.id}/board?date=${date}`
  const times: number[] = []
  const fetched: number[] = []
  // How much slower than the reference machine (idle) this one runs a page's work right now: the
  // 3 s budget stretches by as much (a whole run on a busy 2-core machine took 3,042 ms).
  // Measured before and after the loads (the machine may get busier meanwhile); the slower counts.
  const before = await pageWorkMs(browser)
  for (let i = 0; i < 3; i++) {
    const page = await context.newPage()
    await page.goto(address)
    // performance.now() counts from the navigation's start: the whole load, boot, fetch and render.
    const rendered = await page.waitForFunction(
      (count) => (document.querySelectorAll('.cell-booking').length === count ? performance.now() : false),
      n,
      { polling: 'raf', timeout: 10_000 },
    )
    times.push(Number(await rendered.jsonValue()))
    // When the board's JSON had arrived (the rest is the console's rendering of it).
    fetched.push(
      await page.evaluate(
        () =>
          (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).find((e) =>
            e.name.includes('/board?'),
          )?.responseEnd ?? 0,
      ),
    )
    assert.equal(await page.locator('section.board-col').count(), 12)
    await page.close()
  }
  await context.close()
  const slower = Math.max(1, Math.max(before, await pageWorkMs(browser)) / REFERENCE_WORK_MS)
  const median = [...times].sort((a, b) => a - b)[1]
  console.log(
    `console board render: 12 courts, ${n} bookings: median ${median.toFixed(0)} ms from navigation ` +
      `(runs ${times.map((t) => t.toFixed(0)).join(', ')} ms; the board's JSON arrived at ` +
      `${fetched.map((t) => t.toFixed(0)).join(', ')} ms; ${server.app.ctx.dbKind})`,
  )
  assert.ok(median < 3000 * slower, `the board took ${median} ms (budget ${Math.round(3000 * slower)} ms)`)
})
