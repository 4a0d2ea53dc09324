import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { addDays } from '../../src/lib/time.ts'
import { book, type World, world } from '../bookings/helpers.ts'
import { cancelledRefunds, createDeskSeries, seriesBody, seriesBookings } from '../bookings/series-helpers.ts'
import { build } from '../helpers/app.ts'
import { assignStaff, createUser, createVenue } from '../helpers/factories.ts'
import { join } from '../waitlist/helpers.ts'

// Series and waitlist at the desk (issue 35): staff read and cancel any series of their venue
// (GET and PATCH /api/venues/{venue}/bookings/series/{series}…), and the board names a booking's
// series and tells a waitlist offer from an ordinary payment hold.

// Friday 4 December 2026, 17:40 in Asia/Kathmandu (UTC+05:45).
const NOW = '2026-12-04T11:55:00Z'
const TODAY = '2026-12-04'
const OFFER_MINUTES = 10
const clock = new ManualClock(NOW)
let app: App
before(async () => {
  app = await build(undefined, { WAITLIST_OFFER_MINUTES: String(OFFER_MINUTES) }, { clock })
})
after(() => app.close())

const deskSeries = (w: World, weeks: number, start: string, who: World['staff'] = w.staff) =>
  createDeskSeries(
    app,
    w.venue.id,
    who,
    seriesBody(w.court.id, start, { weeks, customer_name: 'Thamel Tigers', customer_phone: '9811111111' }),
  )

const board = (w: World, date: string) =>
  app.inject({ url: `/api/venues/${w.venue.id}/board?date=${date}`, headers: w.staff.headers })

test('staff read a series of their venue with its occurrences; others are refused', async () => {
  clock.set(NOW)
  const w = await world(app)
  const made = await deskSeries(w, 3, addDays(TODAY, 7))
  assert.equal(made.statusCode, 201, made.body)
  const series = made.json().data
  const url = `/api/venues/${w.venue.id}/bookings/series/${series.id}`

  for (const who of [w.staff, w.manager, w.owner]) {
    const res = await app.inject({ url, headers: who.headers })
    assert.equal(res.statusCode, 200, res.body)
    const data = res.json().data
    assert.equal(data.id, series.id)
    assert.equal(data.customer_name, 'Thamel Tigers')
    assert.deepEqual(
      data.occurrences.map((b: { date: string; status: string }) => [b.date, b.status]),
      [7, 14, 21].map((d) => [addDays(TODAY, d), 'pending']),
    )
  }
  // The venue slug works as well as its id.
  const venue = await app.ctx.db
    .selectFrom('venues')
    .select('slug')
    .where('id', '=', w.venue.id)
    .executeTakeFirstOrThrow()
  const bySlug = await app.inject({
    url: `/api/venues/${venue.slug}/bookings/series/${series.id}`,
    headers: w.staff.headers,
  })
  assert.equal(bySlug.statusCode, 200, bySlug.body)

  // A customer's own series is the desk's to read too.
  const own = await app.inject({
    method: 'POST',
    url: '/api/bookings/series',
    headers: w.customer.headers,
    payload: { court_id: w.court.id, start_date: addDays(TODAY, 8), weeks: 2, start_time: '07:00', end_time: '08:00' },
  })
  assert.equal(own.statusCode, 201, own.body)
  const ownSeries = await app.inject({
    url: `/api/venues/${w.venue.id}/bookings/series/${own.json().data.id}`,
    headers: w.staff.headers,
  })
  assert.equal(ownSeries.statusCode, 200, ownSeries.body)
  assert.equal(ownSeries.json().data.occurrences[0].user_id, w.customer.id)

  // Refusals: no token 401; a customer and another venue's staff 403; unknown venue, unknown series,
  // a malformed id and a series of another venue named through this venue 404.
  const otherOwner = await createUser(app, { roles: ['venue_owner'] })
  const otherVenue = await createVenue(app, otherOwner.id)
  const otherStaff = await createUser(app, { roles: ['staff'] })
  await assignStaff(app, otherVenue.id, otherStaff.id, 'staff')
  assert.equal((await app.inject({ url })).statusCode, 401)
  assert.equal((await app.inject({ url, headers: w.customer.headers })).statusCode, 403)
  assert.equal((await app.inject({ url, headers: otherStaff.headers })).statusCode, 403)
  assert.equal(
    (await app.inject({ url: `/api/venues/999999/bookings/series/${series.id}`, headers: w.staff.headers })).statusCode,
    404,
  )
  for (const id of ['999999', 'abc']) {
    const res = await app.inject({ url: `/api/venues/${w.venue.id}/bookings/series/${id}`, headers: w.staff.headers })
    assert.equal(res.statusCode, 404, id)
  }
  const elsewhere = await app.inject({
    url: `/api/venues/${otherVenue.id}/bookings/series/${series.id}`,
    headers: otherStaff.headers,
  })
  assert.equal(elsewhere.statusCode, 404)
})

