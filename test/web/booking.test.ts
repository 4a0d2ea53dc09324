import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { ManualClock } from '../../src/lib/clock.ts'
import {
  axeViolations,
  contextAt,
  launchBrowser,
  login,
  screenshot,
  signInAs,
  startWebServer,
  topUp,
  type WebServer,
} from './browser.ts'

// A customer on a phone (390 × 844) finds a venue, picks a slot on tomorrow's grid, books it and
// pays with each sandbox gateway (eSewa, Khalti, Fonepay) and with the wallet; the return page shows
// the payment settled as GET /api/payments/{payment} says. Coupons, pay at the venue and the
// waitlist on a taken slot go through the same pages.

const NOW = new Date('2026-12-01T03:15:00Z') // 09:00 in Kathmandu
const CUSTOMER = 'customer@courtside.test'

describe('booking and paying in the web app', () => {
  let server: WebServer
  let browser: Browser
  let phone: BrowserContext
  before(async () => {
    server = await startWebServer(new ManualClock(NOW))
    browser = await launchBrowser()
    phone = await contextAt(browser, NOW)
    await signInAs(phone, server, CUSTOMER)
  })
  after(async () => {
    await phone?.close()
    await browser?.close()
    await server?.close()
  })

  /** Finds Baneshwor Futsal Arena from the start page and opens tomorrow's grid of its first court. */
  async function openVenue(page: Page) {
    await page.goto(`${server.url}/`)
    await page.getByLabel('Venue, city or area').fill('Baneshwor')
    await page.getByRole('button', { name: 'Search' }).click()
    await page.getByRole('link', { name: 'Baneshwor Futsal Arena' }).click()
    await page.getByRole('heading', { name: 'Book a slot' }).waitFor()
    await page.getByRole('group', { name: 'Day' }).getByRole('button').nth(1).click()
    await page.locator('.slot').first().waitFor()
  }

  /**
   * Picks the first free slot (and the one after it when `two`), and goes on to the booking page.
   * Each test books its own: what the tests before booked or hold is taken.
   */
  async function pickSlots(page: Page, two = false) {
    const free = page.locator('button.slot.free')
    const first = free.first()
    const time = (await first.locator('span').first().textContent()) ?? ''
    await first.click()
    if (two) await free.nth(1).click()
    await page.getByRole('link', { name: 'Continue to book' }).click()
    await page.getByRole('heading', { name: 'Your booking' }).waitFor()
    return time
  }

  /** Waits for the return page to say the payment is paid; its id from the address. */
  async function settled(page: Page): Promise<number> {
    await page.waitForURL(/\/payments\/\d+\/return$/)
    await page.getByText(/^Paid Rs /).waitFor()
    return Number(/\/payments\/(\d+)\/return/.exec(page.url())?.[1])
  }

  async function paymentRow(id: number) {
    return server.app.ctx.db
      .selectFrom('payments')
      .select(['status', 'method', 'amount', 'payable_id'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
  }

  async function bookingStatus(id: number) {
    const row = await server.app.ctx.db
      .selectFrom('bookings')
      .select('status')
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
    return row.status
  }

  for (const [gateway, label] of [
    ['gateway_1', 'eSewa'],
    ['gateway_2', 'Khalti'],
    ['gateway_3', 'Fonepay'],
  ] as const) {
    test(`finds a venue, books a slot and pays with ${label} through the sandbox`, async () => {
      const page = await phone.newPage()
      await openVenue(page)
      await pickSlots(page)
      const total = (await page.getByTestId('total').textContent()) ?? ''
      assert.match(total, /^Rs \d/)
      await page.getByRole('radio', { name: label }).check()
      await page.getByRole('button', { name: /^Book and pay/ }).click()
      // The gateway's own page (the in-service sandbox), then back to the app.
      await page.getByRole('button', { name: 'Pay', exact: true }).click()
      const id = await settled(page)
      const payment = await paymentRow(id)
      assert.equal(payment.method, gateway)
      assert.equal(payment.status, 'completed')
      assert.equal(await bookingStatus(payment.payable_id), 'confirmed')
      assert.match((await page.getByRole('status').first().textContent()) ?? '', /Confirmed/)
      if (gateway === 'gateway_1') await screenshot(page, 'web-phone-paid')
      await page.close()
    })
  }

  test('a cancelled gateway payment is shown as not paid, as the service says', async () => {
    const page = await phone.newPage()
    await openVenue(page)
    await pickSlots(page)
    await page.getByRole('radio', { name: 'Khalti' }).check()
    await page.getByRole('button', { name: /^Book and pay/ }).click()
    await page.getByRole('button', { name: 'Cancel', exact: true }).click()
    await page.waitForURL(/\/payments\/\d+\/return$/)
    await page.getByText('The payment did not go through. Nothing was taken.').waitFor()
    const id = Number(/\/payments\/(\d+)\/return/.exec(page.url())?.[1])
    assert.equal((await paymentRow(id)).status, 'failed')
    await page.close()
  })

  test('pays from the wallet after a top-up, with a coupon taken off the price', async () => {
    const venue = await server.app.ctx.db
      .selectFrom('venues')
      .select('id')
      .where('slug', '=', 'baneshwor-futsal-arena')
      .executeTakeFirstOrThrow()
    const owner = await login(server, 'owner1@courtside.test')
    const coupon = await owner.POST('/api/venues/{venue}/coupons', {
      params: { path: { venue: String(venue.id) } },
      body: { code: 'WEB10', type: 'percent', value: 10 },
    })
    assert.equal(coupon.response.status, 201)
    await topUp(server, CUSTOMER, '10000.00')

    const page = await phone.newPage()
    await openVenue(page)
    await pickSlots(page, true)
    const before = (await page.getByTestId('total').textContent()) ?? ''
    await page.getByLabel('Coupon code').fill('web10')
    await page.getByRole('button', { name: 'Apply' }).click()
    await page.getByText(/^Coupon WEB10: Rs [\d,.]+ off\./).waitFor()
    const after = (await page.getByTestId('total').textContent()) ?? ''
    assert.notEqual(after, before)
    assert.equal(money(after), Math.round(money(before) * 0.9 * 100) / 100)
    await page.getByRole('radio', { name: /^Wallet/ }).check()
    await page.getByRole('button', { name: /^Book and pay/ }).click()
    const id = await settled(page)
    const payment = await paymentRow(id)
    assert.equal(payment.method, 'wallet')
    assert.equal(payment.status, 'completed')
    assert.equal(Number(payment.amount) / 100, money(after))
    assert.equal(await bookingStatus(payment.payable_id), 'confirmed')
    await page.close()
  })

  test('pays at the venue: the booking is held unpaid until it starts', async () => {
    const page = await phone.newPage()
    await openVenue(page)
    await pickSlots(page)
    await page.getByRole('radio', { name: /^Pay at the venue/ }).check()
    await page.getByRole('button', { name: /^Book and pay/ }).click()
    await page.getByRole('heading', { name: 'Booked' }).waitFor()
    const text = (await page.getByRole('status').textContent()) ?? ''
    const number = /Booking (BK-\d{4}-\d{6})/.exec(text)?.[1]
    assert.ok(number, text)
    const row = await server.app.ctx.db
      .selectFrom('bookings')
      .select(['status', 'payment_method'])
      .where('booking_number', '=', number)
      .executeTakeFirstOrThrow()
    assert.deepEqual(row, { status: 'pending', payment_method: 'cash' })
    await page.close()
  })

  test('a venue that turned paying at the venue off does not offer it (issue 34)', async () => {
    const owner = await login(server, 'owner1@courtside.test')
    const { data: venues } = await owner.GET('/api/venues/my-venues')
    const arena = venues?.find((v) => v.name === 'Baneshwor Futsal Arena')
    assert.ok(arena, 'the demo owner runs Baneshwor Futsal Arena')
    const setPayAtVenue = async (allows: boolean) => {
      const { data } = await owner.PATCH('/api/venues/{venue}', {
        params: { path: { venue: String(arena.id) } },
        body: { allows_pay_at_venue: allows },
      })
      assert.equal(data?.data.allows_pay_at_venue, allows)
    }
    await setPayAtVenue(false)
    try {
      const page = await phone.newPage()
      await openVenue(page)
      await pickSlots(page)
      const methods = page.getByRole('group', { name: 'How to pay' })
      await methods.getByRole('radio', { name: /^Khalti/ }).waitFor()
      assert.equal(await methods.getByRole('radio').count(), 4)
      assert.equal(await methods.getByRole('radio', { name: /^Pay at the venue/ }).count(), 0)
      await methods.getByText('This venue takes online payment only: paying at the venue is not offered.').waitFor()
      assert.deepEqual(await axeViolations(page), [])
      await page.close()
    } finally {
      await setPayAtVenue(true)
    }
    // Turned on again, the option is back.
    const page = await phone.newPage()
    await openVenue(page)
    await pickSlots(page)
    await page.getByRole('radio', { name: /^Pay at the venue/ }).waitFor()
    await page.close()
  })

  test("an indoor game's booking page offers paying at the venue as the game says, with no request for the venue", async () => {
    const owner = await login(server, 'owner1@courtside.test')
    const { data: venues } = await owner.GET('/api/venues/my-venues')
    const arena = venues?.find((v) => v.name === 'Baneshwor Futsal Arena')
    assert.ok(arena, 'the demo owner runs Baneshwor Futsal Arena')
    const { data: games } = await owner.GET('/api/venues/{venue}/indoor-games', {
      params: { path: { venue: String(arena.id) } },
    })
    const game = games?.data[0]
    assert.ok(game, 'the demo venue has indoor games')
    const setPayAtVenue = async (allows: boolean) => {
      const { data } = await owner.PATCH('/api/venues/{venue}', {
        params: { path: { venue: String(arena.id) } },
        body: { allows_pay_at_venue: allows },
      })
      assert.equal(data?.data.allows_pay_at_venue, allows)
    }
    /** The booking page of the game's 10:00 tomorrow: its payment methods, and the API paths it asked. */
    const bookingPage = async () => {
      const page = await phone.newPage()
      const asked: string[] = []
      page.on('request', (r) => {
        const path = new URL(r.url()).pathname
        if (path.startsWith('/api/')) asked.push(path)
      })
      await page.goto(`${server.url}/book?game=${game.id}&date=2026-12-02&start=10:00&end=11:00`)
      const methods = page.getByRole('group', { name: 'How to pay' })
      await methods.getByRole('radio', { name: /^Khalti/ }).waitFor()
      return { page, methods, asked }
    }
    await setPayAtVenue(false)
    try {
      const { page, methods, asked } = await bookingPage()
      assert.equal(await methods.getByRole('radio', { name: /^Pay at the venue/ }).count(), 0)
      await methods.getByText('This venue takes online payment only: paying at the venue is not offered.').waitFor()
      assert.deepEqual(
        asked.filter((path) => path.startsWith('/api/venues/')),
        [],
        `the game's own answer says it: ${asked.join(', ')}`,
      )
      await page.close()
    } finally {
      await setPayAtVenue(true)
    }
    const { page, methods } = await bookingPage()
    await methods.getByRole('radio', { name: /^Pay at the venue/ }).waitFor()
    await page.close()
  })

  test('a taken slot offers the waitlist; joining it puts the customer on it', async () => {
    const page = await phone.newPage()
    await openVenue(page)
    // The eSewa test booked the first free slot of tomorrow: it is taken now.
    await page
      .getByRole('button', { name: /Taken · wait for it/ })
      .first()
      .click()
    await page.getByRole('button', { name: 'Join the waitlist' }).click()
    await page.getByText(/^You are on the waitlist for /).waitFor()
    const entries = await server.app.ctx.db.selectFrom('waitlist_entries').select('id').execute()
    assert.equal(entries.length, 1)
    await page.close()
  })
})

/** "Rs 1,350.00" → 1350. */
function money(text: string): number {
  return Number(text.replace(/[^\d.]/g, ''))
}
