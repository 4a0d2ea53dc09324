import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { Browser } from 'playwright-core'
import { ManualClock } from '../../src/lib/clock.ts'
import {
  axeViolations,
  contextAt,
  eventually,
  launchBrowser,
  open,
  PHONE,
  signInAs,
  startWebServer,
  type WebServer,
} from './browser.ts'

// The buyer's PAN and address on the profile page (GET/PUT /api/profile/invoice-details; issue 49),
// in real Chromium on a phone against the real server: a bad PAN is refused with the service's
// message next to its field, good details are saved and shown again on the next visit, the section
// reads in Nepali, emptied fields clear them; axe-core's WCAG A/AA checks find nothing each time.

const NOW = new Date('2026-12-01T03:15:00Z')
const EMAIL = 'customer@courtside.test'

describe('invoice details on the profile page', () => {
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

  const stored = async () => {
    const row = await server.app.ctx.db
      .selectFrom('customer_invoice_details as d')
      .innerJoin('users as u', 'u.id', 'd.user_id')
      .select(['d.buyer_pan', 'd.buyer_address'])
      .where('u.email', '=', EMAIL)
      .executeTakeFirst()
    return row ?? null
  }

  test('phone: a bad PAN shows its error by the field; good details are saved, shown again, cleared; Nepali', async () => {
    const context = await contextAt(browser, NOW, PHONE)
    await signInAs(context, server, EMAIL)
    const page = await open(context, server, '/account')
    await page.getByRole('heading', { name: 'Invoice details' }).waitFor()
    const pan = page.getByLabel('PAN (Permanent Account Number)')
    const address = page.getByLabel('Billing address')
    assert.equal(await pan.inputValue(), '')
    assert.equal(await address.inputValue(), '')
    assert.deepEqual(await axeViolations(page), [], 'profile with invoice details')

    await pan.fill('1234')
    await address.fill('Baneshwor, Kathmandu')
    await page.getByRole('button', { name: 'Save invoice details' }).click()
    // The service's own message, beside the field it is about (aria-invalid, described by it).
    await eventually(async () => (await pan.getAttribute('aria-invalid')) === 'true')
    const described = (await pan.getAttribute('aria-describedby')) ?? ''
    const errorId = described.split(' ').find((id) => id.endsWith('-error'))
    assert.ok(errorId, `the PAN field is described by its error: ${described}`)
    const error = await page.locator(`[id="${errorId}"]`).innerText()
    assert.match(error, /buyer pan/)
    assert.equal(await stored(), null)
    assert.deepEqual(await axeViolations(page), [], 'profile with the PAN error shown')

    await pan.fill('601 234 567')
    await page.getByRole('button', { name: 'Save invoice details' }).click()
    await page.getByText('Saved').first().waitFor()
    assert.deepEqual(await stored(), { buyer_pan: '601234567', buyer_address: 'Baneshwor, Kathmandu' })
    assert.equal(await pan.getAttribute('aria-invalid'), null)

    // The next visit shows them, in Nepali too.
    await page.reload()
    await page.getByRole('heading', { name: 'Invoice details' }).waitFor()
    assert.equal(await page.getByLabel('PAN (Permanent Account Number)').inputValue(), '601234567')
    await page.getByLabel('Language').selectOption('ne')
    await page.getByRole('heading', { name: 'बीजक विवरण' }).waitFor()
    const panNe = page.getByLabel('स्थायी लेखा नम्बर (PAN)')
    assert.equal(await panNe.inputValue(), '601234567')
    assert.equal(await page.getByLabel('बीजकको ठेगाना').inputValue(), 'Baneshwor, Kathmandu')
    assert.deepEqual(await axeViolations(page), [], 'profile in Nepali')

    // Emptied fields clear the details.
    await panNe.fill('')
    await page.getByLabel('बीजकको ठेगाना').fill('')
    await page.getByRole('button', { name: 'बीजक विवरण सुरक्षित गर्नुहोस्' }).click()
    await eventually(async () => (await stored())?.buyer_pan === null)
    assert.deepEqual(await stored(), { buyer_pan: null, buyer_address: null })
    await page.getByLabel('भाषा').selectOption('en')
    await context.close()
  })
})
