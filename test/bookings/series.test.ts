import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { addDays, dayOfWeek } from '../../src/lib/time.ts'
import { build } from '../helpers/app.ts'
import { assignStaff, createUser, createVenue, daysFromFixedNow, FIXED_NOW } from '../helpers/factories.ts'
import { book, world } from './helpers.ts'
import {
  cancelledRefunds,
  createDeskSeries,
  createSeries,
  overlaps,
  seriesBody,
  seriesBookings,
} from './series-helpers.ts'

let app: App
before(async () => {
  app = await build(undefined, {}, { clock: new ManualClock(FIXED_NOW) })
})
after(() => app.close())

const COURT_TAKEN = 'The court is not available for the selected time slot.'

test('a series books the same weekday and time every week, each with its own number and its own date’s price', async () => {
  const w = await world(app)
  const start = daysFromFixedNow(3)
  // Week 2 is a venue holiday with a holiday price; every other week costs the standard Rs 1,500.
  await app.ctx.db
    .insertInto('venue_holidays')
    .values({ venue_id: w.venue.id, date: addDays(start, 7), name: 'Festival' })
    .execute()
  await app.ctx.db
    .insertInto('pricing_rules')
    .values({ court_id: w.court.id, type: 'holiday', start_time: '06:00', end_time: '22:00', price_per_hour: 300000 })
    .execute()
  const res = await createSeries(
    app,
    w.customer,
    seriesBody(w.court.id, start, { notes: 'Weekly game', payment_method: 'cash' }),
  )
  assert.equal(res.statusCode, 201, res.body)
  const data = res.json().data
  assert.equal(data.court_id, w.court.id)
  assert.equal(data.weekday, dayOfWeek(start))
  assert.equal(data.start_time, '19:00')
  assert.equal(data.end_time, '20:00')
  assert.equal(data.weeks, 4)
  assert.equal(data.type, 'online')
  assert.deepEqual(data.skipped, [])
  assert.equal(data.occurrences.length, 4)
  assert.deepEqual(
    data.occurrences.map((b: { date: string }) => b.date),
    [0, 7, 14, 21].map((d) => addDays(start, d)),
  )
  for (const b of data.occurrences) {
    assert.equal(b.start_time, '19:00')
    assert.equal(b.end_time, '20:00')
    assert.equal(b.status, 'pending')
    assert.equal(b.series_id, data.id)
    assert.equal(b.user_id, w.customer.id)
    assert.equal(b.notes, 'Weekly game')
    assert.equal(b.payment_method, 'cash')
    assert.match(b.booking_number, /^BK-\d{4}-\d{6,}$/)
    assert.equal(dayOfWeek(b.date), data.weekday)
  }
  assert.equal(new Set(data.occurrences.map((b: { booking_number: string }) => b.booking_number)).size, 4)
  assert.deepEqual(
    data.occurrences.map((b: { total_amount: string }) => b.total_amount),
    ['1500.00', '3000.00', '1500.00', '1500.00'],
  )
  // The owner reads it back.
  const shown = await app.inject({ url: `/api/bookings/series/${data.id}`, headers: w.customer.headers })
  assert.equal(shown.statusCode, 200, shown.body)
  assert.deepEqual(
    shown.json().data.occurrences.map((b: { id: number }) => b.id),
    data.occurrences.map((b: { id: number }) => b.id),
  )
})

test('on_conflict=fail: one taken week is 409 with the court message and books nothing', async () => {
  const w = await world(app)
  const other = await createUser(app)
  const start = daysFromFixedNow(4)
  const taken = await book(app, other, {
    court_id: w.court.id,
    date: addDays(start, 14),
    start_time: '19:00',
    end_time: '20:00',
  })
  assert.equal(taken.statusCode, 201, taken.body)
  const before = await app.ctx.db.selectFrom('bookings').select('id').where('court_id', '=', w.court.id).execute()
  const res = await createSeries(app, w.customer, seriesBody(w.court.id, start))
  assert.equal(res.statusCode, 409, res.body)
  assert.deepEqual(res.json(), { message: COURT_TAKEN })
  const afterRows = await app.ctx.db.selectFrom('bookings').select('id').where('court_id', '=', w.court.id).execute()
  assert.equal(afterRows.length, before.length)
  const series = await app.ctx.db.selectFrom('booking_series').select('id').where('court_id', '=', w.court.id).execute()
  assert.deepEqual(series, [])
})

