import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { build } from '../helpers/app.ts'
import { createIndoorGame, type TestUser } from '../helpers/factories.ts'
import { book, type World, world } from './helpers.ts'

// Issue 32: the desk sells the slot in progress, unpaid no-shows, no-show strikes and the venue's
// booking rules (docs/bookings.md, "Booking rules" and "No-shows"). Every test runs on a
// ManualClock: Wednesday 10 March 2027, 18:05 in Kathmandu.

const TODAY = '2027-03-10'
const TOMORROW = '2027-03-11'

async function setup(t: Parameters<typeof build>[0], env: Record<string, string> = {}) {
  const clock = new ManualClock('2027-03-10T12:20:00Z')
  const app = await build(t, { MAX_UNPAID_BOOKINGS: '100', ...env }, { clock })
  assert.equal(app.ctx.zone.format(clock.now()), `${TODAY} 18:05:00`)
  const w = await world(app, { wallet: 1_000_000 })
  const game = await createIndoorGame(app, w.venue.id, { price_per_hour: 30000 })
  const at = (date: string, time: string) => clock.set(app.ctx.zone.instant(date, time))
  return { app, clock, w, game, at }
}

function deskBook(app: App, user: TestUser, venue: number, payload: Record<string, unknown>) {
  return app.inject({ method: 'POST', url: `/api/venues/${venue}/bookings`, headers: user.headers, payload })
}

function deskIndoor(app: App, user: TestUser, venue: number, payload: Record<string, unknown>) {
  return app.inject({
    method: 'POST',
    url: `/api/venues/${venue}/indoor-game-bookings`,
    headers: user.headers,
    payload,
  })
}

function bookIndoor(app: App, user: TestUser, payload: Record<string, unknown>) {
  return app.inject({ method: 'POST', url: '/api/indoor-game-bookings', headers: user.headers, payload })
}

function setStatus(app: App, user: TestUser, kind: 'court' | 'indoor', id: number, status: string) {
  const url = kind === 'court' ? `/api/bookings/${id}/status` : `/api/indoor-game-bookings/${id}/status`
  return app.inject({ method: 'PATCH', url, headers: user.headers, payload: { status } })
}

function patchVenue(app: App, user: TestUser, venue: number, payload: Record<string, unknown>) {
  return app.inject({ method: 'PATCH', url: `/api/venues/${venue}`, headers: user.headers, payload })
}

const court = (w: World, date: string, start: string, end: string, extra: Record<string, unknown> = {}) => ({
  court_id: w.court.id,
  date,
  start_time: start,
  end_time: end,
  ...extra,
})

test('staff book a walk-in into the slot in progress at 18:05, priced as the slot; customers may not', async (t) => {
  const { app, w, game } = await setup(t)
  const res = await deskBook(app, w.staff, w.venue.id, {
    ...court(w, TODAY, '18:00', '19:00'),
    type: 'walkin',
    customer_name: 'Team at the door',
  })
  assert.equal(res.statusCode, 201, res.body)
  assert.equal(res.json().data.total_amount, '1500.00')
  assert.equal(res.json().data.start_time, '18:00')

  // The customer gets the old answer.
  const mine = await book(app, w.customer, court(w, TODAY, '19:00', '20:00'))
  assert.equal(mine.statusCode, 201, mine.body)
  const late = await book(app, w.customer, { ...court(w, TODAY, '18:00', '19:00') })
  assert.equal(late.statusCode, 422)
  assert.deepEqual(late.json().errors.start_time, ['The start time must not be in the past.'])

  // Staff may not reach back past the slot in progress.
  for (const [start, end] of [
    ['17:00', '18:00'],
    ['17:00', '19:00'],
  ]) {
    const back = await deskBook(app, w.staff, w.venue.id, { ...court(w, TODAY, start, end), customer_name: 'X' })
    assert.equal(back.statusCode, 422, `${start}-${end}: ${back.body}`)
    assert.deepEqual(back.json().errors.start_time, ['The start time must not be before the slot in progress.'])
  }

  // Indoor: the same at the desk.
  const indoor = await deskIndoor(app, w.owner, w.venue.id, {
    indoor_game_id: game.id,
    date: TODAY,
    start_time: '18:00',
    end_time: '19:00',
    type: 'walkin',
    customer_name: 'Walk-in players',
  })
  assert.equal(indoor.statusCode, 201, indoor.body)
  assert.equal(indoor.json().data.total_amount, '300.00')
  const indoorLate = await bookIndoor(app, w.customer, {
    indoor_game_id: game.id,
    date: TODAY,
    start_time: '18:00',
    end_time: '19:00',
  })
  assert.equal(indoorLate.statusCode, 422)
  assert.ok(indoorLate.json().errors.start_time)
})

