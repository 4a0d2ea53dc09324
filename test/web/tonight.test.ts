import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { Browser, Locator, Page } from 'playwright-core'
import { ManualClock } from '../../src/lib/clock.ts'
import { money } from '../../web/src/i18n/format.ts'
import {
  axeViolations,
  contextAt,
  eventually,
  launchBrowser,
  PHONE,
  screenshot,
  signInAs,
  startWebServer,
  type WebServer,
} from './browser.ts'

// "Play tonight" (issue 47) on a phone: the start page searches tonight's free times
// (GET /api/venues?date=&from=18:00&to=21:00&duration=60&sort=soonest), the cards show the photo,
// the from-price, the rating and the distance, and a free time goes straight to booking it, paid
// through the eSewa sandbox. The server runs on a ManualClock and the pages' clocks read the same
// instant (or a later one the same day, for "tomorrow evening").

const NOW = new Date('2026-12-01T03:15:00Z') // Tuesday 09:00 in Kathmandu
const TODAY = '2026-12-01'
const TOMORROW = '2026-12-02'
const LATE = new Date('2026-12-01T14:50:00Z') // 20:35 in Kathmandu: this evening is over
const CUSTOMER = 'customer@courtside.test'
const MAHARAJGUNJ = { latitude: 27.7365, longitude: 85.3302 }

interface ApiVenue {
  name: string
  min_price: string | null
  rating: number | null
  reviews_count: number
  distance_km?: number
  free_slots?: { name: string; start_time: string; end_time: string; price: string }[]
}