test('on_conflict=skip: the free weeks are booked, the others listed with their reason', async () => {
  const w = await world(app)
  const other = await createUser(app)
  const start = daysFromFixedNow(5)
  const taken = await book(app, other, {
    court_id: w.court.id,
    date: addDays(start, 7),
    start_time: '19:00',
    end_time: '20:00',
  })
  assert.equal(taken.statusCode, 201, taken.body)
  // Week 4 has a maintenance block (the quote's 409).
  await app.ctx.db
    .insertInto('court_blocks')
    .values({ court_id: w.court.id, date: addDays(start, 21), start_time: '18:00', end_time: '21:00', reason: 'Nets' })
    .execute()
  const res = await createSeries(app, w.customer, seriesBody(w.court.id, start, { on_conflict: 'skip' }))
  assert.equal(res.statusCode, 201, res.body)
  const data = res.json().data
  assert.deepEqual(
    data.occurrences.map((b: { date: string }) => b.date),
    [addDays(start, 0), addDays(start, 14)],
  )
  assert.deepEqual(data.skipped, [
    { date: addDays(start, 7), reason: COURT_TAKEN },
    { date: addDays(start, 21), reason: COURT_TAKEN },
  ])
  assert.deepEqual(await overlaps(app, w.court.id), [])
  // skip with no free week at all: 409, nothing written.
  const none = await createSeries(app, other, seriesBody(w.court.id, start, { on_conflict: 'skip', weeks: 2 }))
  assert.equal(none.statusCode, 409, none.body)
})

test('validation: weeks 2–26, on_conflict, times, a past start date, the court; 401 without a token', async () => {
  const w = await world(app)
  const start = daysFromFixedNow(6)
  const cases: [Record<string, unknown>, string][] = [
    [{ weeks: 1 }, 'weeks'],
    [{ weeks: 27 }, 'weeks'],
    [{ on_conflict: 'maybe' }, 'on_conflict'],
    [{ start_date: '2027-02-30' }, 'start_date'],
    [{ start_time: '25:00' }, 'start_time'],
    [{ end_time: '18:00' }, 'end_time'],
    [{ start_date: daysFromFixedNow(-7) }, 'start_date'],
    [{ court_id: 999999 }, 'court_id'],
    [{ payment_method: 'cheque' }, 'payment_method'],
  ]
  for (const [extra, field] of cases) {
    const res = await createSeries(app, w.customer, seriesBody(w.court.id, start, extra))
    assert.equal(res.statusCode, 422, `${JSON.stringify(extra)}: ${res.body}`)
    assert.ok(res.json().errors?.[field], `${field}: ${res.body}`)
  }
  const missing = await createSeries(app, w.customer, {})
  assert.equal(missing.statusCode, 422)
  for (const f of ['court_id', 'start_date', 'weeks', 'start_time', 'end_time']) assert.ok(missing.json().errors[f], f)
  assert.equal((await createSeries(app, undefined, seriesBody(w.court.id, start))).statusCode, 401)
  const count = await app.ctx.db.selectFrom('booking_series').select('id').where('court_id', '=', w.court.id).execute()
  assert.deepEqual(count, [])
})