test('staff mark an unpaid pending booking no_show once its start has passed (court and indoor)', async (t) => {
  const { app, w, game, at } = await setup(t)
  const c = await book(app, w.customer, court(w, TOMORROW, '10:00', '11:00', { payment_method: 'cash' }))
  assert.equal(c.statusCode, 201, c.body)
  const i = await bookIndoor(app, w.customer, {
    indoor_game_id: game.id,
    date: TOMORROW,
    start_time: '10:00',
    end_time: '11:00',
  })
  assert.equal(i.statusCode, 201, i.body)
  const pay = await app.inject({
    method: 'POST',
    url: '/api/payments/initiate',
    headers: w.customer.headers,
    payload: { booking_type: 'indoor', booking_id: i.json().data.id, method: 'cash' },
  })
  assert.equal(pay.statusCode, 200, pay.body)

  const early = await setStatus(app, w.staff, 'court', c.json().data.id, 'no_show')
  assert.equal(early.statusCode, 422)
  assert.match(early.body, /only after its start time/)

  at(TOMORROW, '10:20')
  const court1 = await setStatus(app, w.staff, 'court', c.json().data.id, 'no_show')
  assert.equal(court1.statusCode, 200, court1.body)
  assert.equal(court1.json().data.status, 'no_show')
  assert.equal(court1.json().data.paid_amount, '0.00')
  const indoor1 = await setStatus(app, w.staff, 'indoor', i.json().data.id, 'no_show')
  assert.equal(indoor1.statusCode, 200, indoor1.body)
  assert.equal(indoor1.json().data.status, 'no_show')
  // Final: nothing moves it again.
  const again = await setStatus(app, w.staff, 'court', c.json().data.id, 'cancelled')
  assert.equal(again.statusCode, 422)
})

/** Books tomorrow 10:00 (cash) and marks it no-show at 10:30; the clock then stays on the next day. */
async function noShow(s: Awaited<ReturnType<typeof setup>>, kind: 'court' | 'indoor', date: string) {
  const { app, w, game, at } = s
  const res =
    kind === 'court'
      ? await book(app, w.customer, court(w, date, '10:00', '11:00', { payment_method: 'cash' }))
      : await bookIndoor(app, w.customer, { indoor_game_id: game.id, date, start_time: '10:00', end_time: '11:00' })
  assert.equal(res.statusCode, 201, res.body)
  at(date, '10:30')
  const marked = await setStatus(app, w.staff, kind, res.json().data.id, 'no_show')
  assert.equal(marked.statusCode, 200, marked.body)
  return res.json().data.id as number
}

