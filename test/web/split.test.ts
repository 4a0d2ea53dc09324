import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { Browser, BrowserContext } from 'playwright-core'
import { ManualClock } from '../../src/lib/clock.ts'
import {
  axeViolations,
  contextAt,
  launchBrowser,
  open,
  screenshot,
  signInAs,
  startWebServer,
  type WebServer,
} from './browser.ts'
import { appDate } from './helpers-account.ts'

// Split payment in the web app (issue 48): the organizer splits a held court booking from its page
// and gets a link per share; a second player opens a link signed out, signs in there, comes back
// and pays the share with eSewa; the organizer's own share paid from the wallet confirms the booking.

const NOW = new Date('2026-12-01T03:15:00Z') // Tuesday 09:00 in Kathmandu
const CUSTOMER = 'customer@courtside.test'
const ARENA = 'baneshwor-futsal-arena'

describe('split payment in the web app', () => {
  let server: WebServer
  let browser: Browser
  let organizer: BrowserContext
  let friend: BrowserContext
  let token: string

  before(async () => {
    server = await startWebServer(new ManualClock(NOW))
    browser = await launchBrowser()
    organizer = await contextAt(browser, NOW)
    friend = await contextAt(browser, NOW)
    await signInAs(organizer, server, CUSTOMER)
    token = await tokenOf(CUSTOMER, server.seed.password)
  })
  after(async () => {
    await organizer?.close()
    await friend?.close()
    await browser?.close()
    await server?.close()
  })

  async function tokenOf(email: string, password: string): Promise<string> {
    const res = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    })
    assert.equal(res.status, 200, await res.clone().text())
    return ((await res.json()) as { token: string }).token
  }

  async function call<T>(method: string, path: string, body?: unknown, as = token): Promise<T> {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${as}`, accept: 'application/json', 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`)
    return (await res.json()) as T
  }

  test('split from the booking page, a share paid by a second player through its link, then confirmed', async () => {
    const courts = await call<{ data: { id: number; name: string }[] }>('GET', `/api/venues/${ARENA}/courts`)
    const date = appDate(server, 2)
    const booking = await call<{ data: { id: number; booking_number: string } }>('POST', '/api/bookings', {
      court_id: courts.data[0].id,
      date,
      start_time: '18:00',
      end_time: '19:00',
    })
    const id = booking.data.id

    // The organizer splits it in two from the booking's page.
    const page = await open(organizer, server, `/bookings/court/${id}`)
    await page.getByRole('heading', { name: 'Split the cost' }).waitFor()
    await page.getByLabel('Number of shares (2–20)').fill('2')
    await page.getByRole('button', { name: 'Split into shares' }).click()
    await page.getByRole('heading', { name: 'Shares paid: 0 of 2' }).waitFor()
    const shares = page.getByTestId('shares')
    assert.equal(await shares.getByRole('button', { name: 'Copy link' }).count(), 2)
    // A split booking is paid share by share: the whole-booking "Pay now" gives way to settling.
    assert.equal(await page.getByRole('heading', { name: 'Pay now' }).count(), 0)
    await page.getByRole('heading', { name: 'Pay the rest yourself' }).waitFor()
    assert.deepEqual(await axeViolations(page), [])
    await screenshot(page, 'web-split-phone')
    const links = await shares
      .locator('input.share-link')
      .evaluateAll((els) => els.map((el) => (el as HTMLInputElement).value))
    assert.equal(links.length, 2)
    assert.match(links[1], new RegExp(`^${server.url}/s/[A-Za-z0-9_-]+$`))

    // A friend opens the second link signed out: the booking, the share, who has paid; signs in there.
    const registered = await call<{ token: string }>('POST', '/api/auth/register', {
      name: 'Nabin Shrestha',
      email: 'nabin@example.test',
      password: 'secret-pass-1',
      password_confirmation: 'secret-pass-1',
    })
    assert.ok(registered.token)
    const share = await friend.newPage()
    await share.goto(links[1])
    await share.getByRole('heading', { name: 'Your share of the game' }).waitFor()
    const facts = (await share.getByTestId('slot-facts').textContent()) ?? ''
    for (const part of ['Baneshwor Futsal Arena', courts.data[0].name, '18:00–19:00'])
      assert.ok(facts.includes(part), facts)
    await share.getByText('Nobody has paid yet.').waitFor()
    assert.deepEqual(await axeViolations(share), [])
    await share.locator('#main').getByRole('link', { name: 'Sign in' }).click()
    await share.getByLabel('Email or mobile number').fill('nabin@example.test')
    await share.getByLabel('Password', { exact: true }).fill('secret-pass-1')
    await share.locator('#main').getByRole('button', { name: 'Sign in' }).click()
    await share.waitForURL(/\/s\/[A-Za-z0-9_-]+$/)
    await screenshot(share, 'web-share-phone')
    await share.getByRole('radio', { name: 'eSewa' }).check()
    await share.getByRole('button', { name: /^Pay Rs / }).click()
    await share.getByRole('button', { name: 'Pay', exact: true }).click()
    await share.waitForURL(/\/payments\/\d+\/return$/)
    await share.getByText(/^Paid Rs /).waitFor()

    // The organizer sees who paid, and pays the rest (their own share) from the wallet.
    const split = await call<{ data: { shares: { status: string; payer: { name: string } | null }[] } }>(
      'GET',
      `/api/bookings/${id}/shares`,
    )
    assert.deepEqual(
      split.data.shares.map((s) => [s.status, s.payer?.name ?? null]),
      [
        ['unpaid', null],
        ['paid', 'Nabin Shrestha'],
      ],
    )
    await page.reload()
    await page.getByRole('heading', { name: 'Shares paid: 1 of 2' }).waitFor()
    await page.getByText('Paid by Nabin Shrestha').waitFor()
    await page.getByRole('radio', { name: 'eSewa' }).check()
    await page.getByRole('button', { name: /^Pay all unpaid shares Rs / }).click()
    await page.getByRole('button', { name: 'Pay', exact: true }).click()
    await page.waitForURL(/\/payments\/\d+\/return$/)
    await page.getByText(`Booking ${booking.data.booking_number}: Confirmed.`).waitFor()
    const row = await server.app.ctx.db
      .selectFrom('bookings')
      .select(['status', 'paid_amount', 'total_amount'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
    assert.equal(row.status, 'confirmed')
    assert.equal(row.paid_amount, row.total_amount)
    await page.close()
    await share.close()
  })

  test('the share page in Nepali', async () => {
    const courts = await call<{ data: { id: number }[] }>('GET', `/api/venues/${ARENA}/courts`)
    const booking = await call<{ data: { id: number } }>('POST', '/api/bookings', {
      court_id: courts.data[1].id,
      date: appDate(server, 3),
      start_time: '19:00',
      end_time: '20:00',
    })
    const split = await call<{ data: { shares: { pay_url: string }[] } }>(
      'POST',
      `/api/bookings/${booking.data.id}/split`,
      { shares: 3 },
    )
    const nepali = await contextAt(browser, NOW)
    await nepali.addInitScript(() => localStorage.setItem('courtside.lang', 'ne'))
    const page = await open(nepali, server, new URL(split.data.shares[2].pay_url).pathname)
    await page.getByRole('heading', { name: 'खेलमा तपाईंको भाग' }).waitFor()
    await page.getByText('अहिलेसम्म कसैले तिर्नुभएको छैन।').waitFor()
    assert.deepEqual(await axeViolations(page), [])
    await nepali.close()
  })
})
