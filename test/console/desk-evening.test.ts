import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import type { Page } from 'playwright-core'
import { ManualClock } from '../../src/lib/clock.ts'
import { axeViolations, PHONE, signIn, withConsole } from './browser.ts'

// Issue 51 at the desk on Friday 4 December 2026, 19:10 in Kathmandu (a ManualClock): the 19:00
// slot in progress is shown "now" and sold to a walk-in in at most 4 taps; a pending phone booking
// that never came is marked no-show from the board's booking panel; "Board updated at" is venue
// time even on a device set to another zone. A phone (390 px) and a desktop, axe on each.

const NOW = '2026-12-04T13:25:00Z' // 19:10 in Asia/Kathmandu (UTC+05:45)

describe('the desk on a Friday evening at 19:10 (issue 51)', () => {
  const ui = withConsole({ clock: new ManualClock(NOW) })

  const column = (p: Page, name: string) =>
    p.locator('section.board-col', { has: p.getByRole('heading', { name, exact: true }) })

  /** Court columns whose slot at `start` is in `state` (19:00 "now": free and in progress), from the API's board. */
  async function courtsFreeNow(start = '19:00', state = 'now'): Promise<{ id: number; name: string }[]> {
    const token = await ui.login('staff@courtside.test')
    const res = await ui.inject('GET', `/api/venues/${ui.venueId}/board`, token)
    assert.equal(res.statusCode, 200, res.body)
    const board = res.json().data as {
      columns: { kind: string; id: number; name: string; slots: { start_time: string; state: string }[] }[]
    }
    return board.columns
      .filter((c) => c.kind === 'court' && c.slots.some((s) => s.start_time === start && s.state === state))
      .map((c) => ({ id: c.id, name: c.name }))
  }

  test('on a phone, the 19:00 slot is "now" and a walk-in is sold into it in at most 4 taps', async () => {
    const [court] = await courtsFreeNow()
    assert.ok(court, 'a court is free at 19:00')
    const phone = await ui.pageAs('staff@courtside.test', PHONE)
    await phone.goto(`${ui.server.url}/console/#/venues/${ui.venueId}/board`)
    await phone.locator('.live-live').waitFor()
    const cell = column(phone, court.name).getByRole('button', { name: new RegExp(`^${court.name}, 19:00 Now · Free`) })
    await cell.waitFor()
    assert.equal(await column(phone, court.name).getByText('Past').count(), 0, 'the hour in progress is not "Past"')
    assert.deepEqual(await axeViolations(phone), [], 'board with the slot in progress, 390 px')

    let taps = 0
    const tap = async (target: ReturnType<Page['getByRole']>) => {
      taps++
      await target.click()
    }
    await tap(cell)
    const dialog = phone.getByRole('dialog', { name: `New booking: ${court.name}, 19:00` })
    // The name field has the focus, walk-in is the type, one slot 19:00–20:00 the duration. The
    // dialog renders after the tap; typing before the field holds the focus would type into the board.
    await phone.waitForFunction(() => document.activeElement?.getAttribute('name') === 'customer_name')
    await phone.keyboard.type('Friday Walk-in')
    assert.equal(await dialog.getByLabel('Customer name').inputValue(), 'Friday Walk-in')
    assert.equal(await dialog.getByLabel('Booking type').inputValue(), 'walkin')
    assert.match((await dialog.getByLabel('Duration').locator('option:checked').textContent()) ?? '', /19:00–20:00/)
    assert.deepEqual(await axeViolations(phone), [], 'new booking dialog, 390 px')
    await tap(dialog.getByRole('button', { name: 'Book' }))
    await phone.getByText(/Booked BK-\d{4}-\d{6} for Friday Walk-in, 19:00–20:00/).waitFor()
    assert.ok(taps <= 4, `${taps} taps`)
    await column(phone, court.name)
      .getByRole('button', { name: /Friday Walk-in/ })
      .waitFor()
    const made = await ui.server.app.ctx.db
      .selectFrom('bookings')
      .select(['type', 'status', 'start_time'])
      .where('customer_name', '=', 'Friday Walk-in')
      .executeTakeFirstOrThrow()
    assert.deepEqual(
      { ...made, start_time: made.start_time.slice(0, 5) },
      {
        type: 'walkin',
        status: 'pending',
        start_time: '19:00',
      },
    )
  })

  test('on a desktop in another time zone, a pending phone booking that never came is marked no-show; times are venue time', async () => {
    const courts = await courtsFreeNow()
    const court = courts[0]
    assert.ok(court, 'another court is free at 19:00')
    const staff = await ui.login('staff@courtside.test')
    const phoned = await ui.inject('POST', `/api/venues/${ui.venueId}/bookings`, staff, {
      court_id: court.id,
      date: '2026-12-04',
      start_time: '19:00',
      end_time: '20:00',
      type: 'offline',
      customer_name: 'Never Came',
      customer_phone: '+9779812345678',
    })
    assert.equal(phoned.statusCode, 201, phoned.body)
    const booking = phoned.json().data
    assert.equal(booking.status, 'pending')

    // A device whose clock is set to UTC (13:25 there): the console still shows venue time.
    const context = await ui.browser.newContext({ viewport: { width: 1280, height: 900 }, timezoneId: 'UTC' })
    const desk = await context.newPage()
    try {
      await signIn(desk, ui.server.url, 'staff@courtside.test', ui.server.seed.password)
      await desk.goto(`${ui.server.url}/console/#/venues/${ui.venueId}/board`)
      await desk.locator('.live-live').waitFor()
      await column(desk, court.name)
        .getByRole('button', { name: /Never Came/ })
        .click()
      const dialog = desk.getByRole('dialog', { name: `Booking ${booking.booking_number}` })
      // Started and unpaid: no-show is offered beside cancel.
      await dialog.getByRole('button', { name: 'Mark no-show' }).waitFor()
      await dialog.getByRole('button', { name: 'Cancel booking…' }).waitFor()
      assert.deepEqual(await axeViolations(desk), [], 'booking panel of a started pending booking, desktop')
      await dialog.getByRole('button', { name: 'Mark no-show' }).click()
      await dialog.getByText(`${booking.booking_number} is now no-show.`).waitFor()
      const row = await ui.server.app.ctx.db
        .selectFrom('bookings')
        .select('status')
        .where('id', '=', booking.id)
        .executeTakeFirstOrThrow()
      assert.equal(row.status, 'no_show')
      // The board followed the change; its announcement says the venue's time, not the device's 13:25.
      await desk.getByRole('status').filter({ hasText: 'Board updated at 19:10' }).waitFor()
      assert.equal(await desk.getByRole('status').filter({ hasText: '13:25' }).count(), 0)
    } finally {
      await context.close()
    }
  })

  test('on a phone, the booking panel of a pending booking that has not started offers no no-show', async () => {
    const token = await ui.login('staff@courtside.test')
    const courts = await courtsFreeNow('20:00', 'free')
    assert.ok(courts[0], 'a court is free at 20:00')
    const later = await ui.inject('POST', `/api/venues/${ui.venueId}/bookings`, token, {
      court_id: courts[0].id,
      date: '2026-12-04',
      start_time: '20:00',
      end_time: '21:00',
      type: 'offline',
      customer_name: 'Later Caller',
    })
    assert.equal(later.statusCode, 201, later.body)
    const phone = await ui.pageAs('staff@courtside.test', PHONE)
    await phone.goto(`${ui.server.url}/console/#/venues/${ui.venueId}/board`)
    await column(phone, courts[0].name)
      .getByRole('button', { name: /Later Caller/ })
      .click()
    const dialog = phone.getByRole('dialog', { name: `Booking ${later.json().data.booking_number}` })
    await dialog.getByRole('button', { name: 'Cancel booking…' }).waitFor()
    assert.equal(await dialog.getByRole('button', { name: 'Mark no-show' }).count(), 0)
    assert.deepEqual(await axeViolations(phone), [], 'booking panel of a later pending booking, 390 px')
  })
})