test('no-show strikes: at the limit a customer books only by paying online; staff clear them, history kept', async (t) => {
  const s = await setup(t)
  const { app, w, game, at } = s
  // One court and one indoor no-show: strikes count both kinds.
  await noShow(s, 'court', TOMORROW)
  await noShow(s, 'indoor', '2027-03-12')
  at('2027-03-12', '12:00')

  const standing = await app.inject({
    method: 'GET',
    url: `/api/venues/${w.venue.id}/customers/${w.customer.id}/no-shows`,
    headers: w.staff.headers,
  })
  assert.equal(standing.statusCode, 200, standing.body)
  assert.deepEqual(standing.json().data, {
    venue_id: w.venue.id,
    user_id: w.customer.id,
    no_shows: 2,
    no_show_limit: 2,
    restricted: true,
    cleared_at: null,
  })

  // Pay at the venue: refused, saying why.
  const cash = await book(app, w.customer, court(w, '2027-03-13', '10:00', '11:00', { payment_method: 'cash' }))
  assert.equal(cash.statusCode, 422, cash.body)
  assert.match(cash.json().message, /2 no-shows at this venue in the last 90 days/)
  assert.match(cash.json().errors.no_show_limit[0], /only by paying online/)

  // Online at once: allowed (held for the payment window), and paid by wallet.
  const online = await book(app, w.customer, court(w, '2027-03-13', '10:00', '11:00'))
  assert.equal(online.statusCode, 201, online.body)
  // ... but choosing cash afterwards is refused too.
  const later = await app.inject({
    method: 'POST',
    url: '/api/payments/initiate',
    headers: w.customer.headers,
    payload: { booking_id: online.json().data.id, method: 'cash' },
  })
  assert.equal(later.statusCode, 422, later.body)
  assert.ok(later.json().errors.no_show_limit)
  const paid = await app.inject({
    method: 'POST',
    url: '/api/payments/initiate',
    headers: w.customer.headers,
    payload: { booking_id: online.json().data.id, method: 'wallet' },
  })
  assert.equal(paid.statusCode, 200, paid.body)

  // Indoor: choosing cash is refused the same way.
  const indoor = await bookIndoor(app, w.customer, {
    indoor_game_id: game.id,
    date: '2027-03-13',
    start_time: '12:00',
    end_time: '13:00',
  })
  assert.equal(indoor.statusCode, 201, indoor.body)
  const indoorCash = await app.inject({
    method: 'POST',
    url: '/api/payments/initiate',
    headers: w.customer.headers,
    payload: { booking_type: 'indoor', booking_id: indoor.json().data.id, method: 'cash' },
  })
  assert.equal(indoorCash.statusCode, 422, indoorCash.body)

  // A series holds its later weeks until they are paid: refused as paying later.
  const series = await app.inject({
    method: 'POST',
    url: '/api/bookings/series',
    headers: w.customer.headers,
    payload: { court_id: w.court.id, start_date: '2027-03-14', start_time: '08:00', end_time: '09:00', weeks: 2 },
  })
  assert.equal(series.statusCode, 422, series.body)
  assert.ok(series.json().errors.no_show_limit, series.body)

  // Staff desk bookings are not a customer's: no rule applies.
  const desk = await deskBook(app, w.staff, w.venue.id, {
    ...court(w, '2027-03-13', '15:00', '16:00'),
    customer_name: 'X',
  })
  assert.equal(desk.statusCode, 201, desk.body)

  // Only the venue's people clear strikes.
  const url = `/api/venues/${w.venue.id}/customers/${w.customer.id}/no-shows`
  assert.equal((await app.inject({ method: 'DELETE', url, headers: w.customer.headers })).statusCode, 403)
  const cleared = await app.inject({ method: 'DELETE', url, headers: w.staff.headers })
  assert.equal(cleared.statusCode, 200, cleared.body)
  assert.equal(cleared.json().message, '2 no-shows cleared.')
  assert.equal(cleared.json().data.no_shows, 0)
  assert.equal(cleared.json().data.restricted, false)
  assert.equal(cleared.json().data.cleared_at, '2027-03-12 12:00:00')
  assert.equal(
    (
      await app.inject({
        method: 'DELETE',
        url: `/api/venues/${w.venue.id}/customers/999999/no-shows`,
        headers: w.staff.headers,
      })
    ).statusCode,
    404,
  )

  // The history stays: the bookings are still no-shows, the clearing is recorded.
  const noShows = await app.ctx.db
    .selectFrom('bookings')
    .select('id')
    .where('user_id', '=', w.customer.id)
    .where('status', '=', 'no_show')
    .execute()
  assert.equal(noShows.length, 1)
  const log = await app.ctx.db.selectFrom('venue_no_show_clearances').selectAll().execute()
  assert.equal(log.length, 1)
  assert.equal(log[0].cleared_by, w.staff.id)
  assert.equal(log[0].no_shows, 2)

  const again = await book(app, w.customer, court(w, '2027-03-13', '11:00', '12:00', { payment_method: 'cash' }))
  assert.equal(again.statusCode, 201, again.body)

  // A limit of null turns the rule off; no-shows older than 90 days do not count.
  await noShow(s, 'court', '2027-03-14')
  await noShow(s, 'court', '2027-03-15')
  at('2027-03-15', '12:00')
  assert.equal(
    (await book(app, w.customer, court(w, '2027-03-16', '10:00', '11:00', { payment_method: 'cash' }))).statusCode,
    422,
  )
  assert.equal((await patchVenue(app, w.manager, w.venue.id, { no_show_limit: null })).statusCode, 200)
  assert.equal(
    (await book(app, w.customer, court(w, '2027-03-16', '10:00', '11:00', { payment_method: 'cash' }))).statusCode,
    201,
  )
  assert.equal((await patchVenue(app, w.manager, w.venue.id, { no_show_limit: 2 })).statusCode, 200)
  at('2027-06-14', '12:00') // 91 days after 15 March: only 14 March's... neither counts any more
  assert.equal(
    (await book(app, w.customer, court(w, '2027-06-15', '10:00', '11:00', { payment_method: 'cash' }))).statusCode,
    201,
  )
})