test('the desk cancels a series from a date on: later weeks cancelled, desk cash refunded at the desk, started weeks left', async () => {
  clock.set(NOW)
  const w = await world(app)
  // Today 19:00 and the next three Fridays.
  const made = await deskSeries(w, 4, TODAY)
  assert.equal(made.statusCode, 201, made.body)
  const series = made.json().data
  const [first, second, third, fourth] = series.occurrences as { id: number; date: string }[]
  // The third week is paid in cash in advance.
  const paid = await app.inject({
    method: 'POST',
    url: `/api/bookings/${third.id}/payments`,
    headers: w.staff.headers,
    payload: { amount: '1500.00', method: 'cash' },
  })
  assert.equal(paid.statusCode, 201, paid.body)
  const url = `/api/venues/${w.venue.id}/bookings/series/${series.id}/cancel`

  // Refused before the body is read: a customer 403, no token 401; a bad date 422 for staff.
  assert.equal(
    (await app.inject({ method: 'PATCH', url, headers: w.customer.headers, payload: { from_date: 'x' } })).statusCode,
    403,
  )
  assert.equal((await app.inject({ method: 'PATCH', url, payload: {} })).statusCode, 401)
  const bad = await app.inject({ method: 'PATCH', url, headers: w.staff.headers, payload: { from_date: '2026-13-40' } })
  assert.equal(bad.statusCode, 422)
  assert.ok(bad.json().errors.from_date)

  // From the third week on.
  const res = await app.inject({
    method: 'PATCH',
    url,
    headers: w.staff.headers,
    payload: { from_date: third.date, reason: 'Team moved to Saturdays' },
  })
  assert.equal(res.statusCode, 200, res.body)
  const body = res.json()
  assert.equal(body.message, '2 bookings cancelled. Rs 1,500.00 paid at the venue is refunded at its desk.')
  assert.equal(body.refund_amount, '1500.00')
  assert.deepEqual(cancelledRefunds(body), [
    [third.id, '1500.00'],
    [fourth.id, '0.00'],
  ])
  const rows = await seriesBookings(app, series.id)
  assert.deepEqual(
    rows.map((r) => [r.id, r.status, r.cancel_reason]),
    [
      [first.id, 'pending', null],
      [second.id, 'pending', null],
      [third.id, 'cancelled', 'Team moved to Saturdays'],
      [fourth.id, 'cancelled', 'Team moved to Saturdays'],
    ],
  )
  // The cash is owed back at the desk.
  const due = await app.inject({ url: `/api/venues/${w.venue.id}/cash-backs?status=due`, headers: w.staff.headers })
  assert.equal(due.statusCode, 200, due.body)
  assert.deepEqual(
    due.json().data.map((c: { booking_id: number; amount: string }) => [c.booking_id, c.amount]),
    [[third.id, '1500.00']],
  )

  // Once today's 19:00 has started, a cancel from today (the default) leaves it and takes the rest.
  clock.set('2026-12-04T13:20:00Z') // 19:05 in Kathmandu
  const rest = await app.inject({ method: 'PATCH', url, headers: w.manager.headers, payload: {} })
  assert.equal(rest.statusCode, 200, rest.body)
  assert.equal(rest.json().message, '1 booking cancelled.')
  assert.deepEqual(
    rest.json().data.cancelled.map((c: { booking_id: number }) => c.booking_id),
    [second.id],
  )
  const firstNow = await app.ctx.db
    .selectFrom('bookings')
    .select(['status', 'cancel_reason'])
    .where('id', '=', first.id)
    .executeTakeFirstOrThrow()
  assert.deepEqual(firstNow, { status: 'pending', cancel_reason: null })
  const again = await app.inject({ method: 'PATCH', url, headers: w.staff.headers, payload: {} })
  assert.equal(again.json().message, 'No booking of this series could be cancelled.')
})

