import assert from 'node:assert/strict'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, test } from 'node:test'
import type { Browser } from 'playwright-core'
import { ManualClock } from '../../src/lib/clock.ts'
import { type ConsoleServer, demoVenueId, signIn, startConsoleServer } from '../console/browser.ts'
import { axeViolations, contextAt, DESKTOP, ensureWebBuilt, freePort, launchBrowser, webDir } from './browser.ts'

// The console's "Embed on your website" box (venue details): the owner copies the <iframe> snippet,
// and a page of another site that pastes it shows the venue's booking widget.

const NOW = new Date('2026-12-01T03:15:00Z')

describe('embedding a venue from the console', () => {
  let server: ConsoleServer
  let browser: Browser
  let host: Server | undefined
  before(async () => {
    ensureWebBuilt()
    const port = await freePort()
    server = await startConsoleServer({ WEB_DIR: webDir }, { clock: new ManualClock(NOW), port })
    browser = await launchBrowser()
  })
  after(async () => {
    await browser?.close()
    if (host) await new Promise((done) => host?.close(done))
    await server?.close()
  })

  test('the owner copies the widget snippet; pasted on another site it shows the venue', async () => {
    const context = await contextAt(browser, NOW, DESKTOP)
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url })
    const page = await context.newPage()
    await signIn(page, server.url, 'owner1@courtside.test', server.seed.password)
    const venueId = await demoVenueId(server)
    await page.goto(`${server.url}/console/#/venues/${venueId}/manage/details`)
    await page.getByRole('heading', { name: 'Embed on your website' }).waitFor()
    const snippet = await page.getByLabel('Widget snippet').inputValue()
    assert.equal(
      snippet,
      `<iframe src="${server.url}/embed/v/baneshwor-futsal-arena" title="Book at Baneshwor Futsal Arena" width="100%" height="640" style="border:0;max-width:480px" loading="lazy"></iframe>`,
    )
    await page.getByRole('button', { name: 'Copy snippet' }).click()
    await page.getByText(/^Copied\./).waitFor()
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), snippet)
    assert.equal(
      await page.getByRole('link', { name: `${server.url}/v/baneshwor-futsal-arena` }).getAttribute('href'),
      `${server.url}/v/baneshwor-futsal-arena`,
    )
    assert.deepEqual(await axeViolations(page), [])

    const site = createServer((_req, res) => {
      res.setHeader('content-type', 'text/html; charset=utf-8')
      res.end(`<!doctype html><html lang="en"><head><title>Our futsal</title></head><body>${snippet}</body></html>`)
    })
    host = site
    await new Promise<void>((done) => site.listen(0, '127.0.0.1', done))
    const other = await context.newPage()
    await other.goto(`http://localhost:${(site.address() as AddressInfo).port}/`)
    const widget = other.frameLocator('iframe[title="Book at Baneshwor Futsal Arena"]')
    await widget.getByRole('heading', { name: 'Baneshwor Futsal Arena' }).waitFor()
    await widget.locator('button.slot').first().waitFor()
    await context.close()
  })
})