// The venue's rules are read through the read cache (booking-core/rules.ts), which the tests
// otherwise run without: once more with it on, as in production, a changed rule binds the next booking.
for (const [cache, env] of [
  ['', {}],
  [', with the read cache on', { CACHE_TTL_MS: '30000' }],
] as const) {
  test(`booking rules${cache}: set by owner or manager, shown on the venue, binding customers only, each a 422 naming the rule`, async (t) => {
    const { app, w, game } = await setup(t, env)
    // Defaults.
    const shown = await app.inject({ method: 'GET', url: `/api/venues/${w.venue.id}`, headers: w.owner.headers })
    assert.equal(shown.statusCode, 200, shown.body)
    const d = shown.json().data
    assert.deepEqual(
      [d.booking_window_days, d.min_notice_minutes, d.max_hours_per_day, d.no_show_limit],
      [30, 0, null, 2],
    )
    // The default window: 30 days ahead yes, 31 no.
    assert.equal((await book(app, w.customer, court(w, '2027-04-09', '10:00', '11:00'))).statusCode, 201)
    const far = await book(app, w.customer, court(w, '2027-04-10', '10:00', '11:00'))
    assert.equal(far.statusCode, 422, far.body)
    assert.match(
      far.json().message,
      /at most 30 days ahead \(booking window\): the last date you can book is 2027-04-09/,
    )
    assert.ok(far.json().errors.booking_window_days)

    // Staff may not change the rules; a manager may; bad values are 422.
    assert.equal((await patchVenue(app, w.staff, w.venue.id, { booking_window_days: 10 })).statusCode, 403)
    assert.equal((await patchVenue(app, w.manager, w.venue.id, { booking_window_days: 0 })).statusCode, 422)
    assert.equal((await patchVenue(app, w.manager, w.venue.id, { max_hours_per_day: 25 })).statusCode, 422)
    const set = await patchVenue(app, w.manager, w.venue.id, {
      booking_window_days: 10,
      min_notice_minutes: 120,
      max_hours_per_day: 2,
    })
    assert.equal(set.statusCode, 200, set.body)
    assert.equal(set.json().data.booking_window_days, 10)
    assert.equal(set.json().data.min_notice_minutes, 120)
    assert.equal(set.json().data.max_hours_per_day, 2)

    // Window.
    const w11 = await book(app, w.customer, court(w, '2027-03-21', '10:00', '11:00'))
    assert.equal(w11.statusCode, 422)
    assert.ok(w11.json().errors.booking_window_days)
    const i11 = await bookIndoor(app, w.customer, {
      indoor_game_id: game.id,
      date: '2027-03-21',
      start_time: '10:00',
      end_time: '11:00',
    })
    assert.equal(i11.statusCode, 422)
    assert.ok(i11.json().errors.booking_window_days)
    const desk = await deskBook(app, w.staff, w.venue.id, {
      ...court(w, '2027-03-21', '10:00', '11:00'),
      customer_name: 'X',
    })
    assert.equal(desk.statusCode, 201, desk.body)
    // A series: every week must lie inside the window.
    const series = await app.inject({
      method: 'POST',
      url: '/api/bookings/series',
      headers: w.customer.headers,
      payload: { court_id: w.court.id, start_date: '2027-03-15', start_time: '07:00', end_time: '08:00', weeks: 2 },
    })
    assert.equal(series.statusCode, 422, series.body)
    assert.ok(series.json().errors.booking_window_days)

    // Minimum notice: 19:00 today is 55 minutes away.
    const soon = await book(app, w.customer, court(w, TODAY, '19:00', '20:00'))
    assert.equal(soon.statusCode, 422)
    assert.match(soon.json().message, /at least 2 hours before the start \(minimum notice\)/)
    assert.ok(soon.json().errors.min_notice_minutes)
    assert.equal((await book(app, w.customer, court(w, TODAY, '21:00', '22:00'))).statusCode, 201)
    // Staff are exempt.
    const walkin = await deskBook(app, w.staff, w.venue.id, {
      ...court(w, TODAY, '19:00', '20:00'),
      customer_name: 'Y',
    })
    assert.equal(walkin.statusCode, 201, walkin.body)

    // At most 2 hours a day, court and indoor together.
    assert.equal((await book(app, w.customer, court(w, TOMORROW, '08:00', '09:00'))).statusCode, 201)
    const indoor = await bookIndoor(app, w.customer, {
      indoor_game_id: game.id,
      date: TOMORROW,
      start_time: '12:00',
      end_time: '13:00',
    })
    assert.equal(indoor.statusCode, 201, indoor.body)
    const third = await book(app, w.customer, court(w, TOMORROW, '10:00', '11:00'))
    assert.equal(third.statusCode, 422)
    assert.match(
      third.json().message,
      /at most 2 hours a day at this venue \(daily limit\): you already have 2 hours on 2027-03-11/,
    )
    assert.ok(third.json().errors.max_hours_per_day)
    // Another customer is not counted against this one; a cancelled booking frees the hours.
    const other = await book(app, w.manager, court(w, TOMORROW, '10:00', '11:00'))
    assert.equal(other.statusCode, 201, other.body)
    const cancel = await app.inject({
      method: 'PATCH',
      url: `/api/indoor-game-bookings/${indoor.json().data.id}/cancel`,
      headers: w.customer.headers,
      payload: {},
    })
    assert.equal(cancel.statusCode, 200, cancel.body)
    assert.equal((await book(app, w.customer, court(w, TOMORROW, '11:00', '12:00'))).statusCode, 201)
  })
}
