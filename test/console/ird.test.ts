import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { sql } from 'kysely'
import type { Page } from 'playwright-core'
import { assignStaff, createUser, ordinaryDayAfter } from '../helpers/factories.ts'
import { startFakeCbms } from '../helpers/fake-cbms.ts'
import { axeViolations, CONSOLE_NOW, withConsole } from './browser.ts'

// The owner's IRD reporting on the Money page (issue 49) in a real browser against the real server
// and a fake CBMS: the account saved (the password never shown back), an invoice CBMS refused listed
// with its answer, reported again from the page; managers do not see the section.

const cbms = await startFakeCbms()
const date = ordinaryDayAfter(CONSOLE_NOW, 4)

describe('console: IRD reporting', () => {
  const ui = withConsole({ timeout: 10_000, env: { IRD_CBMS_URL: cbms.url } })
  const { inject, login, pageAs } = ui
  let ownerToken: string
  let owner: Page
  let invoiceNumber: string

  before(async () => {
    ownerToken = await login('owner1@courtside.test')
    const tax = await inject('PATCH', `/api/venues/${ui.venueId}`, ownerToken, {
      pan_number: '601234567',
      vat_registered: true,
    })
    assert.equal(tax.statusCode, 200, tax.body)
  })
  after(() => cbms.close())

  const runJobs = async () => {
    await sql`UPDATE jobs SET run_at = now() WHERE done_at IS NULL`.execute(ui.server.app.ctx.db)
    await ui.server.app.ctx.jobs.runDue()
  }

  test('the owner turns IRD reporting on; the password is stored, never shown', async () => {
    owner = await pageAs('owner1@courtside.test')
    await owner.goto(`${ui.server.url}/console/#/venues/${ui.venueId}/money`)
    const section = owner.getByRole('heading', { name: 'IRD reporting (CBMS)' }).locator('..')
    await section.getByLabel('CBMS username').waitFor()
    await section.getByLabel('Report invoices to IRD').check()
    await section.getByLabel('CBMS username').fill('venue-user')
    await section.getByLabel('CBMS password').fill('s3cret-pass')
    await section.getByLabel('Seller PAN').fill('601234567')
    await section.getByRole('button', { name: 'Save IRD reporting' }).click()
    await owner.getByRole('status').filter({ hasText: 'The IRD reporting is saved.' }).waitFor()
    const saved = (await inject('GET', `/api/venues/${ui.venueId}/ird`, ownerToken)).json().data
    assert.equal(saved.enabled, true)
    assert.equal(saved.password_set, true)
    assert.equal(await section.getByLabel('CBMS password').inputValue(), '')
    await section.getByText('Stored. Leave empty to keep it.').waitFor()
  })

  test('an invoice IRD refused is listed with its answer and reported again from the page', async () => {
    const customer = await createUser(ui.server.app, { wallet: 1_000_000, name: 'Invoice Hari' })
    const courtA = await ui.courtId('Court A')
    const booked = await inject('POST', '/api/bookings', customer.token, {
      court_id: courtA,
      date,
      start_time: '10:00',
      end_time: '11:00',
    })
    assert.equal(booked.statusCode, 201, booked.body)
    const id = booked.json().data.id as number
    const paid = await inject('POST', '/api/payments/initiate', customer.token, { booking_id: id, method: 'wallet' })
    assert.ok(paid.statusCode < 300, paid.body)
    invoiceNumber = (await inject('GET', `/api/bookings/${id}/receipts`, customer.token)).json().data[0].receipt_number
    cbms.force = 104
    await runJobs()
    await owner.reload()
    const section = owner.getByRole('heading', { name: 'IRD reporting (CBMS)' }).locator('..')
    await section.getByText('1 invoice(s) were not accepted by IRD.').waitFor()
    const row = section
      .getByRole('table', { name: 'Invoices IRD did not accept' })
      .getByRole('row')
      .filter({ hasText: invoiceNumber })
    assert.match((await row.textContent()) ?? '', /104/)
    assert.deepEqual(await axeViolations(owner), [], 'money page with IRD failures')

    cbms.force = null
    await section.getByRole('button', { name: 'Report them again' }).click()
    await owner.getByRole('status').filter({ hasText: '1 invoice(s) queued to be reported again.' }).waitFor()
    await runJobs()
    await owner.reload()
    await section.getByText('No invoice is waiting or failed.').waitFor()
    const receipts = (await inject('GET', `/api/bookings/${id}/receipts`, ownerToken)).json().data
    assert.equal(receipts[0].ird_sync, 'synced')
  })

  test("a manager's Money page has no IRD section", async () => {
    const user = await createUser(ui.server.app, { roles: ['manager'], email: 'ird-manager@example.com' })
    await assignStaff(ui.server.app, ui.venueId, user.id, 'manager')
    const manager = await pageAs(user.email, { password: user.password })
    await manager.goto(`${ui.server.url}/console/#/venues/${ui.venueId}/money`)
    await manager.getByRole('heading', { name: 'Payouts', exact: true }).waitFor()
    assert.equal(await manager.getByRole('heading', { name: 'IRD reporting (CBMS)' }).count(), 0)
  })
})
