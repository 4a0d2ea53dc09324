import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { ManualClock } from '../../src/lib/clock.ts'
import { date as formatDate, money } from '../../web/src/i18n/format.ts'
import {
  axeViolations,
  contextAt,
  launchBrowser,
  login,
  open,
  screenshot,
  signInAs,
  startWebServer,
  topUp,
  type WebServer,
} from './browser.ts'
import { appDate } from './helpers-account.ts'

// Paying what is held (issue 47): a waitlist offer paid from its notification, a held court booking
// and a held indoor booking paid from My bookings, each through its own page with "Pay now" and the
// deadline, back to a result page that says what was paid for (venue, court or game, date, time,
// price). The warning before paying for a booking inside the venue's free-cancellation window, the
// sign-in gate's and the weekly series form's facts, and a venue's staff member playing at another
// venue: the catalogue is read without the token, so nothing there is "unauthorized".

const NOW = new Date('2026-12-01T03:15:00Z') // Tuesday 09:00 in Kathmandu
const CUSTOMER = 'customer@courtside.test'
const ARENA = 'baneshwor-futsal-arena'

interface Court {
  id: number
  name: string
}

describe('paying held bookings in the web app', () => {
  let server: WebServer
  let browser: Browser
  let phone: BrowserContext
  let token: string
  let courtA: Court
  let courtB: Court

  before(async () => {
    // Room for every hold this file makes for the demo customer (the cap is not what is tested).
    server = await startWebServer(new ManualClock(NOW), { MAX_UNPAID_BOOKINGS: '20' })
    browser = await launchBrowser()
    phone = await contextAt(browser, NOW)
    await signInAs(phone, server, CUSTOMER)
    token = await tokenOf(CUSTOMER, server.seed.password)
    const courts = await call<{ data: Court[] }>('GET', `/api/venues/${ARENA}/courts`)
    ;[courtA, courtB] = courts.data
  })
  after(async () => {
    await phone?.close()
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

  /** A new customer account (registered through the API), its token. */
  async function newCustomer(name: string): Promise<string> {
    const res = await call<{ token: string }>('POST', '/api/auth/register', {
      name,
      email: `${name.toLowerCase()}@example.test`,
      password: 'secret-pass-1',
      password_confirmation: 'secret-pass-1',
    })
    return res.token
  }

  async function bookingRow(id: number) {
    return server.app.ctx.db
      .selectFrom('bookings')
      .select(['status', 'paid_amount', 'hold_expires_at'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
  }

  /** The facts list of a page (venue, court or game, date, time, price), as text. */
  async function facts(page: Page): Promise<string> {
    const list = page.getByTestId('slot-facts')
    await list.waitFor()
    return (await list.textContent()) ?? ''
  }

  /** Waits for the return page to say the payment is paid. */
  async function settled(page: Page): Promise<number> {
    await page.waitForURL(/\/payments\/\d+\/return$/)
    await page.getByText(/^Paid Rs /).waitFor()
    return Number(/\/payments\/(\d+)\/return/.exec(page.url())?.[1])
  }

  test('a waitlist offer: the notification links to the booking, paid with eSewa, the result says what was paid for', async () => {
    const date = appDate(server, 1)
    const slot = { court_id: courtA.id, date, start_time: '18:00', end_time: '19:00' }
    // Someone else holds the slot; the customer waits for it; the other one cancels: the offer.
    const other = await newCustomer('Sita')
    const held = await call<{ data: { id: number } }>('POST', '/api/bookings', slot, other)
    await call('POST', '/api/waitlist', slot)
    await call('PATCH', `/api/bookings/${held.data.id}/cancel`, {}, other)
    const entry = await server.app.ctx.db
      .selectFrom('waitlist_entries')
      .select(['status', 'offer_booking_id'])
      .executeTakeFirstOrThrow()
    assert.equal(entry.status, 'offered')
    const offered = entry.offer_booking_id
    assert.ok(offered)
    const offer = await call<{
      data: { booking_number: string; total_amount: string; hold_expires_at: string }
    }>('GET', `/api/bookings/${offered}`)

    const page = await open(phone, server, '/notifications')
    const card = page.locator('li.card', { hasText: 'is held for you until' })
    await card.getByRole('link', { name: 'Pay now' }).click()
    await page.waitForURL(new RegExp(`/bookings/court/${offered}$`))
    await page.getByRole('heading', { name: `Booking ${offer.data.booking_number}` }).waitFor()
    // The deadline is the offer's hold, in venue time.
    const deadline = offer.data.hold_expires_at
    assert.equal(
      await page.getByTestId('pay-by').locator('strong').textContent(),
      `Pay by ${deadline.slice(11, 16)}, ${formatDate(deadline.slice(0, 10), 'en')}`,
    )
    const shown = await facts(page)
    for (const part of [
      'Baneshwor Futsal Arena',
      courtA.name,
      formatDate(date, 'en', { weekday: true }),
      '18:00–19:00',
      money(offer.data.total_amount, 'en'),
    ])
      assert.ok(shown.includes(part), `${part} in ${shown}`)
    // Tomorrow 18:00 is 33 hours away: outside the 24-hour window, no warning.
    assert.equal(await page.getByTestId('refund-warning').count(), 0)
    assert.deepEqual(await axeViolations(page), [])
    await screenshot(page, 'web-pay-offer-phone')

    await page.getByRole('radio', { name: 'eSewa' }).check()
    await page.getByRole('button', { name: /^Pay now Rs / }).click()
    await page.getByRole('button', { name: 'Pay', exact: true }).click()
    await settled(page)
    await page.getByText(`Booking ${offer.data.booking_number}: Confirmed.`).waitFor()
    await screenshot(page, 'web-pay-result-phone')
    const result = await facts(page)
    for (const part of [
      'Baneshwor Futsal Arena',
      courtA.name,
      formatDate(date, 'en', { weekday: true }),
      '18:00–19:00',
      money(offer.data.total_amount, 'en'),
    ])
      assert.ok(result.includes(part), `${part} in ${result}`)
    assert.equal((await bookingRow(offered)).status, 'confirmed')
    // The customer's waitlist says the offer was taken up.
    const waitlist = await call<{ data: { status: string; offer: { booking_id: number } | null }[] }>(
      'GET',
      '/api/waitlist',
    )
    assert.deepEqual(
      waitlist.data.map((e) => [e.status, e.offer?.booking_id]),
      [['booked', offered]],
    )
    await page.close()
  })

  test('held court and indoor bookings are paid from My bookings (the wallet and Khalti)', async () => {
    const date = appDate(server, 2)
    // A court booking whose Khalti page was closed, and an indoor one never paid: both held.
    const court = await call<{ data: { id: number; booking_number: string; total_amount: string } }>(
      'POST',
      '/api/bookings',
      { court_id: courtB.id, date, start_time: '20:00', end_time: '21:00', payment_method: 'gateway_2' },
    )
    const games = await call<{ data: { id: number; name: string }[] }>('GET', `/api/venues/${ARENA}/indoor-games`)
    const game = games.data[0]
    const indoor = await call<{ data: { id: number; booking_number: string; total_amount: string } }>(
      'POST',
      '/api/indoor-game-bookings',
      { indoor_game_id: game.id, date, start_time: '15:00', end_time: '16:00' },
    )
    const indoorRead = await call<{ data: { hold_expires_at: string | null; status: string } }>(
      'GET',
      `/api/indoor-game-bookings/${indoor.data.id}`,
    )
    assert.equal(indoorRead.data.status, 'pending')
    assert.ok(indoorRead.data.hold_expires_at, 'an indoor hold shows its deadline')
    await topUp(server, CUSTOMER, '5000.00')

    const page = await open(phone, server, '/bookings')
    const courtCard = page.locator('li.card', { hasText: court.data.booking_number })
    const courtRow = await bookingRow(court.data.id)
    assert.ok(courtRow.hold_expires_at)
    const hold = server.app.ctx.zone.format(courtRow.hold_expires_at)
    await courtCard
      .getByTestId('pay-by')
      .getByText(`Pay by ${hold.slice(11, 16)}, ${formatDate(hold.slice(0, 10), 'en')}`)
      .waitFor()
    await courtCard.getByRole('link', { name: 'Pay now' }).click()
    await page.waitForURL(new RegExp(`/bookings/court/${court.data.id}$`))
    await page.getByRole('radio', { name: /^Wallet/ }).check()
    await page.getByRole('button', { name: /^Pay now Rs / }).click()
    await settled(page)
    await page.getByText(`Booking ${court.data.booking_number}: Confirmed.`).waitFor()
    const courtFacts = await facts(page)
    assert.ok(courtFacts.includes(courtB.name), courtFacts)
    assert.ok(courtFacts.includes('20:00–21:00'), courtFacts)
    assert.ok(courtFacts.includes(money(court.data.total_amount, 'en')), courtFacts)
    assert.equal((await bookingRow(court.data.id)).status, 'confirmed')

    // Back to My bookings: the court booking is paid (no Pay now), the indoor one still is not.
    await page.getByRole('link', { name: 'My bookings' }).first().click()
    const indoorCard = page.locator('li.card', { hasText: indoor.data.booking_number })
    await indoorCard.getByTestId('pay-by').waitFor()
    assert.equal(
      await page
        .locator('li.card', { hasText: court.data.booking_number })
        .getByRole('link', { name: 'Pay now' })
        .count(),
      0,
    )
    await indoorCard.getByRole('link', { name: 'Pay now' }).click()
    await page.waitForURL(new RegExp(`/bookings/indoor/${indoor.data.id}$`))
    const indoorFacts = await facts(page)
    assert.ok(indoorFacts.includes(game.name), indoorFacts)
    assert.ok(indoorFacts.includes('Indoor game'), indoorFacts)
    await page.getByRole('radio', { name: 'Khalti' }).check()
    await page.getByRole('button', { name: /^Pay now Rs / }).click()
    await page.getByRole('button', { name: 'Pay', exact: true }).click()
    await settled(page)
    await page.getByText(`Booking ${indoor.data.booking_number}: Confirmed.`).waitFor()
    assert.ok((await facts(page)).includes(game.name))
    const row = await server.app.ctx.db
      .selectFrom('indoor_game_bookings')
      .select('status')
      .where('id', '=', indoor.data.id)
      .executeTakeFirstOrThrow()
    assert.equal(row.status, 'confirmed')
    await page.close()
  })

  test('inside the free-cancellation window the player is told before paying that cancelling refunds nothing', async () => {
    const today = appDate(server, 0)
    const tomorrow = appDate(server, 1)
    // The booking page: today 12:00 is 3 hours away (the venue refunds 24 hours ahead), tomorrow
    // 10:00 is 25 hours away.
    const page = await open(phone, server, `/book?court=${courtB.id}&date=${today}&start=12:00&end=13:00`)
    await page.getByRole('heading', { name: 'Your booking' }).waitFor()
    const warning = page.getByTestId('refund-warning')
    await warning.waitFor()
    assert.match((await warning.textContent()) ?? '', /Not refundable if you cancel\..*less than 24 hours/)
    assert.deepEqual(await axeViolations(page), [])
    await page.goto(`${server.url}/book?court=${courtB.id}&date=${tomorrow}&start=10:00&end=11:00`)
    await page.getByRole('button', { name: /^Book and pay/ }).waitFor()
    assert.equal(await page.getByTestId('refund-warning').count(), 0)

    // A held booking of today says it on its own page, before Pay now.
    const held = await call<{ data: { id: number } }>('POST', '/api/bookings', {
      court_id: courtB.id,
      date: today,
      start_time: '14:00',
      end_time: '15:00',
    })
    await page.goto(`${server.url}/bookings/court/${held.data.id}`)
    await page.getByRole('button', { name: /^Pay now Rs / }).waitFor()
    await page.getByTestId('refund-warning').waitFor()
    await screenshot(page, 'web-pay-warning-phone')
    // In Nepali too.
    await page.getByLabel('Language').selectOption('ne')
    await page.getByText('रद्द गर्नुभयो भने रकम फिर्ता हुँदैन।').waitFor()
    assert.match((await page.getByTestId('refund-warning').textContent()) ?? '', /२४ घण्टाभन्दा कम/)
    await page.getByLabel('भाषा').selectOption('en')
    await page.close()
  })

  test('the sign-in gate and the weekly series form show venue, court, date, time and price', async () => {
    const tomorrow = appDate(server, 1)
    const guest = await contextAt(browser, NOW)
    try {
      const page = await open(guest, server, `/book?court=${courtA.id}&date=${tomorrow}&start=07:00&end=08:00`)
      await page.getByText('Sign in or create an account to book. Your choice is kept.').waitFor()
      const gate = await facts(page)
      const grid = await call<{ slots: { start_time: string; price_per_hour: string }[] }>(
        'GET',
        `/api/courts/${courtA.id}/availability?date=${tomorrow}`,
      )
      const price = grid.slots.find((s) => s.start_time === '07:00')?.price_per_hour ?? ''
      for (const part of [
        'Baneshwor Futsal Arena',
        courtA.name,
        formatDate(tomorrow, 'en', { weekday: true }),
        '07:00–08:00',
        money(price, 'en'),
      ])
        assert.ok(gate.includes(part), `${part} in ${gate}`)
      assert.deepEqual(await axeViolations(page), [])
      await page.close()
    } finally {
      await guest.close()
    }

    const page = await open(
      phone,
      server,
      `/bookings/series/new?court=${courtA.id}&date=${tomorrow}&from=07:00&to=08:00`,
    )
    const firstWeek = appDate(server, 8)
    const series = await facts(page)
    for (const part of [
      'Baneshwor Futsal Arena',
      courtA.name,
      formatDate(firstWeek, 'en', { weekday: true }),
      '07:00–08:00',
    ])
      assert.ok(series.includes(part), `${part} in ${series}`)
    await page.getByText(/^Price of the first week/).waitFor()
    // Another time: the summary follows the form.
    await page.getByLabel('Start time').fill('09:00')
    await page.getByLabel('End time').fill('10:00')
    await page.getByTestId('slot-facts').getByText('09:00–10:00').waitFor()
    await page.close()
  })

  test('a staff member of one venue browses and books at another: nothing is "unauthorized"', async () => {
    const staff = await contextAt(browser, NOW)
    await signInAs(staff, server, 'staff@courtside.test')
    try {
      const page = await staff.newPage()
      const signed: string[] = []
      page.on('request', (r) => {
        const path = new URL(r.url()).pathname
        if (path.startsWith('/api/') && r.headers().authorization) signed.push(path)
      })
      await page.goto(`${server.url}/`)
      // The whole catalogue, not only the venue they work at.
      await page.getByRole('link', { name: 'Jhamsikhel Futsal' }).first().waitFor()
      await page.getByRole('link', { name: 'Jhamsikhel Futsal' }).first().click()
      await page.getByRole('heading', { name: 'Jhamsikhel Futsal', level: 1 }).waitFor()
      await page.getByRole('heading', { name: 'Book a slot' }).waitFor()
      await page.locator('.slot').first().waitFor()
      assert.equal(await page.getByText('This action is unauthorized.').count(), 0)
      await page.locator('button.slot.free').first().click()
      await page.getByRole('link', { name: 'Continue to book' }).click()
      await page.getByRole('button', { name: /^Book and pay/ }).waitFor()
      assert.equal(await page.getByText('This action is unauthorized.').count(), 0)
      // The catalogue went without the token; what is the staff member's own (the wallet) with it.
      const catalogue = signed.filter((p) => /^\/api\/(venues|courts|indoor-games|sports|amenities)/.test(p))
      assert.deepEqual(catalogue, [])
      assert.ok(signed.includes('/api/wallet'), signed.join(', '))
      // The venue show with their token is what the contract says: 403 for a venue they do not work at.
      const client = await login(server, 'staff@courtside.test')
      const shown = await client.GET('/api/venues/{venue}', { params: { path: { venue: 'jhamsikhel-futsal' } } })
      assert.equal(shown.response.status, 403)
      await page.close()
    } finally {
      await staff.close()
    }
  })
})
