import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { Zone } from '../../src/lib/zone.ts'
import { build } from '../helpers/app.ts'
import { createCourt, createUser, createVenue } from '../helpers/factories.ts'
import { createSeries, seriesBookings } from './series-helpers.ts'

// A weekly series across both 2027 daylight-saving changes of Europe/London (last Sunday of March,
// 28 March, and of October, 31 October) keeps 19:00 at 19:00 on the wall clock: the instant moves
// by an hour against UTC, the booking does not. The app runs on a ManualClock far from the
// machine's date, so a rule reading the system clock or zone would show here.

let app: App
const zone = new Zone('Europe/London')
const clock = new ManualClock('2027-03-15T12:00:00Z')
before(async () => {
  app = await build(undefined, { APP_TIMEZONE: 'Europe/London' }, { clock })
})
after(() => app.close())

async function seriesAcross(start: string, weeks: number) {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const venue = await createVenue(app, owner.id, { free_cancellation_hours: 24 })
  const court = await createCourt(app, venue.id)
  const customer = await createUser(app)
  const res = await createSeries(app, customer, {
    court_id: court.id,
    start_date: start,
    weeks,
    start_time: '19:00',
    end_time: '20:00',
  })
  assert.equal(res.statusCode, 201, res.body)
  return { customer, data: res.json().data }
}

test('spring forward (Sunday 28 March 2027): 19:00 stays 19:00, the UTC instant moves from 19:00Z to 18:00Z', async () => {
  clock.set('2027-03-15T12:00:00Z')
  // Sundays 21 March … 4 April 2027.
  const { data } = await seriesAcross('2027-03-21', 3)
  assert.equal(data.weekday, 0)
  assert.deepEqual(
    data.occurrences.map((b: { date: string; start_time: string; end_time: string }) => [
      b.date,
      b.start_time,
      b.end_time,
    ]),
    [
      ['2027-03-21', '19:00', '20:00'],
      ['2027-03-28', '19:00', '20:00'],
      ['2027-04-04', '19:00', '20:00'],
    ],
  )
  // Stored as wall-clock times, read back the same.
  const rows = await seriesBookings(app, data.id)
  assert.deepEqual(
    rows.map((r) => r.start_time),
    ['19:00:00', '19:00:00', '19:00:00'],
  )
  assert.deepEqual(
    rows.map((r) => zone.instant(r.date, r.start_time).toISOString()),
    ['2027-03-21T19:00:00.000Z', '2027-03-28T18:00:00.000Z', '2027-04-04T18:00:00.000Z'],
  )
  // Every week costs the same one hour (the price follows the wall clock, not the 23-hour day).
  assert.deepEqual(
    data.occurrences.map((b: { total_amount: string; duration_hours: string }) => [b.total_amount, b.duration_hours]),
    [
      ['1500.00', '1.00'],
      ['1500.00', '1.00'],
      ['1500.00', '1.00'],
    ],
  )
})

test('fall back (Sunday 31 October 2027): 19:00 stays 19:00, and cancelling after the change leaves the week that has passed', async () => {
  clock.set('2027-10-20T12:00:00Z')
  // Sundays 24 October … 7 November 2027.
  const { customer, data } = await seriesAcross('2027-10-24', 3)
  assert.deepEqual(
    data.occurrences.map((b: { date: string; start_time: string }) => [b.date, b.start_time]),
    [
      ['2027-10-24', '19:00'],
      ['2027-10-31', '19:00'],
      ['2027-11-07', '19:00'],
    ],
  )
  const rows = await seriesBookings(app, data.id)
  assert.deepEqual(
    rows.map((r) => zone.instant(r.date, r.start_time).toISOString()),
    ['2027-10-24T18:00:00.000Z', '2027-10-31T19:00:00.000Z', '2027-11-07T19:00:00.000Z'],
  )
  // On Sunday 31 October at 18:30 wall clock (after the change), the first week has passed and the
  // second has not started: cancelling "all future ones" cancels weeks 2 and 3 only.
  clock.set('2027-10-31T18:30:00Z')
  assert.equal(zone.format(clock.now()), '2027-10-31 18:30:00')
  const res = await app.inject({
    method: 'PATCH',
    url: `/api/bookings/series/${data.id}/cancel`,
    headers: customer.headers,
    payload: { from_date: '2027-10-24' },
  })
  assert.equal(res.statusCode, 200, res.body)
  assert.deepEqual(
    res.json().data.cancelled.map((c: { date: string }) => c.date),
    ['2027-10-31', '2027-11-07'],
  )
})