test('GET and cancel: owner only (403 others, 404 unknown); cancel from a date on, each under the refund rules', async () => {
  const w = await world(app, { wallet: 0 })
  const start = daysFromFixedNow(3)
  const res = await createSeries(app, w.customer, seriesBody(w.court.id, start, { weeks: 3 }))
  assert.equal(res.statusCode, 201, res.body)
  const series = res.json().data
  const [first, second, third] = series.occurrences
  // The second week is paid at the desk: cancelling it (days ahead) refunds the payment at the desk.
  const paid = await app.inject({
    method: 'POST',
    url: `/api/bookings/${second.id}/payments`,
    headers: w.staff.headers,
    payload: { amount: '1500.00' },
  })
  assert.equal(paid.statusCode, 201, paid.body)

  const stranger = await createUser(app)
  assert.equal(
    (await app.inject({ url: `/api/bookings/series/${series.id}`, headers: stranger.headers })).statusCode,
    403,
  )
  assert.equal((await app.inject({ url: '/api/bookings/series/999999', headers: w.customer.headers })).statusCode, 404)
  assert.equal((await app.inject({ url: '/api/bookings/series/abc', headers: w.customer.headers })).statusCode, 404)
  assert.equal((await app.inject({ url: `/api/bookings/series/${series.id}` })).statusCode, 401)
  const cancelUrl = `/api/bookings/series/${series.id}/cancel`
  const refused = await app.inject({ method: 'PATCH', url: cancelUrl, headers: stranger.headers, payload: {} })
  assert.equal(refused.statusCode, 403)
  const badDate = await app.inject({
    method: 'PATCH',
    url: cancelUrl,
    headers: w.customer.headers,
    payload: { from_date: 'soon' },
  })
  assert.equal(badDate.statusCode, 422)
  assert.ok(badDate.json().errors.from_date)

  const cancel = await app.inject({
    method: 'PATCH',
    url: cancelUrl,
    headers: w.customer.headers,
    payload: { from_date: second.date, reason: 'Season over' },
  })
  assert.equal(cancel.statusCode, 200, cancel.body)
  const answer = cancel.json()
  assert.equal(answer.refund_amount, '1500.00')
  assert.equal(answer.message, '2 bookings cancelled. Rs 1,500.00 paid at the venue is refunded at its desk.')
  assert.equal(answer.data.id, series.id)
  assert.deepEqual(cancelledRefunds(answer), [
    [second.id, '1500.00'],
    [third.id, '0.00'],
  ])
  const rows = await seriesBookings(app, series.id)
  assert.deepEqual(
    rows.map((r) => r.status),
    ['pending', 'cancelled', 'cancelled'],
  )
  assert.equal(rows[1].cancel_reason, 'Season over')
  const wallet = await app.ctx.db
    .selectFrom('users')
    .select('wallet_balance')
    .where('id', '=', w.customer.id)
    .executeTakeFirstOrThrow()
  assert.equal(Number(wallet.wallet_balance), 0, 'desk money is not wallet money')
  // Default: all future occurrences; cancelling again finds only the first one left.
  const rest = await app.inject({ method: 'PATCH', url: cancelUrl, headers: w.customer.headers })
  assert.equal(rest.statusCode, 200, rest.body)
  assert.deepEqual(
    rest.json().data.cancelled.map((c: { booking_id: number }) => c.booking_id),
    [first.id],
  )
  const nothing = await app.inject({ method: 'PATCH', url: cancelUrl, headers: w.customer.headers, payload: {} })
  assert.equal(nothing.statusCode, 200)
  assert.deepEqual(nothing.json().data.cancelled, [])
})

