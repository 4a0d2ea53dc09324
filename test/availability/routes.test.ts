import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { addDays, dayOfWeek, fromMinutes, toMinutes } from '../../src/lib/time.ts'
import { build } from '../helpers/app.ts'
import {
  assignStaff,
  createCourt,
  createIndoorGame,
  createUser,
  createVenue,
  daysFromFixedNow,
  FIXED_NOW,
} from '../helpers/factories.ts'

let app: App
before(async () => {
  app = await build(undefined, {}, { clock: new ManualClock(FIXED_NOW) })
})
after(() => app.close())

let seq = 0
async function booking(
  table: 'bookings' | 'indoor_game_bookings',
  target: { venueId: number; courtId?: number; gameId?: number; tenantId?: number },
  date: string,
  start: string,
  end: string,
  status: string,
  holdExpiresAt: Date | null = null,
) {
  const n = `${process.pid}-${++seq}`
  const common = {
    venue_id: target.venueId,
    status,
    date,
    start_time: start,
    end_time: end,
    base_amount: 100000,
    total_amount: 100000,
    customer_name: 'Walk-in',
    hold_expires_at: holdExpiresAt,
  }
  if (table === 'bookings') {
    await app.ctx.db
      .insertInto('bookings')
      .values({ ...common, booking_number: `BK-T-${n}`, court_id: target.courtId! })
      .execute()
  } else {
    await app.ctx.db
      .insertInto('indoor_game_bookings')
      .values({
        ...common,
        booking_number: `IG-T-${n}`,
        indoor_game_id: target.gameId!,
        tenant_id: target.tenantId!,
      })
      .execute()
  }
}

const get = (url: string, headers?: Record<string, string>) => app.inject({ method: 'GET', url, headers })

async function courtSetup(venueFields: Parameters<typeof createVenue>[2] = {}, courtFields = {}) {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const venue = await createVenue(app, owner.id, { opening_time: '06:00:00', closing_time: '22:00:00', ...venueFields })
  const court = await createCourt(app, venue.id, { price_per_hour: 150000, slot_minutes: 60, ...courtFields })
  return { owner, venue, court }
}

test('court availability: shape, booked, held, expired, cancelled and blocked slots', async () => {
  const { owner, venue, court } = await courtSetup()
  const date = daysFromFixedNow(2)
  const target = { venueId: venue.id, courtId: court.id }
  await booking('bookings', target, date, '07:00', '08:00', 'confirmed')
  await booking('bookings', target, date, '08:00', '10:00', 'pending', null) // cash: held until start
  await booking(
    'bookings',
    target,
    date,
    '10:00',
    '11:00',
    'pending',
    new Date(app.ctx.clock.now().getTime() + 10 * 60000),
  )
  await booking('bookings', target, date, '11:00', '12:00', 'pending', new Date(app.ctx.clock.now().getTime() - 60000)) // hold expired
  await booking('bookings', target, date, '12:00', '13:00', 'cancelled')
  await booking('bookings', target, date, '13:00', '14:00', 'playing')
  await booking('bookings', target, date, '14:00', '15:00', 'completed')
  await booking('bookings', target, addDays(date, 1), '15:00', '16:00', 'confirmed') // another day
  await app.ctx.db
    .insertInto('court_blocks')
    .values({ court_id: court.id, date, start_time: '16:30', end_time: '17:00', created_by: owner.id })
    .execute()

  const res = await get(`/api/courts/${court.id}/availability?date=${date}`)
  assert.equal(res.statusCode, 200, res.body)
  const body = res.json()
  assert.deepEqual(Object.keys(body).sort(), ['close_time', 'date', 'is_closed', 'open_time', 'slot_minutes', 'slots'])
  assert.equal(body.date, date)
  assert.equal(body.slot_minutes, 60)
  assert.equal(body.is_closed, false)
  assert.equal(body.open_time, '06:00')
  assert.equal(body.close_time, '22:00')
  assert.equal(body.slots.length, 16)
  assert.deepEqual(body.slots[0], {
    start_time: '06:00',
    end_time: '07:00',
    is_available: true,
    price_per_hour: '1500.00',
  })
  const free = Object.fromEntries(
    body.slots.map((s: { start_time: string; is_available: boolean }) => [s.start_time, s.is_available]),
  )
  assert.deepEqual(free, {
    '06:00': true,
    '07:00': false, // confirmed
    '08:00': false, // pending, no hold expiry
    '09:00': false,
    '10:00': false, // pending, hold running
    '11:00': true, // hold expired
    '12:00': true, // cancelled
    '13:00': false, // playing
    '14:00': true, // completed does not hold the slot
    '15:00': true, // booking on the next day
    '16:00': false, // maintenance block 16:30-17:00
    '17:00': true,
    '18:00': true,
    '19:00': true,
    '20:00': true,
    '21:00': true,
  })
})

