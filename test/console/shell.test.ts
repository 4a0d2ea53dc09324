import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { Browser } from 'playwright-core'
import { axeViolations, type ConsoleServer, launchBrowser, signIn, startConsoleServer } from './browser.ts'

// The console's frame: served by the app at /console, sign-in and sign-out, the venue choice,
// bad credentials shown on the form; axe-core finds no violation on these screens.

describe('console shell', () => {
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

  test('GET /console redirects to /console/, assets are precompressed and carry a CSP', async () => {
    const res = await fetch(`${server.url}/console`, { redirect: 'manual' })
    assert.equal(res.status, 301)
    assert.equal(res.headers.get('location'), '/console/')
    const page = await fetch(`${server.url}/console/`, { headers: { 'accept-encoding': 'br, gzip' } })
    assert.equal(page.status, 200)
    assert.match(page.headers.get('content-security-policy') ?? '', /default-src 'self'/)
    const html = await page.text()
    const script = /src="(\/console\/assets\/[^"]+\.js)"/.exec(html)?.[1]
    assert.ok(script, 'index.html names its script')
    const js = await fetch(`${server.url}${script}`, { headers: { 'accept-encoding': 'br' } })
    assert.equal(js.headers.get('content-encoding'), 'br')
    assert.match(js.headers.get('cache-control') ?? '', /immutable/)
  })

  test('wrong password is shown on the form; the login screen has no axe violation', async () => {
    const page = await browser.newPage()
    await page.goto(`${server.url}/console/`)
    assert.deepEqual(await axeViolations(page), [])
    await page.getByLabel('Email or phone').fill('owner1@courtside.test')
    await page.getByLabel('Password').fill('wrong-password')
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByRole('alert').waitFor()
    assert.match((await page.getByRole('alert').textContent()) ?? '', /\S/)
    await page.close()
  })

  test('an owner signs in, sees the venues they own, and signs out', async () => {
    const page = await browser.newPage()
    await signIn(page, server.url, 'owner1@courtside.test', server.seed.password)
    const picker = page.getByLabel('Venue')
    const options = await picker.locator('option').allTextContents()
    assert.ok(options.includes('Baneshwor Futsal Arena'), options.join(', '))
    assert.deepEqual(await axeViolations(page), [])
    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.getByRole('button', { name: 'Sign in' }).waitFor()
    await page.close()
  })
})
