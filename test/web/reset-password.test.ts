import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { Browser } from 'playwright-core'
import { ManualClock } from '../../src/lib/clock.ts'
import { lastOtp } from '../accounts/helpers.ts'
import { consoleDir, ensureConsoleBuilt } from '../console/browser.ts'
import {
  axeViolations,
  contextAt,
  DESKTOP,
  launchBrowser,
  open,
  PHONE,
  startWebServer,
  type WebServer,
} from './browser.ts'

// Issue 51 in the player app: "Forgot password?" signs in with a one-time code (the contract's OTP
// flow) and sets a new password; "List your venue" leads to the console's onboarding. A phone and
// a desktop, axe on each, English and Nepali strings from the i18n files.

const NOW = new Date('2026-12-01T03:15:00Z') // Tuesday 09:00 in Kathmandu

describe('forgot password and list your venue in the player app', () => {
  let server: WebServer
  let browser: Browser
  before(async () => {
    ensureConsoleBuilt()
    server = await startWebServer(new ManualClock(NOW), { CONSOLE_DIR: consoleDir, RATE_LIMIT_ENABLED: 'false' })
    browser = await launchBrowser()
  })
  after(async () => {
    await browser?.close()
    await server?.close()
  })

  test('on a phone: a code by SMS, then a new password that signs in', async () => {
    const context = await contextAt(browser, NOW, PHONE)
    const page = await open(context, server, '/signin')
    await page.getByRole('link', { name: 'Forgot password?' }).click()
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor()
    assert.deepEqual(await axeViolations(page), [], 'reset password, phone')
    const phone = '+9779800000004'
    const user = await server.app.ctx.db
      .selectFrom('users')
      .select('email')
      .where('phone', '=', phone)
      .executeTakeFirst()
    assert.ok(user, 'a demo account has this phone')
    await page.getByLabel('Email or mobile number').fill(phone)
    await page.getByRole('button', { name: 'Send code' }).click()
    await page.getByText(`A code was sent to ${phone}.`).waitFor()
    await page.getByLabel('One-time code').fill(await lastOtp(server.app, phone))
    await page.getByRole('button', { name: 'Sign in with the code' }).click()
    await page.getByText('Code accepted. Choose a new password within 15 minutes.').waitFor()
    assert.deepEqual(await axeViolations(page), [], 'new password, phone')
    await page.getByLabel('New password').fill('fresh-start-77')
    await page.getByLabel('Password again').fill('fresh-start-77')
    await page.getByRole('button', { name: 'Save the new password' }).click()
    await page.waitForURL(/\/account$/)
    const login = await server.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password: 'fresh-start-77' },
    })
    assert.equal(login.statusCode, 200, login.body)
    await context.close()
  })

  test('on a desktop: "List your venue" opens the console onboarding; both links are in Nepali too', async () => {
    const context = await contextAt(browser, NOW, DESKTOP)
    const page = await open(context, server, '/')
    const list = page.getByRole('link', { name: 'List your venue' })
    assert.equal(await list.getAttribute('href'), '/console/#/new-venue')
    assert.deepEqual(await axeViolations(page), [], 'home with List your venue, desktop')
    await list.click()
    await page.waitForURL(/\/console\/#\/new-venue$/)
    // Signed out, the console asks to sign in first; its sign-in offers "Forgot password?" too.
    await page.getByRole('button', { name: 'Forgot password?' }).waitFor()
    assert.deepEqual(await axeViolations(page), [], 'console sign-in from List your venue, desktop')

    const ne = await open(context, server, '/signin')
    await ne.getByRole('combobox', { name: /Language|भाषा/ }).selectOption('ne')
    await ne.getByRole('link', { name: 'पासवर्ड बिर्सनुभयो?' }).waitFor()
    await ne.getByRole('link', { name: 'आफ्नो भेन्यु राख्नुहोस्' }).waitFor()
    assert.deepEqual(await axeViolations(ne), [], 'sign in in Nepali, desktop')
    await context.close()
  })
})
