import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core'
import { legacyGatewayPayment } from '../desk/cash-back-helpers.ts'
import type { TestUser } from '../helpers/factories.ts'
import { ordinaryDayAfter } from '../helpers/factories.ts'
import { payAtDeskByQr } from '../payments/helpers.ts'
import {
  axeViolations,
  CONSOLE_NOW,
  type ConsoleServer,
  demoVenueId,
  freePort,
  launchBrowser,
  screenshot,
  signIn,
  startConsoleServer,
} from './browser.ts'

// The front desk in a real browser on the demo data: the demo staff of Baneshwor Futsal Arena makes
// a walk-in from a free slot and the owner's board (a second browser context) shows it without a
// reload (the events stream); cash, an extra charge, playing and completed; a cancellation; a
// maintenance block and its removal; the contract's 409 on the form when the slot was taken
// meanwhile; axe-core on the board and the booking dialog.

// Two or more days ahead, on a day with the weekday prices the assertions read (not a Saturday or a holiday).
const date = ordinaryDayAfter(CONSOLE_NOW, 2)

describe('console day board (front desk)', () => {
  let server: ConsoleServer
  let browser: Browser
  let venueId: number
  let courtA: number
  let courtB: number
  let staffToken: string
  const contexts: BrowserContext[] = []

  before(async () => {
    // APP_URL is the server's own address: the customer's phone follows the gateway back to it.
    server = await startConsoleServer({}, { port: await freePort() })
    browser = await launchBrowser(server.app.ctx.clock)
    const db = server.app.ctx.db
    venueId = await demoVenueId(server)
    const courts = await db.selectFrom('courts').select(['id', 'name']).where('venue_id', '=', venueId).execute()
    courtA = courts.find((c) => c.name === 'Court A')!.id
    courtB = courts.find((c) => c.name === 'Court B')!.id
    const login = await server.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'staff@courtside.test', password: server.seed.password },
    })
    staffToken = login.json().token
  })
  after(async () => {
    for (const c of contexts) await c.close()
    await browser?.close()
    await server?.close()
  })

  async function deskPage(email: string, width = 1280): Promise<Page> {
    const context = await browser.newContext({ viewport: { width, height: 900 }, timezoneId: 'Asia/Kathmandu' })
    contexts.push(context)
    const page = await context.newPage()
    await signIn(page, server.url, email, server.seed.password)
    await page.goto(`${server.url}/console/#/venues/${venueId}/board?date=${date}`)
    await page.locator('.live-live').waitFor()
    return page
  }

  const column = (page: Page, name: string): Locator =>
    page.locator('section.board-col', { has: page.getByRole('heading', { name, exact: true }) })
  const slot = (page: Page, court: string, time: string) =>
    column(page, court).getByRole('button', { name: new RegExp(`^${court}, ${time} Free`) })

  /** A desk booking made through the API (another desk, a phone call), as the staff. */
  async function bookElsewhere(court: number, start: string, end: string, name: string) {
    const res = await server.app.inject({
      method: 'POST',
      url: `/api/venues/${venueId}/bookings`,
      headers: { authorization: `Bearer ${staffToken}` },
      payload: { court_id: court, date, start_time: start, end_time: end, type: 'offline', customer_name: name },
    })
    assert.equal(res.statusCode, 201, res.body)
    return res.json().data as { id: number; booking_number: string; total_amount: string }
  }

  let staff: Page
  let owner: Page

  test('a walk-in from a free slot appears on a second browser without a reload', async () => {
    staff = await deskPage('staff@courtside.test')
    owner = await deskPage('owner1@courtside.test', 1024)
    assert.deepEqual(await axeViolations(staff), [])
    // Prices on free slots (Court A: Rs 1,500.00 base, evening peak +400, Saturday +500).
    assert.match((await slot(staff, 'Court A', '18:00').textContent()) ?? '', /Rs 1,[89]00\.00\/h/)
    await slot(staff, 'Court A', '18:00').click()
    const dialog = staff.getByRole('dialog', { name: /New booking: Court A, 18:00/ })
    await dialog.getByLabel('Customer name').fill('Walk-in Ram')
    await dialog.getByLabel('Phone').fill('+9779811111111')
    await dialog.getByLabel('Booking type').selectOption('walkin')
    await dialog.getByLabel('Duration').selectOption({ label: '1 slot (18:00–19:00)' })
    await dialog.getByRole('button', { name: 'Book' }).click()
    await staff.getByText(/Booked BK-\d{4}-\d{6} for Walk-in Ram, 18:00–19:00/).waitFor()
    const cell = column(staff, 'Court A').getByRole('button', { name: /Walk-in Ram/ })
    await cell.waitFor()
    assert.match((await cell.textContent()) ?? '', /BK-\d{4}-\d{6}.*Due Rs/)
    // The owner's board (another browser context, never reloaded) follows through the event stream.
    await column(owner, 'Court A')
      .getByRole('button', { name: /Walk-in Ram/ })
      .waitFor({ timeout: 5000 })
    await owner
      .getByRole('status')
      .filter({ hasText: /Board updated at/ })
      .waitFor()
    assert.match((await owner.locator('.totals').textContent()) ?? '', /Bookings1/)
  })

  test('the booking dialog: an extra charge, cash for the balance, playing then completed', async () => {
    await column(staff, 'Court A')
      .getByRole('button', { name: /Walk-in Ram/ })
      .click()
    const dialog = staff.getByRole('dialog', { name: /Booking BK-/ })
    await dialog.getByText('Balance due').waitFor()
    await dialog.getByLabel('Charge for').fill('Ball rental')
    await dialog.getByLabel('Charge amount (Rs)').fill('200')
    await dialog.getByRole('button', { name: 'Add charge' }).click()
    await dialog.getByText(/Charge Rs 200\.00 added/).waitFor()
    await dialog.getByRole('cell', { name: 'Ball rental' }).waitFor()
    // The cash amount defaults to the balance due (the slot's price plus the charge).
    const due = await dialog.locator('.booking-facts dd.strong').textContent()
    const amount = await dialog.getByLabel('Cash amount (Rs)').inputValue()
    assert.equal(due, `Rs ${Number(amount).toLocaleString('en-US', { minimumFractionDigits: 2 })}`)
    assert.deepEqual(await axeViolations(staff), [])
    await screenshot(staff, 'console-booking')
    await dialog.getByRole('button', { name: 'Record cash payment' }).click()
    await dialog.getByText(/Cash Rs [\d,]+\.00 recorded/).waitFor()
    assert.equal(await dialog.locator('.booking-facts dd.strong').textContent(), 'Rs 0.00')
    await dialog.getByRole('cell', { name: 'Cash' }).waitFor()
    // Fully paid: confirmed; offered: playing and cancel, not completed (not a transition from confirmed).
    assert.equal(await dialog.getByRole('button', { name: 'Mark completed' }).count(), 0)
    await dialog.getByRole('button', { name: 'Mark playing' }).click()
    await dialog.getByText(/is now playing/).waitFor()
    assert.equal(await dialog.getByRole('button', { name: 'Cancel booking…' }).count(), 0)
    await dialog.getByRole('button', { name: 'Mark completed' }).click()
    await dialog.getByText(/is now completed/).waitFor()
    assert.equal(await dialog.locator('.actions button.primary, .actions button.danger').count(), 0)
    // The receipt: shown, printable.
    await dialog.getByRole('button', { name: 'Show receipt' }).click()
    const receipt = dialog.getByRole('region', { name: 'Receipt' })
    assert.match((await receipt.textContent()) ?? '', /Ball rental.*Rs 200\.00.*Balance dueRs 0\.00/)
    await dialog.getByRole('button', { name: 'Print receipt' }).waitFor()
    await dialog.getByRole('button', { name: 'Close', exact: true }).first().click()
    // Focus returns to the booking's cell on the board.
    assert.match(await staff.evaluate(() => document.activeElement?.textContent ?? ''), /Walk-in Ram/)
    // The day's totals on the board: one booking, cash taken.
    await staff
      .locator('.totals')
      .filter({ hasText: /Cash takenRs [1-9]/ })
      .waitFor()
  })

  test("a desk QR payment: the customer pays on their phone and the dialog sees the gateway's confirmation", async () => {
    const booked = await bookElsewhere(courtA, '07:00', '08:00', 'QR Hari')
    const cell = column(staff, 'Court A').getByRole('button', { name: /QR Hari/ })
    await cell.waitFor({ timeout: 5000 })
    await cell.click()
    const dialog = staff.getByRole('dialog', { name: `Booking ${booked.booking_number}` })
    await dialog.getByText('Balance due').waitFor()
    const due = await dialog.getByLabel('Cash amount (Rs)').inputValue()
    await dialog.getByRole('button', { name: 'Khalti QR' }).click()
    const qr = dialog.getByRole('group', { name: 'Payment QR' })
    await qr.getByRole('img', { name: /QR code: pay Rs [\d,]+\.00 by Khalti/ }).waitFor()
    await qr.getByText(/Waiting for the customer to pay/).waitFor()
    assert.deepEqual(await axeViolations(staff), [])
    // Nothing is recorded until the gateway confirms it.
    assert.notEqual(await dialog.locator('.booking-facts dd.strong').textContent(), 'Rs 0.00')
    // The customer's phone opens the QR's payment page and pays at the gateway.
    const href = await qr.getByRole('link', { name: 'Open the payment page' }).getAttribute('href')
    assert.ok(href)
    const phone = await staff.context().newPage()
    await phone.goto(href)
    await phone.getByRole('button', { name: 'Pay', exact: true }).click()
    await phone.getByText(/Payment received/).waitFor()
    await phone.close()
    await dialog
      .getByText(
        new RegExp(
          `Khalti Rs ${Number(due).toLocaleString('en-US', { minimumFractionDigits: 2 })} received for ${booked.booking_number}`,
        ),
      )
      .waitFor({ timeout: 10000 })
    assert.equal(await dialog.locator('.booking-facts dd.strong').textContent(), 'Rs 0.00')
    await dialog.getByRole('cell', { name: 'Khalti' }).waitFor()
    await dialog.getByRole('button', { name: 'Close', exact: true }).first().click()
  })

  test('desk gateway money refunded goes back through the gateway: the owner records the refund of a typed payment', async () => {
    const staffHeaders = { headers: { authorization: `Bearer ${staffToken}` } }
    const cancel = async (id: number) => {
      const res = await server.app.inject({
        method: 'PATCH',
        url: `/api/bookings/${id}/status`,
        ...staffHeaders,
        payload: { status: 'cancelled' },
      })
      assert.equal(res.statusCode, 200, res.body)
    }
    // An eSewa QR payment: the platform's gateway took it, the platform sends it back.
    const qr = await bookElsewhere(courtA, '08:00', '09:00', 'Refund Gita')
    await payAtDeskByQr(server.app, staffHeaders, { id: qr.id }, qr.total_amount, 'gateway_1')
    await cancel(qr.id)
    // A Khalti payment staff typed before desk QR payments: it went to the venue's own account.
    const typed = await bookElsewhere(courtB, '08:00', '09:00', 'Typed Shyam')
    const staffRow = await server.app.ctx.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'staff@courtside.test')
      .executeTakeFirstOrThrow()
    await legacyGatewayPayment(
      server.app,
      { id: staffRow.id } as TestUser,
      typed.id,
      Math.round(Number(typed.total_amount) * 100),
    )
    await cancel(typed.id)
    // Staff never see them (they are not the drawer's); the owner does.
    assert.equal(await staff.getByRole('heading', { name: 'Refunds due at the gateway' }).count(), 0)
    await owner.reload()
    await owner.locator('.live-live').waitFor()
    const section = owner.locator('section.gateway-refunds')
    await section.getByRole('heading', { name: 'Refunds due at the gateway' }).waitFor()
    await section
      .getByRole('row')
      .filter({ hasText: qr.booking_number })
      .getByText('The platform sends this back through eSewa.')
      .waitFor()
    await section.getByLabel(new RegExp(`Khalti reference for ${typed.booking_number}`)).fill('KH-RF-77')
    await section.getByRole('button', { name: new RegExp(`Mark done.*${typed.booking_number}`) }).click()
    await section
      .getByText(new RegExp(`Khalti refund of Rs [\\d,]+\\.00 for ${typed.booking_number}.* recorded as done`))
      .waitFor()
    // The list is read again after the notice: the row goes once it is.
    await section.getByRole('row').filter({ hasText: typed.booking_number }).waitFor({ state: 'detached' })
    assert.deepEqual(await axeViolations(owner), [])
  })

  test('cancelling a booking with a reason releases its slot', async () => {
    const other = await bookElsewhere(courtB, '20:00', '21:00', 'Phone Sita')
    const cell = column(staff, 'Court B').getByRole('button', { name: /Phone Sita/ })
    await cell.waitFor({ timeout: 5000 })
    await cell.click()
    const dialog = staff.getByRole('dialog', { name: `Booking ${other.booking_number}` })
    await dialog.getByRole('button', { name: 'Cancel booking…' }).click()
    await dialog.getByLabel('Reason for cancelling').fill('Customer called to cancel')
    await dialog.getByRole('button', { name: 'Confirm cancellation' }).click()
    await dialog.getByText(/is now cancelled/).waitFor()
    await dialog.getByRole('button', { name: 'Close', exact: true }).first().click()
    await slot(staff, 'Court B', '20:00').waitFor()
    await staff.getByRole('button', { name: new RegExp(`${other.booking_number} · Phone Sita .* Cancelled`) }).waitFor()
    const row = await server.app.ctx.db
      .selectFrom('bookings')
      .select(['status', 'cancel_reason'])
      .where('id', '=', other.id)
      .executeTakeFirstOrThrow()
    assert.deepEqual(row, { status: 'cancelled', cancel_reason: 'Customer called to cancel' })
  })

  test('a court blocked for maintenance, then the block removed', async () => {
    await staff.getByRole('button', { name: 'Block Court B time' }).click()
    const dialog = staff.getByRole('dialog', { name: 'Block Court B for maintenance' })
    // Both choices in one task, the dialog rendered in between but not painted: "Until" must keep
    // 09:00 (an effect that followed "From" after the paint once overwrote it on a busy machine).
    await dialog.evaluate(async (d) => {
      for (const [label, value] of [
        ['From', '07:00'],
        ['Until', '09:00'],
      ]) {
        const id = [...d.querySelectorAll('label')].find((l) => l.textContent?.trim() === label)?.htmlFor ?? ''
        const select = d.querySelector<HTMLSelectElement>(`#${CSS.escape(id)}`)
        if (!select) throw new Error(`no ${label} select`)
        select.value = value
        select.dispatchEvent(new Event('change', { bubbles: true }))
        // Let the dialog render (a microtask), but not paint: effects would run only after the paint.
        for (let i = 0; i < 5; i++) await Promise.resolve()
      }
    })
    await staff.waitForTimeout(100)
    assert.equal(await dialog.getByLabel('Until').inputValue(), '09:00')
    await dialog.getByLabel('Reason').fill('Net repair')
    await dialog.getByRole('button', { name: 'Block court' }).click()
    const block = column(staff, 'Court B').getByRole('button', { name: /07:00–09:00 Maintenance Net repair/ })
    await block.waitFor()
    await column(owner, 'Court B')
      .getByRole('button', { name: /Maintenance/ })
      .waitFor({ timeout: 5000 })
    assert.equal(await slot(staff, 'Court B', '08:00').count(), 0)
    await block.click()
    await staff
      .getByRole('dialog', { name: 'Maintenance on Court B' })
      .getByRole('button', { name: 'Remove block' })
      .click()
    await slot(staff, 'Court B', '08:00').waitFor()
    assert.equal(
      await column(staff, 'Court B')
        .getByRole('button', { name: /Maintenance/ })
        .count(),
      0,
    )
  })

  test('the 409 of a slot taken meanwhile is shown on the form, and a missing name next to its field', async () => {
    await slot(staff, 'Court A', '15:00').click()
    const dialog = staff.getByRole('dialog', { name: /New booking: Court A, 15:00/ })
    // 422: the name is required; the message sits under the field (aria-describedby).
    await dialog.getByRole('button', { name: 'Book' }).click()
    const name = dialog.getByLabel('Customer name')
    await staff.waitForFunction(() => document.querySelector('dialog [aria-invalid="true"]') !== null)
    assert.equal(await name.getAttribute('aria-invalid'), 'true')
    const describedBy = (await name.getAttribute('aria-describedby')) ?? ''
    assert.match((await staff.locator(`[id="${describedBy}"]`).textContent()) ?? '', /\S/)
    // Someone else takes 15:00 while the form is open.
    await bookElsewhere(courtA, '15:00', '16:00', 'Quick Hari')
    await name.fill('Late Gita')
    await dialog.getByRole('button', { name: 'Book' }).click()
    const alert = dialog.getByRole('alert')
    await alert.waitFor()
    assert.match((await alert.textContent()) ?? '', /not available/i)
    assert.equal(await staff.getByRole('dialog').count(), 1)
    await dialog.getByRole('button', { name: 'Close', exact: true }).first().click()
    await column(staff, 'Court A')
      .getByRole('button', { name: /Quick Hari/ })
      .waitFor()
  })

  test("an indoor game's walk-in paid in cash, and a customer's online payment hold with its expiry", async () => {
    await slot(staff, 'PS5 Station 1', '11:00').click()
    const dialog = staff.getByRole('dialog', { name: /New booking: PS5 Station 1, 11:00/ })
    await dialog.getByLabel('Customer name').fill('Gamer Bijay')
    await dialog.getByRole('button', { name: 'Book' }).click()
    const cell = column(staff, 'PS5 Station 1').getByRole('button', { name: /Gamer Bijay/ })
    await cell.click()
    const panel = staff.getByRole('dialog', { name: /Booking IG-/ })
    await panel.getByRole('button', { name: 'Record cash payment' }).click()
    await panel.getByText(/Cash Rs [\d,]+\.00 recorded/).waitFor()
    assert.equal(await panel.locator('.booking-facts dd.strong').textContent(), 'Rs 0.00')
    await panel.getByRole('button', { name: 'Close', exact: true }).first().click()
    await column(staff, 'PS5 Station 1')
      .getByRole('button', { name: /Gamer Bijay.*Paid in full/ })
      .waitFor()

    const login = await server.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'customer@courtside.test', password: server.seed.password },
    })
    const held = await server.app.inject({
      method: 'POST',
      url: '/api/bookings',
      headers: { authorization: `Bearer ${login.json().token}` },
      payload: { court_id: courtB, date, start_time: '10:00', end_time: '11:00', payment_method: 'gateway_1' },
    })
    assert.equal(held.statusCode, 201, held.body)
    const hold = column(staff, 'Court B').getByRole('button', { name: /Bikash Thapa/ })
    await hold.waitFor({ timeout: 5000 })
    assert.match((await hold.textContent()) ?? '', /Hold ends \d{2}:\d{2} \(\d+ min\) Due Rs [\d,]+\.00/)
  })

  test('the board fits a 1024-px tablet: columns scroll sideways, the page does not', async () => {
    const overflow = await owner.evaluate(() => ({
      page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      board: document.querySelector('.board-scroll')!.clientWidth,
    }))
    assert.equal(overflow.page, 0)
    assert.ok(overflow.board <= 1024, String(overflow.board))
    assert.deepEqual(await axeViolations(owner), [])
    // Keyboard: a slot is a button (Enter opens its dialog, Escape closes it and focus comes back).
    const free = slot(owner, 'Court B', '12:00')
    await free.focus()
    await owner.keyboard.press('Enter')
    await owner.getByRole('dialog', { name: /New booking: Court B, 12:00/ }).waitFor()
    assert.equal(await owner.evaluate(() => document.activeElement?.getAttribute('name')), 'customer_name')
    await owner.keyboard.press('Escape')
    await owner.getByRole('dialog').waitFor({ state: 'detached' })
    assert.match(await owner.evaluate(() => document.activeElement?.textContent ?? ''), /Court B, 12:00 Free/)
    // The README's picture: the staff's whole day after the tests above.
    await staff.setViewportSize({ width: 1280, height: 1900 })
    await staff.evaluate(() => window.scrollTo(0, 0))
    await screenshot(staff, 'console-board')
  })
})
