import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { Browser } from 'playwright-core'
import { ManualClock } from '../../src/lib/clock.ts'
import {
  contextAt,
  eventually,
  launchBrowser,
  open,
  PHONE,
  signInAs,
  startWebServer,
  type WebServer,
} from './browser.ts'

// The player's language on their account (issue 50; docs/languages.md), in real Chromium against the
// real server: switching the app's language while signed in stores it (PUT /api/profile {locale}),
// signing in switches the app to the stored one, and every request says the app's language.

const NOW = new Date('2026-12-01T03:15:00Z')

describe('the language switch and the account', () => {
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

  const localeOf = async (email: string) =>
    (await server.app.ctx.db.selectFrom('users').select('locale').where('email', '=', email).executeTakeFirstOrThrow())
      .locale

  test('switching to Nepali while signed in stores the locale; switching back stores English', async () => {
    const email = 'customer@courtside.test'
    assert.equal(await localeOf(email), 'en')
    const context = await contextAt(browser, NOW, PHONE)
    await signInAs(context, server, email)
    const page = await open(context, server, '/')
    const languages: string[] = []
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.startsWith('/api/')) languages.push(r.headers()['accept-language'] ?? '')
    })
    await page.getByLabel('Language').selectOption('ne')
    await eventually(async () => (await localeOf(email)) === 'ne')
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'ne-NP')
    // The session the app keeps knows it too.
    await eventually(async () => {
      const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('courtside.web.session') ?? '{}'))
      return stored.user?.locale === 'ne'
    })
    assert.ok(languages.includes('ne-NP'), `requests said: ${languages.join(', ')}`)

    await page.getByLabel('भाषा').selectOption('en')
    await eventually(async () => (await localeOf(email)) === 'en')

    // Quick switches back and forth, the saves slowed: the account ends in the language shown.
    await page.route('**/api/profile', async (route) => {
      await new Promise((r) => setTimeout(r, 300))
      await route.continue()
    })
    await page.getByLabel('Language').selectOption('ne')
    await page.getByLabel('भाषा').selectOption('en')
    await page.getByLabel('Language').selectOption('ne')
    await page.getByLabel('भाषा').selectOption('en')
    await eventually(async () => {
      const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('courtside.web.session') ?? '{}'))
      return stored.user?.locale === 'en' && (await localeOf(email)) === 'en'
    })
    // Nothing still on its way changes it afterwards.
    await new Promise((r) => setTimeout(r, 1000))
    assert.equal(await localeOf(email), 'en')
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'en')
    await context.close()
  })

  test('signing in switches the app to the language stored on the account', async () => {
    const email = 'customer@courtside.test'
    await server.app.ctx.db.updateTable('users').set({ locale: 'ne' }).where('email', '=', email).execute()
    const context = await contextAt(browser, NOW, PHONE)
    const page = await open(context, server, '/signin')
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'en')
    await page.getByLabel('Email or mobile number').fill(email)
    await page.getByLabel('Password', { exact: true }).fill(server.seed.password)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await eventually(async () => (await page.evaluate(() => document.documentElement.lang)) === 'ne-NP')
    // Adopting the account's language does not write it back.
    assert.equal(await localeOf(email), 'ne')
    await context.close()
  })
})
