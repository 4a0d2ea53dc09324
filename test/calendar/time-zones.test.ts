import assert from 'node:assert/strict'
import { test } from 'node:test'
import { ManualClock } from '../../src/lib/clock.ts'
import { world } from '../bookings/helpers.ts'
import { build } from '../helpers/app.ts'
import { insertBooking } from '../payments/helpers.ts'
import { fetchFeed, parseFeed } from './helpers.ts'

// The VTIMEZONE matches APP_TIMEZONE: Europe/London with its daylight-saving changes, and
// Asia/Kathmandu (+05:45 all year). ical.js turns each DTSTART;TZID into the right instant.

test('Europe/London: DAYLIGHT and STANDARD observances at the real changes; 19:00 is 19:00 on both sides', async (t) => {
  const clock = new ManualClock('2026-03-01T12:00:00Z')
  const app = await build(t, { APP_TIMEZONE: 'Europe/London' }, { clock })
  const w = await world(app)
  const dates = ['2026-03-28', '2026-03-30', '2026-10-24', '2026-10-26']
  for (const date of dates) {
    await insertBooking(app, {
      userId: w.customer.id,
      venueId: w.venue.id,
      courtId: w.court.id,
      total: 1000,
      date,
      start: '19:00',
      end: '20:00',
      status: 'confirmed',
    })
  }
  const url = (await app.inject({ method: 'GET', url: '/api/calendar/feed', headers: w.customer.headers })).json().data
    .url
  const res = await fetchFeed(app, url)
  assert.equal(res.statusCode, 200)
  assert.match(res.body, /X-WR-TIMEZONE:Europe\/London\r\n/)
  // The 2026 changes, each at 01:00 UTC: DTSTART is the local time on the clock before the change.
  assert.match(
    res.body,
    /BEGIN:DAYLIGHT\r\nDTSTART:20260329T010000\r\nTZOFFSETFROM:\+0000\r\nTZOFFSETTO:\+0100\r\nEND:DAYLIGHT/,
  )
  assert.match(
    res.body,
    /BEGIN:STANDARD\r\nDTSTART:20261025T020000\r\nTZOFFSETFROM:\+0100\r\nTZOFFSETTO:\+0000\r\nEND:STANDARD/,
  )
  const feed = parseFeed(res.body)
  assert.deepEqual(feed.zones, ['Europe/London'])
  const starts = feed.events.map((e) => [e.startLocal, e.tzid, e.start.toISOString()])
  assert.deepEqual(starts, [
    ['2026-03-28T19:00:00', 'Europe/London', '2026-03-28T19:00:00.000Z'],
    ['2026-03-30T19:00:00', 'Europe/London', '2026-03-30T18:00:00.000Z'],
    ['2026-10-24T19:00:00', 'Europe/London', '2026-10-24T18:00:00.000Z'],
    ['2026-10-26T19:00:00', 'Europe/London', '2026-10-26T19:00:00.000Z'],
  ])
})

test('Asia/Kathmandu: one STANDARD observance at +0545, no DAYLIGHT', async (t) => {
  const clock = new ManualClock('2026-06-01T06:00:00Z')
  const app = await build(t, {}, { clock })
  const w = await world(app)
  await insertBooking(app, {
    userId: w.customer.id,
    venueId: w.venue.id,
    courtId: w.court.id,
    total: 1000,
    date: '2026-06-10',
    start: '07:00',
    end: '08:30',
  })
  const url = (await app.inject({ method: 'GET', url: '/api/calendar/feed', headers: w.customer.headers })).json().data
    .url
  const res = await fetchFeed(app, url)
  assert.ok(!res.body.includes('BEGIN:DAYLIGHT'))
  assert.match(
    res.body,
    /TZID:Asia\/Kathmandu\r\nBEGIN:STANDARD\r\nDTSTART:\d{8}T000000\r\nTZOFFSETFROM:\+0545\r\nTZOFFSETTO:\+0545\r\nEND:STANDARD\r\nEND:VTIMEZONE/,
  )
  const [event] = parseFeed(res.body).events
  assert.equal(event.start.toISOString(), '2026-06-10T01:15:00.000Z')
  assert.equal(event.end.toISOString(), '2026-06-10T02:45:00.000Z')
})
