import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { Browser, BrowserContext } from 'playwright-core'
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

// The booking dialog of an open match (docs/matches.md): the demo customer opens their Court A
// booking as a 4-player match, a second player joins, and the desk's dialog lists both with their
// levels, the spots and the price per player; axe-core on the dialog.

const date = ordinaryDayAfter(CONSOLE_NOW, 2)

describe('console: match players on the booking dialog', () => {
  let server: ConsoleServer
  let browser: Browser
  let context: BrowserContext

  before(async () => {
    server = await startConsoleServer()
    browser = await launchBrowser(server.app.ctx.clock)
  })
  after(async () => {
    await context?.close()
    await browser?.close()
    await server?.close()
  })

  test("the desk sees who plays in a booking's match", async () => {
    const app = server.app
    const venueId = await demoVenueId(server)
    const court = await app.ctx.db
      .selectFrom('courts')
      .select('id')
      .where('venue_id', '=', venueId)
      .where('name', '=', 'Court A')
      .executeTakeFirstOrThrow()
    const organizer = await createUser(app, { name: 'Anita Organizer' })
    const booked = await app.inject({
      method: 'POST',
      url: '/api/bookings',
      headers: organizer.headers,
      payload: { court_id: court.id, date, start_time: '16:00', end_time: '17:00' },
    })
    assert.equal(booked.statusCode, 201, booked.body)
    const booking = booked.json().data as { id: number; booking_number: string }
    const opened = await app.inject({
      method: 'POST',
      url: '/api/matches',
      headers: organizer.headers,
      payload: { booking_id: booking.id, players_total: 4, visibility: 'public', level_min: 2, level_max: 5 },
    })
    assert.equal(opened.statusCode, 201, opened.body)
    const player = await createUser(app, { name: 'Binod Player', wallet: 500000 })
    const joined = await app.inject({
      method: 'POST',
      url: `/api/matches/${opened.json().data.id}/join`,
      headers: player.headers,
      payload: {},
    })
    assert.equal(joined.statusCode, 200, joined.body)

    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, timezoneId: 'Asia/Kathmandu' })
    const page = await context.newPage()
    await signIn(page, server.url, 'staff@courtside.test', server.seed.password)
    await page.goto(`${server.url}/console/#/venues/${venueId}/board?date=${date}`)
    await page.locator('.live-live').waitFor()
    await page.getByRole('button', { name: /Anita Organizer/ }).click()
    const dialog = page.getByRole('dialog', { name: `Booking ${booking.booking_number}` })
    const part = dialog.getByRole('region', { name: 'Match players (2 of 4)' })
    await part.waitFor()
    const text = (await part.textContent()) ?? ''
    assert.match(text, /Open · Public · levels 2\.0–5\.0/)
    assert.match(text, /Anita Organizer \(organizer\)3\.5/)
    assert.match(text, /Binod Player3\.5/)
    assert.deepEqual(await axeViolations(page), [])
  })
})
