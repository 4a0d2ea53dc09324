import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { build } from '../helpers/app.ts'
import { assignStaff, createCourt, createIndoorGame, createUser, createVenue } from '../helpers/factories.ts'
import { call, day, noonClock, zone } from './helpers.ts'

// Occupancy on a small known schedule, over a Monday and a Tuesday (day(6), day(7)):
//   venue hours 10:00–14:00 (4 h a day)
//   court A: Monday 08:00–12:00 by its schedule (4 h), Tuesday closed
//   court B (30-minute slots): the venue's hours, a maintenance block Tuesday 11:00–12:30 (4 h + 2.5 h)
//   court C: inactive (not open)
//   one indoor game: the venue's hours (4 h + 4 h)
// Monday is also a venue holiday: holidays change prices, not hours.
// Open: courts 10.5 h, the game 8 h. Booked: A Mon 09–11 (no-show later), B Mon 10:30–11:30,
// B Tue 10:00–11:00 (a desk booking, unpaid), the game Mon 12–13; B Tue 13–14 is cancelled.

const clock = noonClock()
let app: App
before(async () => {
  app = await build(undefined, {}, { clock })
})
after(() => app.close())

test('occupancy = booked hours of bookings holding their slot / open hours of the schedules less blocks', async () => {
  const monday = day(6)
  const tuesday = day(7)
  assert.equal(new Date(`${monday}T00:00:00Z`).getUTCDay(), 1)
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const staff = await createUser(app, { roles: ['staff'] })
  const venue = await createVenue(app, owner.id, { opening_time: '10:00:00', closing_time: '14:00:00' })
  await assignStaff(app, venue.id, staff.id, 'staff')
  const a = await createCourt(app, venue.id, { name: 'A' })
  const b = await createCourt(app, venue.id, { name: 'B', slot_minutes: 30 })
  await createCourt(app, venue.id, { name: 'C', is_active: false })
  const game = await createIndoorGame(app, venue.id)
  await app.ctx.db
    .insertInto('court_schedules')
    .values([
      { court_id: a.id, day_of_week: 1, open_time: '08:00:00', close_time: '12:00:00', is_closed: false },
      { court_id: a.id, day_of_week: 2, open_time: '10:00:00', close_time: '14:00:00', is_closed: true },
    ])
    .execute()
  await app.ctx.db
    .insertInto('court_blocks')
    .values({ court_id: b.id, date: tuesday, start_time: '11:00:00', end_time: '12:30:00', reason: 'Net repair' })
    .execute()
  await app.ctx.db.insertInto('venue_holidays').values({ venue_id: venue.id, date: monday, name: 'Festival' }).execute()

  const desk = async (courtId: number, date: string, start: string, end: string) => {
    const res = await call(app, 'POST', `/api/venues/${venue.id}/bookings`, staff, {
      court_id: courtId,
      date,
      start_time: start,
      end_time: end,
      type: 'offline',
      customer_name: 'Phone Caller',
    })
    assert.equal(res.statusCode, 201, res.body)
    return res.json().data.id as number
  }
  const aMon = await desk(a.id, monday, '09:00', '11:00')
  await desk(b.id, monday, '10:30', '11:30')
  await desk(b.id, tuesday, '10:00', '11:00')
  const gone = await desk(b.id, tuesday, '13:00', '14:00')
  assert.equal(
    (await call(app, 'PATCH', `/api/bookings/${gone}/status`, staff, { status: 'cancelled' })).statusCode,
    200,
  )
  const ig = await call(app, 'POST', `/api/venues/${venue.id}/indoor-game-bookings`, staff, {
    indoor_game_id: game.id,
    date: monday,
    start_time: '12:00',
    end_time: '13:00',
    type: 'walkin',
    customer_name: 'Gamer',
  })
  assert.equal(ig.statusCode, 201, ig.body)
  // Wednesday noon: A's Monday booking never came.
  clock.set(zone.instant(day(8), '12:00'))
  assert.equal((await call(app, 'PATCH', `/api/bookings/${aMon}/status`, staff, { status: 'no_show' })).statusCode, 200)

  const get = async (kind = '') => {
    const res = await call(
      app,
      'GET',
      `/api/venues/${venue.id}/reports/summary?from=${monday}&to=${tuesday}${kind}`,
      owner,
    )
    assert.equal(res.statusCode, 200, res.body)
    return res.json().data
  }
  const courts = await get('&kind=court')
  assert.deepEqual(courts.occupancy, { booked_hours: 4, open_hours: 10.5, percent: 38.0952 })
  assert.deepEqual(
    courts.by_hour.map((x: { weekday: number; hour: number; booked_hours: number; open_hours: number }) => [
      x.weekday,
      x.hour,
      x.booked_hours,
      x.open_hours,
    ]),
    [
      [1, 8, 0, 1],
      [1, 9, 1, 1],
      [1, 10, 1.5, 2],
      [1, 11, 0.5, 2],
      [1, 12, 0, 1],
      [1, 13, 0, 1],
      [2, 10, 1, 1],
      [2, 12, 0, 0.5],
      [2, 13, 0, 1],
    ],
  )
  // Of the three court bookings not cancelled that have started, one was a no-show.
  assert.equal(courts.no_show_rate, 0.3333)
  assert.deepEqual(courts.bookings.by_status, {
    pending: 2,
    confirmed: 0,
    playing: 0,
    completed: 0,
    cancelled: 1,
    no_show: 1,
  })

  const indoor = await get('&kind=indoor')
  assert.deepEqual(indoor.occupancy, { booked_hours: 1, open_hours: 8, percent: 12.5 })
  const both = await get()
  assert.deepEqual(both.occupancy, { booked_hours: 5, open_hours: 18.5, percent: 27.027 })
  assert.equal(both.bookings.total, 5)
  assert.equal(both.no_show_rate, 0.25)
})