describe('Play tonight', () => {
  let server: WebServer
  let browser: Browser
  before(async () => {
    server = await startWebServer(new ManualClock(NOW))
    browser = await launchBrowser()
    const db = server.app.ctx.db
    // Two approved reviews of Baneshwor Futsal Arena (5 and 4), with the venue's denormalised
    // average and count as the reviews module keeps them; and Kalanki without its photos.
    const venue = await db
      .selectFrom('venues')
      .select('id')
      .where('slug', '=', 'baneshwor-futsal-arena')
      .executeTakeFirstOrThrow()
    const users = await db
      .selectFrom('users')
      .select('id')
      .where('email', 'in', [CUSTOMER, 'staff@courtside.test'])
      .execute()
    await db
      .insertInto('reviews')
      .values(users.map((u, i) => ({ venue_id: venue.id, user_id: u.id, rating: 5 - i, is_approved: true })))
      .execute()
    await db
      .updateTable('venues')
      .set({ reviews_count: 2, reviews_avg_rating: '4.5' })
      .where('id', '=', venue.id)
      .execute()
    const kalanki = await db
      .selectFrom('venues')
      .select('id')
      .where('slug', '=', 'kalanki-sports-hub')
      .executeTakeFirstOrThrow()
    await db.deleteFrom('media').where('model_type', '=', 'venue').where('model_id', '=', kalanki.id).execute()
  })
  after(async () => {
    await browser?.close()
    await server?.close()
  })

  const card = (page: Page, name: string): Locator =>
    page.locator('.venue-card').filter({ has: page.getByRole('heading', { name, exact: true }) })

  /** The venue list as the API answers the same search (the page shows it in this order). */
  async function apiVenues(query: string): Promise<ApiVenue[]> {
    const res = await fetch(`${server.url}/api/venues?${query}`)
    assert.equal(res.status, 200, await res.clone().text())
    return ((await res.json()) as { data: ApiVenue[] }).data
  }

  test('home searches tonight near me; a free time is booked and paid through eSewa', async () => {
    const context = await contextAt(browser, NOW, PHONE)
    await context.grantPermissions(['geolocation'], { origin: server.url })
    await context.setGeolocation(MAHARAJGUNJ)
    await signInAs(context, server, CUSTOMER)
    const page = await context.newPage()
    await page.goto(`${server.url}/`)
    await page.getByRole('heading', { name: 'Play tonight' }).waitFor()
    assert.equal(await page.getByLabel('Day').inputValue(), TODAY)
    assert.equal(await page.getByLabel('From').inputValue(), '18:00')
    assert.equal(await page.getByLabel('Until').inputValue(), '21:00')
    assert.equal(await page.getByLabel('Playing for').inputValue(), '60')
    assert.equal(await page.getByLabel('Sort by').inputValue(), 'soonest')

    await page.getByRole('button', { name: 'Near me' }).click()
    await page.getByText('Venues nearest to you first.').waitFor()
    await page.locator('.venue-card .distance').first().waitFor()
    // The page lists what the free-time search answers, soonest first, with each card's facts.
    const near = `lat=${MAHARAJGUNJ.latitude}&lng=${MAHARAJGUNJ.longitude}`
    const api = await apiVenues(`date=${TODAY}&from=18:00&to=21:00&duration=60&sort=soonest&per_page=30&${near}`)
    assert.ok(api.length > 0)
    let shown: string[] = []
    await eventually(async () => {
      shown = await page.locator('.venue-card h2').allTextContents()
      return shown.join() === api.map((v) => v.name).join()
    }, 10_000).catch(() => undefined)
    assert.deepEqual(
      shown,
      api.map((v) => v.name),
    )
    assert.equal(await page.getByLabel('Sort by').inputValue(), 'soonest')
    for (const v of api) {
      const c = card(page, v.name)
      const text = (await c.textContent()) ?? ''
      assert.ok(
        v.distance_km !== undefined && text.includes(`${v.distance_km.toFixed(1)} km away`),
        `${v.name}: ${text}`,
      )
      if (v.min_price) assert.ok(text.includes(`From ${money(v.min_price, 'en')} an hour`), `${v.name}: ${text}`)
      const times = await c.locator('.free-times a').allTextContents()
      assert.deepEqual(
        times.map((t) => t.replace(/–\d\d:\d\d/, '')),
        (v.free_slots ?? []).map((s) => `${s.start_time} ${s.name} ${money(s.price, 'en')}`),
        v.name,
      )
    }

    // Baneshwor's card: its photo (lazy, from the app's storage, loaded once scrolled to), its
    // from-price, its rating of 4.5 from 2 reviews.
    const baneshwor = card(page, 'Baneshwor Futsal Arena')
    const photo = baneshwor.locator('img.venue-photo')
    assert.equal(await photo.getAttribute('loading'), 'lazy')
    assert.match((await photo.getAttribute('src')) ?? '', /\/storage\/venues\/\d+\/.+\.webp$/)
    await photo.scrollIntoViewIfNeeded()
    await eventually(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), 10_000)
    assert.match((await baneshwor.textContent()) ?? '', /Rated 4\.5 out of 5.*\(2 reviews\)/)
    const minPrice = api.find((v) => v.name === 'Baneshwor Futsal Arena')?.min_price
    assert.ok(minPrice)
    assert.equal(await baneshwor.locator('.from-price').textContent(), `From ${money(minPrice, 'en')} an hour`)
    // Kalanki has no photo: the drawn placeholder keeps the card's shape.
    await card(page, 'Kalanki Sports Hub').locator('svg.venue-photo.none').waitFor()
    assert.deepEqual(await axeViolations(page), [])
    await baneshwor.scrollIntoViewIfNeeded()
    await screenshot(page, 'web-tonight-phone')

    // Its first free time goes straight to the booking page with that court, day and time.
    const first = (api.find((v) => v.name === 'Baneshwor Futsal Arena')?.free_slots ?? [])[0]
    assert.ok(first, 'Baneshwor has a free time tonight')
    await baneshwor.locator('.free-times a').first().click()
    await page.getByRole('heading', { name: 'Your booking' }).waitFor()
    const url = new URL(page.url())
    assert.equal(url.pathname, '/book')
    assert.equal(url.searchParams.get('date'), TODAY)
    assert.equal(url.searchParams.get('start'), first.start_time)
    await page.getByText(first.name, { exact: true }).waitFor()
    // The price on the card is what the booking costs.
    assert.equal(await page.getByTestId('total').textContent(), money(first.price, 'en'))
    await page.getByRole('radio', { name: 'eSewa' }).check()
    await page.getByRole('button', { name: /^Book and pay/ }).click()
    await page.getByRole('button', { name: 'Pay', exact: true }).click()
    await page.waitForURL(/\/payments\/\d+\/return$/)
    await page.getByText(/^Paid Rs /).waitFor()
    assert.match((await page.getByRole('status').first().textContent()) ?? '', /Confirmed/)
    const paymentId = Number(/\/payments\/(\d+)\/return/.exec(page.url())?.[1])
    const booking = await server.app.ctx.db
      .selectFrom('payments as p')
      .innerJoin('bookings as b', 'b.id', 'p.payable_id')
      .innerJoin('courts as c', 'c.id', 'b.court_id')
      .select(['p.status as payment', 'b.status', 'c.name'])
      .select((eb) => [eb.cast<string>('b.date', 'text').as('date')])
      .where('p.id', '=', paymentId)
      .executeTakeFirstOrThrow()
    assert.equal(booking.payment, 'completed')
    assert.equal(booking.status, 'confirmed')
    assert.equal(booking.name, first.name)
    assert.equal(booking.date, TODAY)

    // Back on the start page, that time is no longer offered at Baneshwor.
    await page.goto(`${server.url}/`)
    await baneshwor.locator('.free-times a').first().waitFor()
    const after = await baneshwor.locator('.free-times a').allTextContents()
    assert.ok(!after.some((t) => t.startsWith(`${first.start_time}–`) && t.includes(first.name)), after.join(' | '))
    await context.close()
  })

  test('the search changes with the day, times and length; any day lists the catalogue; Nepali', async () => {
    const context = await contextAt(browser, NOW, PHONE)
    const page = await context.newPage()
    await page.goto(`${server.url}/`)
    await page.locator('.venue-card').first().waitFor()

    // Tomorrow morning, 90 minutes of badminton-or-anything from 06:00 to 08:00.
    await page.getByLabel('Day').selectOption(TOMORROW)
    await page.getByRole('heading', { name: 'Play tomorrow' }).waitFor()
    await page.getByLabel('From').selectOption('06:00')
    await page.getByLabel('Until').selectOption('08:00')
    await page.getByLabel('Playing for').selectOption('90')
    await page.waitForURL(/duration=90/)
    const url = new URL(page.url())
    assert.deepEqual(
      ['date', 'from', 'to', 'duration'].map((k) => url.searchParams.get(k)),
      [TOMORROW, '06:00', '08:00', '90'],
    )
    const api = await apiVenues(`date=${TOMORROW}&from=06:00&to=08:00&duration=90&sort=soonest&per_page=30`)
    let times: string[] = []
    await eventually(async () => {
      times = await page.locator('.free-times a strong').allTextContents()
      return times.length === api.flatMap((v) => v.free_slots ?? []).length
    }, 10_000).catch(() => undefined)
    assert.deepEqual(
      times,
      api.flatMap((v) => v.free_slots ?? []).map((s) => `${s.start_time}–${s.end_time}`),
    )
    assert.ok(times.length > 0)
    for (const t of times) assert.ok(t >= '06:00' && t < '08:00', t)

    // Any day or time: the catalogue as before (no free times, no "soonest" order).
    await page.getByLabel('Day').selectOption('any')
    await page.getByRole('heading', { name: 'Find a court' }).waitFor()
    await page.waitForURL(/date=any/)
    const all = await apiVenues('sort=recommended&per_page=30')
    await eventually(async () => (await page.locator('.venue-card').count()) === all.length, 10_000)
    assert.equal(await page.locator('.free-times').count(), 0)
    assert.equal(await page.getByLabel('From').count(), 0)
    assert.ok(!(await page.getByLabel('Sort by').locator('option').allTextContents()).includes('Soonest free'))

    // In Nepali: the title, the times and the money in Devanagari digits.
    await page.goto(`${server.url}/`)
    await page.getByLabel('Language').selectOption('ne')
    await page.getByRole('heading', { name: 'आज बेलुका खेल्नुहोस्' }).waitFor()
    await page.locator('.free-times a').first().waitFor()
    assert.match((await page.locator('.from-price').first().textContent()) ?? '', /^प्रति घण्टा रु [०-९,]+\.०० देखि$/)
    assert.match((await page.locator('.free-times a strong').first().textContent()) ?? '', /^[०-९]{2}:[०-९]{2}–/)
    assert.deepEqual(await axeViolations(page), [])
    await context.close()
  })

  test('late in the evening the start page opens on tomorrow evening', async () => {
    const context = await contextAt(browser, LATE, PHONE)
    const page = await context.newPage()
    await page.goto(`${server.url}/`)
    await page.getByRole('heading', { name: 'Play tomorrow' }).waitFor()
    assert.equal(await page.getByLabel('Day').inputValue(), TOMORROW)
    assert.equal(await page.getByLabel('From').inputValue(), '18:00')
    await page.locator('.free-times a').first().waitFor()
    const href = (await page.locator('.free-times a').first().getAttribute('href')) ?? ''
    assert.match(
      href,
      new RegExp(`^/book\\?(court|game)=\\d+&date=${TOMORROW}&start=(18|19|20):\\d\\d&end=\\d\\d:\\d\\d$`),
    )
    await context.close()
  })
})
