import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import type { Browser, BrowserContext } from 'playwright-core'
import { ManualClock } from '../../src/lib/clock.ts'
import {
  contextAt,
  DESKTOP,
  launchBrowser,
  measuredBudget,
  PHONE,
  startWebServer,
  type WebServer,
  webDir,
} from './browser.ts'

// A venue's own page and its widget work inside an <iframe> on another origin (a page served on a
// second local port frames them), while the start page is refused; and the first load of / stays
// within its budget of 100 KB of JavaScript gzipped, counted from what Chromium really fetched.

const NOW = new Date('2026-12-01T03:15:00Z')
const SLUG = 'baneshwor-futsal-arena'
const BUDGET = 100 * 1024

describe('framing and the first-load budget', () => {
  let server: WebServer
  let browser: Browser
  let host: Server
  let hostUrl: string
  before(async () => {
    server = await startWebServer(new ManualClock(NOW))
    browser = await launchBrowser()
    // Another site (another origin: another port, and "localhost" rather than 127.0.0.1).
    host = createServer((_req, res) => {
      res.setHeader('content-type', 'text/html; charset=utf-8')
      res.end(
        `<!doctype html><html lang="en"><head><title>A venue's site</title></head><body>` +
          `<iframe title="page" src="${server.url}/v/${SLUG}" width="390" height="700"></iframe>` +
          `<iframe title="widget" src="${server.url}/embed/v/${SLUG}" width="390" height="700"></iframe>` +
          `<iframe title="start" src="${server.url}/" width="390" height="300"></iframe>` +
          `</body></html>`,
      )
    })
    await new Promise<void>((done) => host.listen(0, '127.0.0.1', done))
    hostUrl = `http://localhost:${(host.address() as AddressInfo).port}/`
  })
  after(async () => {
    await browser?.close()
    await new Promise((done) => host?.close(done))
    await server?.close()
  })

  test('/v/{slug} and /embed/v/{slug} render inside another origin’s iframe; / is refused', async () => {
    const context: BrowserContext = await contextAt(browser, NOW, DESKTOP)
    const page = await context.newPage()
    const refused: string[] = []
    page.on('console', (msg) => {
      if (/frame-ancestors|Refused to frame/i.test(msg.text())) refused.push(msg.text())
    })
    await page.goto(hostUrl)
    for (const title of ['page', 'widget']) {
      const frame = page.frameLocator(`iframe[title="${title}"]`)
      await frame.getByRole('heading', { name: 'Baneshwor Futsal Arena' }).waitFor()
      await frame.locator('button.slot.free').first().click()
      // Booking leaves the frame: a new tab on the app, where the customer signs in and pays.
      const link = frame.getByRole('link', { name: 'Continue to book' })
      assert.equal(await link.getAttribute('target'), '_blank', title)
      assert.match((await link.getAttribute('href')) ?? '', /^\/book\?court=\d+&date=2026-12-01&start=\d\d:\d\d&end=/)
    }
    // The widget has no site header; the page has.
    const widget = page.frameLocator('iframe[title="widget"]')
    assert.equal(await widget.getByRole('link', { name: 'Courtside', exact: true }).count(), 0)
    await widget.getByRole('link', { name: 'Open on Courtside' }).waitFor()
    // The start page is not shown in the frame: Chromium refuses it (frame-ancestors 'none').
    const start = page.frames().find((f) => f.name() === '' && f.parentFrame() && !f.url().includes('/v/'))
    assert.ok(start)
    await page.waitForTimeout(300)
    assert.notEqual(start.url(), `${server.url}/`)
    assert.equal(await page.frameLocator('iframe[title="start"]').locator('#main').count(), 0)
    assert.ok(refused.length > 0, 'Chromium reports the refusal')
    await context.close()
  })

  test(`the first load of / fetches at most ${BUDGET / 1024} KB of JavaScript gzipped`, async () => {
    const context = await contextAt(browser, NOW, PHONE)
    const page = await context.newPage()
    const scripts = new Set<string>()
    page.on('request', (req) => {
      if (req.resourceType() === 'script') scripts.add(new URL(req.url()).pathname)
    })
    await page.goto(`${server.url}/`, { waitUntil: 'networkidle' })
    await page.getByRole('heading', { name: 'Play tonight' }).waitFor()
    assert.ok(scripts.size > 0)
    let gzipped = 0
    for (const path of scripts) gzipped += readFileSync(join(webDir, `${path}.gz`)).length
    assert.ok(gzipped <= BUDGET, `${(gzipped / 1024).toFixed(1)} KB gzipped`)
    // The build measured the same scripts (scripts/build-web.mjs fails a build over the budget).
    assert.equal(measuredBudget().firstLoadJsGzip, gzipped)
    await context.close()
  })
})
