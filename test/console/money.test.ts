import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { before, describe, test } from 'node:test'
import type { Page } from 'playwright-core'
import { date as formatDate } from '../../shared-ui/format.ts'
import { createUser, ordinaryDayAfter, type TestUser } from '../helpers/factories.ts'
import { axeViolations, CONSOLE_NOW, PHONE, screenshot, withConsole } from './browser.ts'

// Venues get paid (issue 31) in a real browser against the real server: the owner's Money page
// (this month's statement on the API's clock with a line for a wallet payment made through the API
// here, its CSV downloaded with the bearer token, the payouts list, payout details saved); the super
// admin's Payouts page (a payout above the balance refused with the API's 422 message at the amount,
// a payout recorded and the due list changed, a commission rate set); cash-backs due handed over from
// the day board by staff; staff see neither Money nor Payouts and are refused on their URLs; axe finds
// no violation on these pages at 390×844 and on a desktop.

const VENUE = 'Baneshwor Futsal Arena'
const date = ordinaryDayAfter(CONSOLE_NOW, 3)
const CSV_HEADER = 'date,date_bs,booking_number,kind,description,amount,balance_after'

describe('console: money, statements and payouts', () => {
  const ui = withConsole({ timeout: 10_000 })
  const { inject, login, pageAs } = ui
  let courtA: number
  let customer: TestUser
  let staffToken: string
  let ownerToken: string
  let booking: { id: number; number: string; total: string }

  /** The venue's row of the super admin's due list ("0.00" everywhere when absent). */
  const dueRow = async (token: string) => {
    const res = await inject('GET', '/api/admin/payouts/due', token)
    type Row = { venue: { id: number }; balance: string; reserve: string; available: string }
    const row = (res.json().data as Row[]).find((d) => d.venue.id === ui.venueId)
    return row ?? { balance: '0.00', reserve: '0.00', available: '0.00' }
  }
  /** The venue's balance with the platform as the super admin's due list has it ("0.00" when absent). */
  const dueBalance = async (token: string) => (await dueRow(token)).balance

  before(async () => {
    courtA = await ui.courtId('Court A')
    staffToken = await login('staff@courtside.test')
    ownerToken = await login('owner1@courtside.test')
    // A customer pays a booking from their wallet through the API: online money owed to the venue.
    customer = await createUser(ui.server.app, { wallet: 1_000_000, name: 'Wallet Sita' })
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
    const detail = (await inject('GET', `/api/bookings/${id}`, customer.token)).json().data
    assert.equal(detail.balance_due, '0.00')
    booking = { id, number: detail.booking_number, total: detail.total_amount }
  })

  let owner: Page

  test("the owner opens Money: this month's statement has the payment's line, and the CSV downloads", async () => {
    owner = await pageAs('owner1@courtside.test')
    await owner.goto(`${ui.server.url}/console/#/venues/${ui.venueId}/board`)
    await owner.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Money' }).click()
    await owner.getByRole('heading', { name: `Money at ${VENUE}` }).waitFor()
    // The month comes from the API's clock (the board's date), venue time.
    const today = (await inject('GET', `/api/venues/${ui.venueId}/board`, ownerToken)).json().data.date as string
    const monthName = new Date(`${today}T00:00:00Z`).toLocaleDateString('en-GB', {
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    })
    await owner.getByRole('heading', { name: `Statement for ${monthName}` }).waitFor()
    assert.equal(await owner.getByLabel('Month').inputValue(), today.slice(0, 7))
    const line = owner
      .getByRole('table', { name: 'Statement lines' })
      .getByRole('row')
      .filter({ hasText: booking.number })
    await line.first().waitFor()
    const text = (await line.first().textContent()) ?? ''
    assert.match(text, /Wallet payment/)
    assert.match(text, new RegExp(`Rs ${Number(booking.total).toLocaleString('en-IN', { minimumFractionDigits: 2 })}`))
    // The line's date with its BS date beside (shared-ui/format.ts).
    assert.ok(text.includes(formatDate(today, 'en', { weekday: true })), text)
    const totals = owner.getByRole('definition').first()
    await totals.waitFor()
    assert.deepEqual(await axeViolations(owner), [], 'money page, desktop')

    const [download] = await Promise.all([
      owner.waitForEvent('download'),
      owner.getByRole('button', { name: 'Download CSV' }).click(),
    ])
    const [y, m] = today.split('-').map(Number)
    const last = String(new Date(Date.UTC(y, m, 0)).getUTCDate()).padStart(2, '0')
    assert.equal(
      download.suggestedFilename(),
      `statement-baneshwor-futsal-arena-${today.slice(0, 7)}-01-${today.slice(0, 7)}-${last}.csv`,
    )
    const csv = await readFile((await download.path())!, 'utf8')
    assert.ok(csv.startsWith('\uFEFF'), 'UTF-8 with a byte-order mark')
    // (trim() also drops the byte-order mark.)
    const rows = csv.trim().split(/\r?\n/)
    assert.equal(rows[0], CSV_HEADER)
    assert.ok(
      rows.some((r) => r.includes(booking.number) && r.includes('wallet_payment')),
      csv,
    )

    // Another month: nothing moved then.
    await owner.getByRole('button', { name: '← Previous month' }).click()
    await owner.getByText('Nothing moved the balance in this month.').waitFor()
    await owner.getByRole('button', { name: 'Next month →' }).click()
    await line.first().waitFor()
  })

  test('the owner saves payout details (bank, then a Khalti merchant id)', async () => {
    const form = owner.getByRole('heading', { name: 'Payout details' }).locator('..')
    await form.getByLabel('Account name').waitFor()
    await form.getByLabel('Paid to').selectOption('bank')
    await form.getByLabel('Account name').fill('Baneshwor Sports Pvt Ltd')
    await form.getByLabel('Bank name').fill('Nabil Bank')
    await form.getByLabel('Account number').fill('0123456789012')
    await form.getByRole('button', { name: 'Save payout details' }).click()
    await owner.getByRole('status').filter({ hasText: 'The payout details are saved.' }).waitFor()
    const saved = await inject('GET', `/api/venues/${ui.venueId}/payout-account`, ownerToken)
    assert.deepEqual(saved.json().data, {
      type: 'bank',
      account_name: 'Baneshwor Sports Pvt Ltd',
      bank_name: 'Nabil Bank',
      account_number: '0123456789012',
      merchant_id: null,
    })

    await form.getByLabel('Paid to').selectOption('khalti')
    await form.getByLabel('Khalti merchant id').fill('KH-778899')
    await form.getByRole('button', { name: 'Save payout details' }).click()
    await owner.getByRole('status').filter({ hasText: 'The payout details are saved.' }).waitFor()
    const khalti = (await inject('GET', `/api/venues/${ui.venueId}/payout-account`, ownerToken)).json().data
    assert.equal(khalti.type, 'khalti')
    assert.equal(khalti.merchant_id, 'KH-778899')
    assert.equal(khalti.bank_name, null)
    // Kept across a reload.
    await owner.reload()
    await form.getByLabel('Khalti merchant id').waitFor()
    assert.equal(await form.getByLabel('Khalti merchant id').inputValue(), 'KH-778899')
  })

  test('the super admin records a payout: above what is available is refused with the 422, then the due list changes', async () => {
    const adminToken = await login('admin@courtside.test')
    // The customer's session is played (its money no longer refundable) and they pay for another one,
    // upcoming: its money stays reserved.
    for (const status of ['playing', 'completed']) {
      const res = await inject('PATCH', `/api/bookings/${booking.id}/status`, staffToken, { status })
      assert.equal(res.statusCode, 200, res.body)
    }
    const next = await inject('POST', '/api/bookings', customer.token, {
      court_id: courtA,
      date: ordinaryDayAfter(CONSOLE_NOW, 4),
      start_time: '10:00',
      end_time: '11:00',
    })
    assert.equal(next.statusCode, 201, next.body)
    const paid = await inject('POST', '/api/payments/initiate', customer.token, {
      booking_id: next.json().data.id,
      method: 'wallet',
    })
    assert.equal(paid.statusCode, 200, paid.body)
    const row = await dueRow(adminToken)
    const before = row.balance
    assert.ok(Number(before) >= Number(booking.total), before)
    // The customer's booking is upcoming: its wallet payment is reserved, the rest is available.
    assert.ok(Number(row.reserve) >= Number(booking.total), row.reserve)
    assert.ok(Number(row.available) >= 1000, JSON.stringify(row))
    const rs = (amount: string) => `Rs ${Number(amount).toLocaleString('en-IN', { minimumFractionDigits: 2 })}`
    const admin = await pageAs('admin@courtside.test')
    await admin.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Payouts' }).click()
    await admin.getByRole('heading', { name: 'Payouts', level: 1 }).waitFor()
    const card = admin.getByRole('article', { name: VENUE })
    await card.waitFor()
    assert.match((await card.textContent()) ?? '', /KH-778899/)
    for (const amount of [before, row.reserve, row.available]) {
      assert.ok(((await card.textContent()) ?? '').includes(rs(amount)), amount)
    }
    assert.deepEqual(await axeViolations(admin), [], 'payouts page, desktop')

    const form = admin.getByRole('form', { name: `Record a payout to ${VENUE}` })
    const amount = form.getByLabel('Amount (Rs)')
    assert.equal(await amount.inputValue(), row.available)
    await amount.fill((Number(row.available) + 1).toFixed(2))
    await form.getByLabel('Reference').fill('Nabil txn 4455')
    await form.getByRole('button', { name: `Record payout to ${VENUE}` }).click()
    const refusal = `The amount must not be greater than the ${row.available} available: the venue's balance of ${before} less ${row.reserve} still refundable for upcoming bookings.`
    await form.getByText(refusal).waitFor()
    assert.equal(await amount.getAttribute('aria-invalid'), 'true')
    const describedBy = (await amount.getAttribute('aria-describedby')) ?? ''
    assert.match(
      await admin.evaluate(
        (ids) => ids.map((id) => document.getElementById(id)?.textContent).join(' '),
        describedBy.split(' '),
      ),
      /must not be greater than the .* available/,
    )
    assert.equal(await dueBalance(adminToken), before)

    await amount.fill('1000.00')
    await form.getByRole('button', { name: `Record payout to ${VENUE}` }).click()
    await admin
      .getByRole('status')
      .filter({ hasText: `A payout of Rs 1,000.00 to ${VENUE} is recorded.` })
      .waitFor()
    const afterBalance = (Number(before) - 1000).toFixed(2)
    assert.equal(await dueBalance(adminToken), afterBalance)
    await admin
      .getByRole('article', { name: VENUE })
      .getByText(`Rs ${Number(afterBalance).toLocaleString('en-IN', { minimumFractionDigits: 2 })}`)
      .waitFor()

    // Commission: view and set per venue.
    const commission = admin.getByRole('heading', { name: 'Commission' }).locator('..')
    await commission.getByLabel('Venue').selectOption({ label: VENUE })
    await commission.getByText('Applied now').waitFor()
    await commission.getByLabel('Rate on online money (%)').fill('12.5')
    await commission.getByRole('button', { name: 'Save commission' }).click()
    await commission.getByRole('status').filter({ hasText: 'Commission is now 12.50% on online money.' }).waitFor()
    const rate = (await inject('GET', `/api/admin/venues/${ui.venueId}/commission`, adminToken)).json().data
    assert.equal(rate.percent, '12.50')
    await commission.getByLabel('Rate on online money (%)').fill('150')
    await commission.getByRole('button', { name: 'Save commission' }).click()
    await commission.getByRole('alert').waitFor()
    assert.equal(await commission.getByLabel('Rate on online money (%)').getAttribute('aria-invalid'), 'true')
    await commission.getByLabel('Rate on online money (%)').fill('')
    await commission.getByRole('button', { name: 'Save commission' }).click()
    await commission.getByRole('status').filter({ hasText: 'Commission is now 0.00% on online money.' }).waitFor()
    await admin.evaluate(() => window.scrollTo(0, 0))
    await screenshot(admin, 'console-payouts')

    // The owner sees the payout in the list and as a statement line.
    await owner.reload()
    const payouts = owner.getByRole('table', { name: 'Payouts made' })
    await payouts.getByRole('row').filter({ hasText: 'Nabil txn 4455' }).waitFor()
    assert.match((await payouts.textContent()) ?? '', /Rs 1,000\.00/)
    await owner
      .getByRole('table', { name: 'Statement lines' })
      .getByRole('row')
      .filter({ hasText: 'Payout' })
      .first()
      .waitFor()
    await owner.setViewportSize({ width: 1280, height: 1400 })
    await screenshot(owner, 'console-money')
  })

  test('staff hand a cash-back over from the day board, and see neither Money nor Payouts', async () => {
    // A desk booking paid in cash, then refunded by the owner: a cash-back falls due at the desk.
    const desk = await inject('POST', `/api/venues/${ui.venueId}/bookings`, staffToken, {
      court_id: courtA,
      date,
      start_time: '12:00',
      end_time: '13:00',
      type: 'offline',
      customer_name: 'Cash Hari',
    })
    assert.equal(desk.statusCode, 201, desk.body)
    const deskId = desk.json().data.id as number
    const cash = await inject('POST', `/api/bookings/${deskId}/payments`, staffToken, {
      method: 'cash',
      amount: '500.00',
    })
    assert.equal(cash.statusCode, 201, cash.body)
    const payment = (cash.json().data.payments as { id: number; method: string }[]).find((p) => p.method === 'cash')!
    const refund = await inject('POST', `/api/payments/${payment.id}/refund`, ownerToken, {
      amount: '200.00',
      reason: 'Lights failed',
    })
    assert.equal(refund.statusCode, 200, refund.body)

    const staff = await pageAs('staff@courtside.test', PHONE)
    const sections = staff.getByRole('navigation', { name: 'Sections' })
    await sections.getByRole('link', { name: 'Day board' }).waitFor()
    assert.equal(await sections.getByRole('link', { name: 'Money' }).count(), 0)
    assert.equal(await sections.getByRole('link', { name: 'Payouts' }).count(), 0)
    await staff.goto(`${ui.server.url}/console/#/venues/${ui.venueId}/board?date=${date}`)
    const due = staff.getByRole('table', { name: 'Cash-backs due' })
    const row = due.getByRole('row').filter({ hasText: 'Cash Hari' })
    await row.waitFor()
    assert.match((await row.textContent()) ?? '', /Rs 200\.00.*Lights failed|Lights failed.*Rs 200\.00/)
    assert.deepEqual(await axeViolations(staff), [], 'board with cash-backs, 390 px')
    await row.getByRole('button', { name: /^Paid out Rs 200\.00 for/ }).click()
    await staff
      .getByRole('status')
      .filter({ hasText: /Rs 200\.00 handed back for .*Cash Hari/ })
      .waitFor()
    await due.waitFor({ state: 'detached' })
    const left = (await inject('GET', `/api/venues/${ui.venueId}/cash-backs?status=due`, staffToken)).json().data
    assert.deepEqual(left, [])

    await staff.goto(`${ui.server.url}/console/#/venues/${ui.venueId}/money`)
    await staff.getByText("The venue's money is for its owner and managers.").waitFor()
    await staff.goto(`${ui.server.url}/console/#/payouts`)
    await staff.getByText('Payouts are for Courtside administrators only.').waitFor()
    assert.deepEqual(await axeViolations(staff), [], 'refusal, 390 px')
    // The service refuses staff too.
    assert.equal(
      (await inject('GET', `/api/venues/${ui.venueId}/statement?from=${date}&to=${date}`, staffToken)).statusCode,
      403,
    )
  })

  test('Money and Payouts have no axe violation at 390×844', async () => {
    const phone = await pageAs('owner1@courtside.test', PHONE)
    await phone.goto(`${ui.server.url}/console/#/venues/${ui.venueId}/money`)
    await phone.getByRole('table', { name: 'Statement lines' }).waitFor()
    await phone.getByRole('button', { name: 'Save payout details' }).waitFor()
    assert.deepEqual(await axeViolations(phone), [], 'money page, 390 px')
    const admin = await pageAs('admin@courtside.test', PHONE)
    await admin.goto(`${ui.server.url}/console/#/payouts`)
    await admin.getByRole('article', { name: VENUE }).waitFor()
    await admin.getByText('Applied now').waitFor()
    assert.deepEqual(await axeViolations(admin), [], 'payouts page, 390 px')
  })
})