test('court availability: prices per slot from rules, weekday rule and holiday', async () => {
  const { venue, court } = await courtSetup({}, { slot_minutes: 90, price_per_hour: 100000 })
  const date = daysFromFixedNow(3)
  const dow = dayOfWeek(date)
  await app.ctx.db
    .insertInto('pricing_rules')
    .values([
      {
        court_id: court.id,
        type: 'peak',
        day_of_week: null,
        start_time: '18:00',
        end_time: '22:00',
        price_per_hour: 200000,
      },
      {
        court_id: court.id,
        type: 'standard',
        day_of_week: dow,
        start_time: '18:00',
        end_time: '20:00',
        price_per_hour: 120000,
      },
      {
        court_id: court.id,
        type: 'off_peak',
        day_of_week: null,
        start_time: '06:00',
        end_time: '07:30',
        price_per_hour: 70000,
      },
      {
        court_id: court.id,
        type: 'holiday',
        day_of_week: null,
        start_time: '06:00',
        end_time: '22:00',
        price_per_hour: 250000,
      },
    ])
    .execute()
  const res = await get(`/api/courts/${court.id}/availability?date=${date}`)
  assert.equal(res.statusCode, 200, res.body)
  const prices = res
    .json()
    .slots.map((s: { start_time: string; price_per_hour: string }) => `${s.start_time}=${s.price_per_hour}`)
  assert.deepEqual(prices, [
    '06:00=700.00', // off_peak
    '07:30=1000.00', // base price
    '09:00=1000.00',
    '10:30=1000.00',
    '12:00=1000.00',
    '13:30=1000.00',
    '15:00=1000.00',
    '16:30=1000.00', // peak starts 18:00, inside this slot, but does not cover its start
    '18:00=1200.00', // weekday standard beats every-day peak
    '19:30=1200.00', // 19:30 lies in the weekday rule's [18:00, 20:00); 21:00-22:30 would pass closing
  ])

  await app.ctx.db.insertInto('venue_holidays').values({ venue_id: venue.id, date, name: 'Dashain' }).execute()
  const hol = await get(`/api/courts/${court.id}/availability?date=${date}`)
  assert.ok(hol.json().slots.every((s: { price_per_hour: string }) => s.price_per_hour === '2500.00'))
})

test('court availability: schedule entry hours and a closed day', async () => {
  const { court } = await courtSetup()
  const date = daysFromFixedNow(5)
  const dow = dayOfWeek(date)
  await app.ctx.db
    .insertInto('court_schedules')
    .values([
      { court_id: court.id, day_of_week: dow, open_time: '09:30', close_time: '12:30', is_closed: false },
      { court_id: court.id, day_of_week: (dow + 1) % 7, open_time: '06:00', close_time: '22:00', is_closed: true },
    ])
    .execute()
  const open = (await get(`/api/courts/${court.id}/availability?date=${date}`)).json()
  assert.equal(open.open_time, '09:30')
  assert.equal(open.close_time, '12:30')
  assert.deepEqual(
    open.slots.map((s: { start_time: string; end_time: string }) => `${s.start_time}-${s.end_time}`),
    ['09:30-10:30', '10:30-11:30', '11:30-12:30'],
  )
  const closed = await get(`/api/courts/${court.id}/availability?date=${addDays(date, 1)}`)
  assert.equal(closed.statusCode, 200)
  assert.equal(closed.json().is_closed, true)
  assert.deepEqual(closed.json().slots, [])
})

