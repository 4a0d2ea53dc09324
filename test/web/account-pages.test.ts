import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { seedDemo } from '../../src/cli/seed.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { lastOtp } from '../accounts/helpers.ts'
import {
  axeViolations,
  contextAt,
  DESKTOP,
  launchBrowser,
  open,
  PHONE,
  screenshot,
  signInAs,
  startWebServer,
  type WebServer,
} from './browser.ts'
import { appDate, bookCourt } from './helpers-account.ts'

// Every account page in real Chromium, on a phone (390 × 844) and a desktop, with axe-core's WCAG
// A/AA checks: the demo customer (with the demo venue's two months of history) reviews a game they
// played, books a court weekly from one of their bookings and cancels the series from a date on,
// gets the calendar link, reads the inbox, registers a team for the demo tournament and pays its
// fee from the wallet. Signed out: sign in and sign up.

const CUSTOMER = 'customer@courtside.test'
// The app's and the pages' now: a Tuesday, 09:00 in Kathmandu (never the machine's clock: the demo
// history, and so what the customer has played and holds in the wallet, is counted back from it).
const NOW = new Date('2026-12-01T03:15:00Z')

describe('the account pages', () => {
  let server: WebServer
  let browser: Browser
  before(async () => {
    server = await startWebServer(new ManualClock(NOW))
    const { zone, clock, config } = server.app.ctx
    await seedDemo(server.app.ctx.db, {
      zone,
      clock,
      history: true,
      commissionBasisPoints: config.platformCommissionBasisPoints,
    })
    browser = await launchBrowser()
  })
  after(async () => {
    await browser?.close()
    await server?.close()
  })

  async function clean(page: Page, where: string) {
    assert.deepEqual(await axeViolations(page), [], where)
  }

  async function customer(viewport: typeof PHONE | typeof DESKTOP): Promise<BrowserContext> {
    const context = await contextAt(browser, NOW, viewport)
    await signInAs(context, server, CUSTOMER)
    return context
  }

  test('phone: review after playing, a weekly series and its cancel, the calendar link', async () => {
    const context = await customer(PHONE)
    const login = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: CUSTOMER, password: server.seed.password }),
    })
    const { token } = (await login.json()) as { token: string }
    await bookCourt(server, token, appDate(server, 4), 1, false)
    await bookCourt(server, token, appDate(server, 5), 1, false, 'kalanki-sports-hub')
    const page = await open(context, server, '/bookings')
    await page.getByRole('heading', { name: 'My bookings' }).waitFor()
    await page.getByRole('button', { name: /^Past/ }).click()
    // Older bookings than the first page of each kind come on demand.
    const cards = page.locator('ul.cards > li')
    await cards.first().waitFor()
    const firstPage = await cards.count()
    const { total } = await server.app.ctx.db
      .selectFrom('bookings')
      .innerJoin('users', 'users.id', 'bookings.user_id')
      .select((eb) => eb.fn.countAll<string>().as('total'))
      .where('users.email', '=', CUSTOMER)
      .executeTakeFirstOrThrow()
    assert.ok(Number(total) > 100, `the demo customer has ${total} court bookings, more than a page`)
    await page.getByRole('button', { name: 'Show more' }).click()
    await page.waitForFunction((n) => document.querySelectorAll('ul.cards > li').length > n, firstPage)
    const played = page.getByRole('listitem').filter({ has: page.getByRole('button', { name: 'Write a review' }) })
    await played.first().getByRole('button', { name: 'Write a review' }).click()
    await page.getByRole('radio', { name: '4 of 5' }).check()
    await page.getByLabel('What was it like? (optional)').fill('Good turf, friendly staff.')
    await clean(page, 'review form')
    await page.getByRole('button', { name: 'Post review' }).click()
    await page.getByText('Thank you for your review.').waitFor()
    await page.getByRole('button', { name: 'Write a review' }).first().waitFor({ state: 'detached' })
    assert.equal(await page.getByRole('button', { name: 'Write a review' }).count(), 0, 'one review per venue')
    const review = await server.app.ctx.db
      .selectFrom('reviews')
      .innerJoin('users', 'users.id', 'reviews.user_id')
      .select(['reviews.rating', 'reviews.comment'])
      .where('users.email', '=', CUSTOMER)
      .executeTakeFirstOrThrow()
    assert.deepEqual([Number(review.rating), review.comment], [4, 'Good turf, friendly staff.'])

    // A weekly series from an upcoming booking.
    await page.getByRole('button', { name: /^Upcoming/ }).click()
    const at = (venue: string) =>
      page.getByRole('listitem').filter({ hasText: venue }).getByRole('link', { name: 'New weekly series' })
    await at('Kalanki Sports Hub').click()
    await page.getByRole('heading', { name: 'New weekly series' }).waitFor()
    await clean(page, 'new series')
    await page.getByLabel('Number of weeks').fill('3')
    await page.getByRole('button', { name: 'Book the series' }).click()
    await page.getByText(/^Every (Sun|Mon|Tue|Wed|Thu|Fri|Sat), \d\d:\d\d–\d\d:\d\d$/).waitFor()
    const weeks = page.locator('ul.rows li')
    // The form's own summary may say "Every …" too: the series' weeks are what was booked.
    await weeks.first().waitFor()
    const booked = await weeks.count()
    assert.ok(booked >= 1 && booked <= 3, `${booked} weeks listed`)
    await clean(page, 'series')
    await screenshot(page, 'web-series-phone')
    const seriesId = Number(new URL(page.url()).pathname.split('/').pop())
    const series = await server.app.ctx.db
      .selectFrom('bookings')
      .select(['date', 'status'])
      .where('series_id', '=', seriesId)
      .orderBy('date')
      .execute()
    assert.equal(series.length, booked)
    await page.getByLabel('Cancel from').fill(series[series.length - 1].date)
    await page.getByRole('button', { name: 'Cancel the rest of the series' }).click()
    await page.getByText(/^1 bookings of the series cancelled\./).waitFor()
    const after = await server.app.ctx.db
      .selectFrom('bookings')
      .select(['date', 'status'])
      .where('series_id', '=', seriesId)
      .orderBy('date')
      .execute()
    assert.equal(after[after.length - 1].status, 'cancelled', 'the last week is cancelled')
    if (after.length > 1) assert.notEqual(after[0].status, 'cancelled', 'weeks before the date stay')
    await page.goto(`${server.url}/bookings/series`)
    await page
      .getByRole('link', { name: /^Every / })
      .first()
      .waitFor()
    await clean(page, 'series list')

    // The calendar subscription link.
    await page.goto(`${server.url}/bookings`)
    await page.getByRole('button', { name: 'Calendar link' }).click()
    const link = await page.getByLabel('Subscription link').inputValue()
    assert.match(link, /\/api\/calendar\/[^/]+\.ics$/)
    const ics = await fetch(link)
    assert.equal(ics.status, 200)
    assert.match(await ics.text(), /BEGIN:VCALENDAR/)
    await clean(page, 'my bookings with the calendar link')
    await context.close()
  })

  test('phone: the profile turns booking messages by SMS off and on again', async () => {
    const context = await customer(PHONE)
    const page = await open(context, server, '/account')
    await page.getByRole('heading', { name: 'Messages about your bookings' }).waitFor()
    const sms = page.getByLabel('By SMS to my phone')
    const email = page.getByLabel('By email (once it is verified)')
    assert.equal(await sms.isChecked(), true)
    assert.equal(await email.isChecked(), true)
    await clean(page, 'profile')
    const settings = () =>
      server.app.ctx.db
        .selectFrom('users')
        .select(['notify_sms', 'notify_email'])
        .where('email', '=', CUSTOMER)
        .executeTakeFirstOrThrow()
    await sms.uncheck()
    await page.getByText('Saved').first().waitFor()
    assert.deepEqual(await settings(), { notify_sms: false, notify_email: true })
    await page.getByLabel('By SMS to my phone').check()
    for (let i = 0; i < 50 && !(await settings()).notify_sms; i++) await page.waitForTimeout(100)
    assert.deepEqual(await settings(), { notify_sms: true, notify_email: true })
    await context.close()
  })

  test('phone: the inbox, and a team registered for the demo tournament with its fee paid', async () => {
    const context = await customer(PHONE)
    const page = await open(context, server, '/notifications')
    await page.getByRole('heading', { name: 'Notifications' }).waitFor()
    await page.locator('#main [aria-busy]').waitFor({ state: 'detached' })
    await clean(page, 'notifications')
    if (await page.getByRole('button', { name: 'Mark all as read' }).count()) {
      await page.getByRole('button', { name: 'Mark all as read' }).click()
      await page.getByRole('button', { name: 'Mark all as read' }).waitFor({ state: 'detached' })
      assert.equal(await page.getByText('Unread', { exact: true }).count(), 0)
    }

    await page.goto(`${server.url}/tournaments`)
    await page.getByRole('link', { name: 'Baneshwor Winter Futsal Cup' }).click()
    await page.getByRole('heading', { name: 'Baneshwor Winter Futsal Cup' }).waitFor()
    await clean(page, 'tournament')
    await page.getByLabel('Team name').fill('Thamel Tigers')
    await page.getByLabel('Players, one per line (optional)').fill('Sita\nHari\nGita')
    await page.getByRole('button', { name: 'Register a team' }).click()
    await page.getByText('Team Thamel Tigers is registered.').waitFor()
    await page.getByRole('button', { name: /^Pay the entry fee \(Rs 3,000\.00\) from the wallet$/ }).click()
    await page.getByText('Entry fee paid: Rs 3,000.00.').waitFor()
    const team = await server.app.ctx.db
      .selectFrom('tournament_teams')
      .select(['fee_paid'])
      .where('name', '=', 'Thamel Tigers')
      .executeTakeFirstOrThrow()
    assert.equal(Number(team.fee_paid), 300000, 'Rs 3,000.00 in paisa')
    await page.getByRole('listitem').filter({ hasText: 'Thamel Tigers' }).waitFor()
    await context.close()
  })

  for (const [name, viewport] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    test(`${name}: axe finds nothing on any account page, in English and in Nepali`, async () => {
      const context = await customer(viewport)
      const page = await context.newPage()
      const pages: Array<[string, string]> = [
        ['/bookings', 'My bookings'],
        ['/bookings/series', 'Weekly series'],
        ['/wallet', 'Wallet'],
        ['/notifications', 'Notifications'],
        ['/tournaments', 'Tournaments'],
        ['/account', 'Profile'],
      ]
      for (const lang of ['en', 'ne'] as const) {
        await page.goto(`${server.url}/`)
        await page.evaluate((l) => localStorage.setItem('courtside.lang', l), lang)
        for (const [path, heading] of pages) {
          await page.goto(`${server.url}${path}`)
          await page.locator('h1').first().waitFor()
          if (lang === 'en') await page.getByRole('heading', { name: heading, level: 1 }).waitFor()
          await page.locator('#main [aria-busy]').first().waitFor({ state: 'detached' })
          await clean(page, `${path} (${lang})`)
        }
      }
      await page.goto(`${server.url}/`)
      await page.evaluate(() => localStorage.setItem('courtside.lang', 'en'))
      if (name === 'phone') {
        await page.goto(`${server.url}/wallet`)
        await page.getByTestId('balance').waitFor()
        await screenshot(page, 'web-wallet-phone')
      }
      await context.close()

      const visitor = await contextAt(browser, NOW, viewport)
      for (const [path, heading] of [
        ['/signin', 'Sign in'],
        ['/signup', 'Create an account'],
        ['/bookings', 'My bookings'],
      ]) {
        const p = await open(visitor, server, path)
        await p.getByRole('heading', { name: heading, level: 1 }).waitFor()
        await clean(p, `${path} signed out`)
        await p.close()
      }
      const signIn = await open(visitor, server, '/signin?next=/wallet')
      if (name === 'phone') {
        // A one-time code by SMS (read from the service's outbox, as the phone would receive it).
        const phone = '+9779800000004'
        await signIn.getByLabel('With a one-time code').check()
        await signIn.getByLabel('Email or mobile number').fill(phone)
        await signIn.getByRole('button', { name: 'Send code' }).click()
        await signIn.getByText(`A code was sent to ${phone}.`).waitFor()
        await signIn.getByLabel('One-time code', { exact: true }).fill(await lastOtp(server.app, phone))
        await clean(signIn, 'sign in with a code')
        await signIn.getByRole('button', { name: 'Verify and sign in' }).click()
      } else {
        await signIn.getByLabel('Email or mobile number').fill(CUSTOMER)
        await signIn.getByLabel('Password', { exact: true }).fill(server.seed.password)
        await signIn.getByRole('button', { name: 'Sign in' }).last().click()
      }
      await signIn.getByRole('heading', { name: 'Wallet' }).waitFor()
      await visitor.close()
    })
  }
})
