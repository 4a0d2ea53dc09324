import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { Browser, Page } from 'playwright-core'
import { ManualClock } from '../../src/lib/clock.ts'
import { contextAt, eventually, launchBrowser, PHONE, startWebServer, type WebServer } from './browser.ts'

// Finding a venue on a phone: near me from the browser's location (and a city when the location is
// refused), an indoor game as the sport, and the orders (GET /api/venues with the demo venues).
// The catalogue without times is `/?date=any` (the start page itself opens on tonight's free times,
// test/web/tonight.test.ts).

const NOW = new Date('2026-12-01T03:15:00Z')

describe('finding a venue', () => {
  let server: WebServer
  let browser: Browser
  before(async () => {
    server = await startWebServer(new ManualClock(NOW))
    browser = await launchBrowser()
  })
  after(async () => {
    await browser?.close()
    await server?.close()
  })

  const names = async (page: Page) => {
    await page
      .getByRole('status')
      .filter({ hasText: /venues$/ })
      .waitFor()
    return page.locator('.venue-card h2').allTextContents()
  }
  /**
   * The names once the list shows what `ok` accepts: a new filter's answer replaces the previous list
   * a moment after the address changes, so one read can still see the old list (or none).
   */
  const namesWhen = async (page: Page, ok: (names: string[]) => boolean) => {
    let last: string[] = []
    await eventually(async () => {
      last = await names(page)
      return ok(last)
    }, 10_000).catch(() => undefined)
    return last
  }

  test('near me lists the nearest first with their distance; a refused location asks for a city', async () => {
    const context = await contextAt(browser, NOW, PHONE)
    // Standing in Maharajgunj, Kathmandu.
    await context.grantPermissions(['geolocation'], { origin: server.url })
    await context.setGeolocation({ latitude: 27.7365, longitude: 85.3302 })
    const page = await context.newPage()
    await page.goto(`${server.url}/?date=any`)
    await page.locator('.venue-card').first().waitFor()
    await page.getByRole('button', { name: 'Near me' }).click()
    await page.getByText('Venues nearest to you first.').waitFor()
    await page
      .getByText(/km away/)
      .first()
      .waitFor()
    const list = await names(page)
    assert.equal(list[0], 'Maharajgunj Kicks')
    const km = (await page.locator('.distance').allTextContents()).map((t) => Number(/([\d.]+) km/.exec(t)?.[1]))
    assert.deepEqual(
      km,
      [...km].sort((a, b) => a - b),
    )
    assert.equal(await page.getByLabel('Sort by').inputValue(), 'distance')
    await context.close()

    const refused = await contextAt(browser, NOW, PHONE)
    const other = await refused.newPage()
    await other.goto(`${server.url}/?date=any`)
    await other.getByRole('button', { name: 'Near me' }).click()
    await other.getByText('Your location is not available. Type a city instead.').waitFor()
    await other.getByLabel('City', { exact: true }).fill('Pokhara')
    await other.getByRole('button', { name: 'Search' }).click()
    await other.waitForURL(/city=Pokhara/)
    const pokhara = await names(other)
    assert.ok(pokhara.length > 0)
    assert.ok(pokhara.includes('Lakeside Sports Pokhara'), pokhara.join(', '))
    assert.ok(!pokhara.includes('Baneshwor Futsal Arena'))
    await refused.close()
  })

  test('an indoor game as the sport, and sorting by rating and by price', async () => {
    const context = await contextAt(browser, NOW, PHONE)
    const page = await context.newPage()
    await page.goto(`${server.url}/`)
    await page.locator('.venue-card').first().waitFor()
    await page.getByLabel('Sport').selectOption({ label: 'Carrom' })
    await page.waitForURL(/sport=carrom/)
    assert.deepEqual(await namesWhen(page, (n) => n.length === 1), ['Baneshwor Futsal Arena'])
    await page.getByLabel('Sport').selectOption({ label: 'Chess' })
    await page.waitForURL(/sport=chess/)
    assert.deepEqual(await namesWhen(page, (n) => n.includes('Maharajgunj Kicks')), ['Maharajgunj Kicks'])
    const indoor = await (async () => {
      await page.getByLabel('Sport').selectOption({ label: 'Any indoor sport or game' })
      await page.waitForURL(/sport=indoor/)
      return namesWhen(page, (n) => n.length > 1)
    })()
    assert.ok(indoor.includes('Baneshwor Futsal Arena') && indoor.includes('Maharajgunj Kicks'), indoor.join(', '))

    // The orders are the API's: the page lists what GET /api/venues answers, in its order.
    for (const sort of ['rating', 'price'] as const) {
      await page.goto(`${server.url}/?date=any`)
      await page.locator('.venue-card').first().waitFor()
      await page.getByLabel('Sort by').selectOption(sort)
      await page.waitForURL(new RegExp(`sort=${sort}`))
      const res = await fetch(`${server.url}/api/venues?sort=${sort}&per_page=30`)
      const api = ((await res.json()) as { data: { name: string }[] }).data.map((v) => v.name)
      assert.deepEqual(await namesWhen(page, (n) => n.join() === api.join()), api, sort)
    }
    await context.close()
  })
})