test('court schedule input refuses an overnight range (close before open)', async () => {
  const { owner, court } = await courtSetup()
  const res = await app.inject({
    method: 'PUT',
    url: `/api/courts/${court.id}/schedule`,
    headers: owner.headers,
    payload: { schedules: [{ day_of_week: 5, open_time: '20:00', close_time: '02:00', is_closed: false }] },
  })
  assert.equal(res.statusCode, 422, res.body)
  assert.ok(res.json().errors['schedules.0.close_time'])
})

test('court availability today: started slots are unavailable', async () => {
  // Open all day, 15-minute slots: some slots are in the past and (unless it is 23:45) some ahead.
  const { court } = await courtSetup({ opening_time: '00:00:00', closing_time: '23:59:00' }, { slot_minutes: 15 })
  const before = app.ctx.zone.wallClock(app.ctx.clock.now())
  const res = await get(`/api/courts/${court.id}/availability?date=${before.date}`)
  const after = app.ctx.zone.wallClock(app.ctx.clock.now())
  if (after.date !== before.date) return // the day ended during the request; nothing to compare
  assert.equal(res.statusCode, 200, res.body)
  const slots = res.json().slots as { start_time: string; is_available: boolean }[]
  assert.equal(slots.length, 95)
  for (const s of slots) {
    const start = `${s.start_time}:00`
    if (start < before.time) assert.equal(s.is_available, false, `${s.start_time} has started`)
    else if (start > after.time) assert.equal(s.is_available, true, `${s.start_time} is ahead`)
  }
  // The slot in progress is unavailable (unless it began exactly now).
  const current = fromMinutes(Math.floor(toMinutes(before.time) / 15) * 15)
  const inProgress = slots.find((s) => s.start_time === current)
  if (inProgress && `${current}:00` < before.time) assert.equal(inProgress.is_available, false)
})

test('court availability: 422 for missing, malformed and past dates', async () => {
  const { court } = await courtSetup()
  const missing = await get(`/api/courts/${court.id}/availability`)
  assert.equal(missing.statusCode, 422)
  assert.deepEqual(missing.json(), {
    message: 'The given data was invalid.',
    errors: { date: ['The date field is required.'] },
  })
  for (const bad of ['2026-13-01', 'tomorrow', '2026-02-30']) {
    const res = await get(`/api/courts/${court.id}/availability?date=${bad}`)
    assert.equal(res.statusCode, 422)
    assert.deepEqual(res.json().errors, { date: ['The date field must be a valid date.'] })
  }
  const past = await get(`/api/courts/${court.id}/availability?date=${daysFromFixedNow(-1)}`)
  assert.equal(past.statusCode, 422)
  assert.deepEqual(past.json().errors, { date: ['The date field must be a date after or equal to today.'] })
})

test('court availability: 404 for unknown, inactive, deleted courts and invisible venues', async () => {
  const date = daysFromFixedNow(1)
  assert.equal((await get(`/api/courts/999999999/availability?date=${date}`)).statusCode, 404)
  assert.equal((await get(`/api/courts/abc/availability?date=${date}`)).statusCode, 404)
  const inactive = await courtSetup({}, { is_active: false })
  const res = await get(`/api/courts/${inactive.court.id}/availability?date=${date}`)
  assert.equal(res.statusCode, 404)
  assert.deepEqual(res.json(), { message: 'Not found.' })
  // The venue's owner and staff still see it.
  assert.equal(
    (await get(`/api/courts/${inactive.court.id}/availability?date=${date}`, inactive.owner.headers)).statusCode,
    200,
  )

  const deleted = await courtSetup()
  await app.ctx.db
    .updateTable('courts')
    .set({ deleted_at: app.ctx.clock.now() })
    .where('id', '=', deleted.court.id)
    .execute()
  assert.equal((await get(`/api/courts/${deleted.court.id}/availability?date=${date}`)).statusCode, 404)

  const hidden = await courtSetup({ verification_status: 'pending' })
  assert.equal((await get(`/api/courts/${hidden.court.id}/availability?date=${date}`)).statusCode, 404)
  const customer = await createUser(app)
  assert.equal(
    (await get(`/api/courts/${hidden.court.id}/availability?date=${date}`, customer.headers)).statusCode,
    404,
  )
  const staff = await createUser(app, { roles: ['staff'] })
  await assignStaff(app, hidden.venue.id, staff.id, 'staff')
  assert.equal((await get(`/api/courts/${hidden.court.id}/availability?date=${date}`, staff.headers)).statusCode, 200)
  const admin = await createUser(app, { roles: ['super_admin'] })
  assert.equal((await get(`/api/courts/${hidden.court.id}/availability?date=${date}`, admin.headers)).statusCode, 200)
  const inactiveVenue = await courtSetup({ is_active: false })
  assert.equal((await get(`/api/courts/${inactiveVenue.court.id}/availability?date=${date}`)).statusCode, 404)
})