test('the board names a booking’s series, counts the waiting customers and marks the waitlist offer with its expiry', async () => {
  clock.set(NOW)
  const w = await world(app, { wallet: 1_000_000 })
  const date = addDays(TODAY, 3)
  const made = await deskSeries(w, 2, date)
  assert.equal(made.statusCode, 201, made.body)
  const seriesId = made.json().data.id
  // A customer's payment hold on 10:00, two customers waiting for it.
  const holder = await createUser(app, { wallet: 1_000_000 })
  const held = await book(app, holder, {
    court_id: w.court.id,
    date,
    start_time: '10:00',
    end_time: '11:00',
    payment_method: 'gateway_1',
  })
  assert.equal(held.statusCode, 201, held.body)
  const first = await createUser(app, { name: 'Waiting Sita' })
  const second = await createUser(app)
  for (const who of [first, second]) {
    const joined = await join(app, who, { court_id: w.court.id, date, start_time: '10:00', end_time: '11:00' })
    assert.equal(joined.statusCode, 201, joined.body)
  }
  type Row = {
    id: number
    customer_name: string
    series_id: number | null
    waitlist_count: number
    is_hold: boolean
    is_waitlist_offer: boolean
    hold_expires_at: string | null
  }
  let day = await board(w, date)
  assert.equal(day.statusCode, 200, day.body)
  let bookings = day.json().data.bookings as Row[]
  const weekly = bookings.find((b) => b.customer_name === 'Thamel Tigers')!
  assert.equal(weekly.series_id, seriesId)
  assert.equal(weekly.is_waitlist_offer, false)
  const hold = bookings.find((b) => b.id === held.json().data.id)!
  assert.deepEqual([hold.series_id, hold.waitlist_count, hold.is_hold, hold.is_waitlist_offer], [null, 2, true, false])

  // The holder cancels: the slot is offered to the first in line, held OFFER_MINUTES.
  const cancelled = await app.inject({
    method: 'PATCH',
    url: `/api/bookings/${hold.id}/cancel`,
    headers: holder.headers,
    payload: {},
  })
  assert.equal(cancelled.statusCode, 200, cancelled.body)
  day = await board(w, date)
  bookings = day.json().data.bookings as Row[]
  const offer = bookings.find((b) => b.customer_name === 'Waiting Sita')!
  assert.ok(offer, day.body)
  assert.equal(offer.is_hold, true)
  assert.equal(offer.is_waitlist_offer, true)
  assert.equal(offer.waitlist_count, 1)
  assert.equal(offer.hold_expires_at, '2026-12-04 17:50:00')

  // Once the offer runs out it is no longer an open offer (nor a hold).
  clock.set('2026-12-04T12:06:00Z')
  day = await board(w, date)
  const lapsed = (day.json().data.bookings as Row[]).find((b) => b.id === offer.id)!
  assert.deepEqual([lapsed.is_hold, lapsed.is_waitlist_offer], [false, false])
})
