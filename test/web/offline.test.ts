import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { Browser } from 'playwright-core'
import { ManualClock } from '../../src/lib/clock.ts'
import { contextAt, launchBrowser, open, PHONE, signInAs, startWebServer, type WebServer } from './browser.ts'
import { appDate, bookCourt } from './helpers-account.ts'

// The app's and the pages' now, a Tuesday at 09:00 in Kathmandu: never the machine's clock.
const NOW = new Date('2026-12-01T03:15:00Z')

// Installable and readable offline: the web manifest and its icons, and a service worker
// (web/public/sw.js) that keeps the app shell and the last seen bookings, so My bookings opens
// with no network; the rest of the API is never answered from a copy, and signing out forgets it.

describe('the app offline', () => {
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

  test('the manifest names the app, its start page and icons that load', async () => {
    const page = await (await fetch(`${server.url}/`, { headers: { accept: 'text/html' } })).text()
    assert.match(page, /<link rel="manifest" href="\/manifest.webmanifest"/)
    const res = await fetch(`${server.url}/manifest.webmanifest`)
    assert.equal(res.status, 200)
    const manifest = (await res.json()) as {
      name: string
      start_url: string
      display: string
      icons: { src: string; sizes: string; purpose: string }[]
    }
    assert.equal(manifest.start_url, '/')
    assert.equal(manifest.display, 'standalone')
    assert.deepEqual(manifest.icons.map((i) => `${i.sizes} ${i.purpose}`).sort(), [
      '192x192 any',
      '512x512 any',
      '512x512 maskable',
    ])
    for (const icon of manifest.icons) {
      const png = await fetch(`${server.url}${icon.src}`)
      assert.equal(png.status, 200, icon.src)
      assert.equal(png.headers.get('content-type'), 'image/png', icon.src)
      const bytes = Buffer.from(await png.arrayBuffer())
      const [w, h] = icon.sizes.split('x').map(Number)
      assert.deepEqual([bytes.readUInt32BE(16), bytes.readUInt32BE(20)], [w, h], `${icon.src} is ${icon.sizes}`)
    }
    const sw = await fetch(`${server.url}/sw.js`)
    assert.equal(sw.status, 200)
    assert.match(sw.headers.get('content-type') ?? '', /javascript/)
    assert.equal(sw.headers.get('cache-control'), 'no-cache', 'a new worker reaches players on their next load')
  })

  test('My bookings opens offline with the last seen bookings; other pages say they are offline', async () => {
    const context = await contextAt(browser, NOW, PHONE)
    const email = 'customer@courtside.test'
    await signInAs(context, server, email)
    const login = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: server.seed.password }),
    })
    const { token } = (await login.json()) as { token: string }
    const [booking] = await bookCourt(server, token, appDate(server, 2), 1, false)

    const page = await open(context, server, '/bookings')
    const card = page.getByRole('listitem').filter({ hasText: booking.number })
    await card.waitFor()
    // The worker takes over the open page (clients.claim); the next load goes through it.
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null)
    await page.reload()
    await card.waitFor()
    assert.equal(await page.getByText(/Saved copy from/).count(), 0, 'online, the answer is fresh')

    await context.setOffline(true)
    await page.reload()
    await card.waitFor()
    await card.getByText('Awaiting payment').waitFor()
    await page.getByText(/^Saved copy from .*: you are offline\.$/).waitFor()
    assert.equal(await card.getByRole('button', { name: 'Cancel booking' }).count(), 0, 'no actions on a saved copy')

    // Any other page of the app starts too (the shell), but its data is never a saved copy.
    await page.goto(`${server.url}/wallet`)
    await page.getByRole('heading', { name: 'Wallet' }).waitFor()
    await page.getByRole('alert').waitFor()

    // Signing out forgets the saved bookings.
    await context.setOffline(false)
    await page.goto(`${server.url}/account`)
    await page.getByRole('button', { name: 'Sign out', exact: true }).click()
    await page.waitForURL(`${server.url}/`)
    const saved = await page.evaluate(async () => (await caches.keys()).filter((k) => k.startsWith('courtside-data')))
    assert.deepEqual(saved, [])
    await context.close()
  })
})