test('indoor availability: shape, venue hours, bookings, past, 422 and 404', async () => {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const venue = await createVenue(app, owner.id, { opening_time: '10:00:00', closing_time: '13:00:00' })
  const game = await createIndoorGame(app, venue.id, { slot_minutes: 30, price_per_hour: 30000 })
  const date = daysFromFixedNow(2)
  const target = { venueId: venue.id, gameId: game.id, tenantId: owner.id }
  await booking('indoor_game_bookings', target, date, '10:30', '11:30', 'confirmed')
  await booking(
    'indoor_game_bookings',
    target,
    date,
    '12:00',
    '12:30',
    'pending',
    new Date(app.ctx.clock.now().getTime() - 1000),
  )
  await booking('indoor_game_bookings', target, date, '12:30', '13:00', 'cancelled')

  const res = await get(`/api/indoor-games/${game.id}/availability?date=${date}`)
  assert.equal(res.statusCode, 200, res.body)
  const body = res.json()
  assert.deepEqual(Object.keys(body).sort(), ['date', 'slot_minutes', 'slots'])
  assert.equal(body.date, date)
  assert.equal(body.slot_minutes, 30)
  assert.deepEqual(body.slots, [
    { start_time: '10:00', end_time: '10:30', is_available: true },
    { start_time: '10:30', end_time: '11:00', is_available: false },
    { start_time: '11:00', end_time: '11:30', is_available: false },
    { start_time: '11:30', end_time: '12:00', is_available: true },
    { start_time: '12:00', end_time: '12:30', is_available: true },
    { start_time: '12:30', end_time: '13:00', is_available: true },
  ])

  const allDay = await createVenue(app, owner.id, { opening_time: '00:00:00', closing_time: '23:59:00' })
  const station = await createIndoorGame(app, allDay.id, { slot_minutes: 60 })
  const before = app.ctx.zone.wallClock(app.ctx.clock.now())
  const today = (await get(`/api/indoor-games/${station.id}/availability?date=${before.date}`)).json()
  const after = app.ctx.zone.wallClock(app.ctx.clock.now())
  if (after.date === before.date) {
    for (const s of today.slots as { start_time: string; is_available: boolean }[]) {
      const start = `${s.start_time}:00`
      if (start < before.time) assert.equal(s.is_available, false, `${s.start_time} has started`)
      else if (start > after.time) assert.equal(s.is_available, true, `${s.start_time} is ahead`)
    }
  }

  assert.equal((await get(`/api/indoor-games/${game.id}/availability?date=${daysFromFixedNow(-1)}`)).statusCode, 422)
  assert.equal((await get(`/api/indoor-games/${game.id}/availability?date=2026-2-1`)).statusCode, 422)
  assert.equal((await get(`/api/indoor-games/${game.id}/availability`)).statusCode, 422)
  assert.equal((await get(`/api/indoor-games/0/availability?date=${date}`)).statusCode, 404)
  assert.equal((await get(`/api/indoor-games/x1/availability?date=${date}`)).statusCode, 404)
  const off = await createIndoorGame(app, venue.id, { is_active: false })
  assert.equal((await get(`/api/indoor-games/${off.id}/availability?date=${date}`)).statusCode, 404)
  assert.equal((await get(`/api/indoor-games/${off.id}/availability?date=${date}`, owner.headers)).statusCode, 200)
  const hiddenVenue = await createVenue(app, owner.id, { verification_status: 'unverified' })
  const hidden = await createIndoorGame(app, hiddenVenue.id)
  assert.equal((await get(`/api/indoor-games/${hidden.id}/availability?date=${date}`)).statusCode, 404)
})
