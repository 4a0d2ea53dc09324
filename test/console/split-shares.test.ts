import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { Browser } from 'playwright-core'
import { ordinaryDayAfter } from '../helpers/factories.ts'
import {
  axeViolations,
  CONSOLE_NOW,
  type ConsoleServer,
  demoVenueId,
  launchBrowser,
  signIn,
  startConsoleServer,
} from './browser.ts'

// The desk board in a real browser: a customer's booking split into five shares, three of them
// paid, says "shares 3/5 paid" in its cell and in its dialog (issue 48).

const date = ordinaryDayAfter(CONSOLE_NOW, 2)
let server: ConsoleServer
let browser: Browser

before(async () => {
  server = await startConsoleServer()
  browser = await launchBrowser(server.app.ctx.clock)
})
after(async () => {
  await browser?.close()
  await server?.close()
})

async function tokenOf(email: string) {
  const res = await server.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password: server.seed.password },
  })
  return { authorization: `Bearer ${res.json().token as string}` }
}

test('a split booking shows its shares paid on the board and in its dialog', async () => {
  const venueId = await demoVenueId(server)
  const court = await server.app.ctx.db
    .selectFrom('courts')
    .select('id')
    .where('venue_id', '=', venueId)
    .where('name', '=', 'Court B')
    .executeTakeFirstOrThrow()
  const customer = await tokenOf('customer@courtside.test')
  const made = await server.app.inject({
    method: 'POST',
    url: '/api/bookings',
    headers: customer,
    payload: { court_id: court.id, date, start_time: '19:00', end_time: '20:00' },
  })
  assert.equal(made.statusCode, 201, made.body)
  const booking = made.json().data as { id: number; booking_number: string }
  const split = await server.app.inject({
    method: 'POST',
    url: `/api/bookings/${booking.id}/split`,
    headers: customer,
    payload: { shares: 5 },
  })
  assert.equal(split.statusCode, 201, split.body)
  const shares = split.json().data.shares as { pay_url: string }[]
  // Three friends pay through the sandbox's Khalti (the simulate shortcut), each their own share.
  for (const i of [1, 2, 3]) {
    const friend = await server.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: {
        name: `Friend ${i}`,
        email: `friend${i}@example.test`,
        password: 'secret-pass-1',
        password_confirmation: 'secret-pass-1',
      },
    })
    const token = new URL(shares[i].pay_url).pathname.split('/').pop()
    const pay = await server.app.inject({
      method: 'POST',
      url: `/api/shares/${token}/pay`,
      headers: { authorization: `Bearer ${friend.json().token as string}` },
      payload: { method: 'gateway_2' },
    })
    assert.equal(pay.statusCode, 201, pay.body)
    const url = new URL(pay.json().data.payment_url as string)
    url.searchParams.set('simulate', 'success')
    const sandbox = await server.app.inject({ method: 'GET', url: url.pathname + url.search })
    const back = new URL(sandbox.headers.location as string)
    assert.equal((await server.app.inject({ method: 'GET', url: back.pathname + back.search })).statusCode, 200)
  }

  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, timezoneId: 'Asia/Kathmandu' })
  const page = await context.newPage()
  await signIn(page, server.url, 'staff@courtside.test', server.seed.password)
  await page.goto(`${server.url}/console/#/venues/${venueId}/board?date=${date}`)
  const cell = page.getByRole('button', { name: new RegExp(booking.booking_number) })
  await cell.waitFor()
  assert.match((await cell.textContent()) ?? '', /shares 3\/5 paid/)
  await cell.click()
  const shown = page.getByTestId('booking-shares')
  await shown.waitFor()
  assert.match((await shown.textContent()) ?? '', /Split in 5 shares: 3 paid, 2 unpaid/)
  assert.deepEqual(await axeViolations(page), [])
  await context.close()
})