test('staff create a series for a named customer at their venue (offline); others are refused', async () => {
  const w = await world(app)
  const start = daysFromFixedNow(8)
  const url = `/api/venues/${w.venue.id}/bookings/series`
  const payload = {
    ...seriesBody(w.court.id, start, { weeks: 2 }),
    customer_name: 'Ram Thapa',
    customer_phone: '9800000000',
  }
  const res = await createDeskSeries(app, w.venue.id, w.staff, payload)
  assert.equal(res.statusCode, 201, res.body)
  const data = res.json().data
  assert.equal(data.type, 'offline')
  assert.equal(data.customer_name, 'Ram Thapa')
  assert.equal(data.occurrences.length, 2)
  for (const b of data.occurrences) {
    assert.equal(b.type, 'offline')
    assert.equal(b.user_id, null)
    assert.equal(b.user, null)
    assert.equal(b.customer_name, 'Ram Thapa')
    assert.equal(b.customer_phone, '9800000000')
    assert.equal(b.hold_expires_at, null)
  }
  // Walk-in by the manager, a week later.
  const walkin = await app.inject({
    method: 'POST',
    url,
    headers: w.manager.headers,
    payload: { ...payload, start_date: addDays(start, 14), type: 'walkin' },
  })
  assert.equal(walkin.statusCode, 201, walkin.body)
  assert.equal(walkin.json().data.occurrences[0].type, 'walkin')
  // Customers and staff of another venue: 403; unknown venue 404; no token 401; missing name 422.
  const otherOwner = await createUser(app, { roles: ['venue_owner'] })
  const otherVenue = await createVenue(app, otherOwner.id)
  const otherStaff = await createUser(app, { roles: ['staff'] })
  await assignStaff(app, otherVenue.id, otherStaff.id, 'staff')
  assert.equal((await app.inject({ method: 'POST', url, headers: w.customer.headers, payload })).statusCode, 403)
  assert.equal((await app.inject({ method: 'POST', url, headers: otherStaff.headers, payload })).statusCode, 403)
  // Staff of another venue booking this venue's court through their own venue: 422 court_id.
  const wrongCourt = await app.inject({
    method: 'POST',
    url: `/api/venues/${otherVenue.id}/bookings/series`,
    headers: otherStaff.headers,
    payload,
  })
  assert.equal(wrongCourt.statusCode, 422)
  assert.ok(wrongCourt.json().errors.court_id)
  assert.equal(
    (await app.inject({ method: 'POST', url: '/api/venues/999999/bookings/series', headers: w.staff.headers, payload }))
      .statusCode,
    404,
  )
  assert.equal((await app.inject({ method: 'POST', url, payload })).statusCode, 401)
  const noName = await app.inject({
    method: 'POST',
    url,
    headers: w.staff.headers,
    payload: { ...payload, customer_name: undefined },
  })
  assert.equal(noName.statusCode, 422)
  assert.ok(noName.json().errors.customer_name)
  // A desk series has no owner among customers.
  assert.equal(
    (await app.inject({ url: `/api/bookings/series/${data.id}`, headers: w.customer.headers })).statusCode,
    403,
  )
})

test('a series racing single bookings on the same court: no overlap, ever', async () => {
  const w = await world(app)
  // Six weeks from day 9 reach past the default 30-day booking window (docs/bookings.md, "Booking rules").
  await app.ctx.db.updateTable('venues').set({ booking_window_days: 60 }).where('id', '=', w.venue.id).execute()
  const start = daysFromFixedNow(9)
  const customers = await Promise.all(Array.from({ length: 12 }, () => createUser(app)))
  // Two skip series and one fail series of 6 weeks, against 12 single bookings of those weeks
  // (some of the same hour, some overlapping it by an hour on either side).
  const singles = customers.map((u, i) => {
    const hour = [19, 18, 19, 20][i % 4]
    const long = i % 4 === 1
    return book(app, u, {
      court_id: w.court.id,
      date: addDays(start, 7 * (i % 6)),
      start_time: `${hour}:00`,
      end_time: `${hour + (long ? 2 : 1)}:00`,
    })
  })
  const seriesUsers = await Promise.all([createUser(app), createUser(app), createUser(app)])
  const series = [
    createSeries(app, seriesUsers[0], seriesBody(w.court.id, start, { weeks: 6, on_conflict: 'skip' })),
    createSeries(app, seriesUsers[1], seriesBody(w.court.id, start, { weeks: 6, on_conflict: 'skip' })),
    createSeries(app, seriesUsers[2], seriesBody(w.court.id, start, { weeks: 6 })),
  ]
  const results = await Promise.all([...series, ...singles])
  for (const r of results) assert.ok([201, 409].includes(r.statusCode), r.body)
  assert.deepEqual(await overlaps(app, w.court.id), [])
  // A fail series either has all six weeks or nothing.
  const failed = results[2]
  if (failed.statusCode === 201) assert.equal(failed.json().data.occurrences.length, 6)
  const failRows = await app.ctx.db
    .selectFrom('bookings')
    .select('id')
    .where('user_id', '=', seriesUsers[2].id)
    .execute()
  assert.equal(failRows.length, failed.statusCode === 201 ? 6 : 0)
  // Every 201 is a row, every row a 201.
  const created = results
    .filter((r) => r.statusCode === 201)
    .reduce((n, r) => n + (r.json().data.occurrences?.length ?? 1), 0)
  const rows = await app.ctx.db.selectFrom('bookings').select('id').where('court_id', '=', w.court.id).execute()
  assert.equal(rows.length, created)
})
