import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { AppError } from '../../src/lib/errors.ts'
import { addDays, dayOfWeek } from '../../src/lib/time.ts'
import { COURT_UNAVAILABLE, INDOOR_UNAVAILABLE, quoteBooking } from '../../src/modules/availability/quote.ts'
import { build } from '../helpers/app.ts'
import {
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

/** The app's clock and zone as a quote takes them. */
const quoteTime = () => ({ zone: app.ctx.zone, now: app.ctx.clock.now() })

async function rejects(p: Promise<unknown>, status: number, check: (e: AppError) => void = () => {}) {
  await assert.rejects(p, (e: unknown) => {
    assert.ok(e instanceof AppError, String(e))
    assert.equal(e.statusCode, status)
    check(e)
    return true
  })
}

async function setup() {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const venue = await createVenue(app, owner.id, { opening_time: '06:00:00', closing_time: '22:00:00' })
  const court = await createCourt(app, venue.id, { price_per_hour: 100000, slot_minutes: 60 })
  return { owner, venue, court }
}

test('a court quote sums slot prices with rules, holidays and schedule hours', async () => {
  const { venue, court } = await setup()
  const date = daysFromFixedNow(3)
  const dow = dayOfWeek(date)
  const db = app.ctx.db
  await db
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
        type: 'off_peak',
        day_of_week: dow,
        start_time: '06:00',
        end_time: '09:00',
        price_per_hour: 60000,
      },
      {
        court_id: court.id,
        type: 'holiday',
        day_of_week: null,
        start_time: '06:00',
        end_time: '22:00',
        price_per_hour: 300000,
      },
      {
        court_id: court.id,
        type: 'peak',
        day_of_week: null,
        start_time: '10:00',
        end_time: '12:00',
        price_per_hour: 900000,
        is_active: false,
      },
    ])
    .execute()
  assert.deepEqual(await quoteBooking(db, 'court', court.id, date, '17:00', '19:00', quoteTime()), {
    baseAmount: 300000,
    slotMinutes: 60,
  })
  assert.deepEqual(await quoteBooking(db, 'court', court.id, date, '08:00', '11:00', quoteTime()), {
    baseAmount: 260000,
    slotMinutes: 60,
  })
  // A holiday the day after: the holiday rule prices every slot.
  const holiday = addDays(date, 1)
  await db.insertInto('venue_holidays').values({ venue_id: venue.id, date: holiday, name: 'Tihar' }).execute()
  assert.equal((await quoteBooking(db, 'court', court.id, holiday, '08:00', '10:00', quoteTime())).baseAmount, 600000)
  // A schedule entry narrows the day; closed days refuse everything.
  await db
    .insertInto('court_schedules')
    .values([
      { court_id: court.id, day_of_week: dow, open_time: '08:00', close_time: '12:00', is_closed: false },
      { court_id: court.id, day_of_week: (dow + 2) % 7, open_time: '06:00', close_time: '22:00', is_closed: true },
    ])
    .execute()
  await rejects(quoteBooking(db, 'court', court.id, date, '06:00', '08:00', quoteTime()), 409, (e) =>
    assert.equal(e.message, COURT_UNAVAILABLE),
  )
  await rejects(quoteBooking(db, 'court', court.id, date, '11:00', '13:00', quoteTime()), 409)
  assert.equal(
    (await quoteBooking(db, 'court', court.id, date, '08:00', '12:00', quoteTime())).baseAmount,
    60000 + 3 * 100000,
  )
  await rejects(quoteBooking(db, 'court', court.id, addDays(date, 2), '10:00', '11:00', quoteTime()), 409, (e) =>
    assert.equal(e.message, COURT_UNAVAILABLE),
  )
})

test('a court quote refuses off-grid ranges, blocks, past dates and past start times', async () => {
  const { owner, court } = await setup()
  const date = daysFromFixedNow(4)
  const db = app.ctx.db
  await rejects(quoteBooking(db, 'court', court.id, date, '10:30', '11:30', quoteTime()), 422, (e) =>
    assert.deepEqual(Object.keys(e.errors ?? {}), ['start_time', 'end_time']),
  )
  await rejects(quoteBooking(db, 'court', court.id, date, '21:00', '23:00', quoteTime()), 409)
  await db
    .insertInto('court_blocks')
    .values({ court_id: court.id, date, start_time: '14:30', end_time: '15:00', created_by: owner.id })
    .execute()
  await rejects(quoteBooking(db, 'court', court.id, date, '13:00', '15:00', quoteTime()), 409, (e) =>
    assert.equal(e.message, COURT_UNAVAILABLE),
  )
  assert.equal((await quoteBooking(db, 'court', court.id, date, '15:00', '16:00', quoteTime())).baseAmount, 100000)
  await rejects(quoteBooking(db, 'court', court.id, daysFromFixedNow(-1), '10:00', '11:00', quoteTime()), 422, (e) =>
    assert.deepEqual(Object.keys(e.errors ?? {}), ['date']),
  )
  await rejects(quoteBooking(db, 'court', court.id, '2026-02-30', '10:00', '11:00', quoteTime()), 422, (e) =>
    assert.deepEqual(Object.keys(e.errors ?? {}), ['date']),
  )
  await rejects(quoteBooking(db, 'court', court.id, date, '11:00', '10:00', quoteTime()), 422, (e) =>
    assert.deepEqual(Object.keys(e.errors ?? {}), ['end_time']),
  )
  // At noon (venue time) the day's 00:00 slot has started, whatever the wall clock says.
  const today = daysFromFixedNow(0)
  const noon = { zone: app.ctx.zone, now: app.ctx.zone.instant(today, '12:00') }
  await rejects(quoteBooking(db, 'court', court.id, today, '00:00', '01:00', noon), 422, (e) =>
    assert.deepEqual(Object.keys(e.errors ?? {}), ['start_time']),
  )
})

test('an indoor quote uses the game price and the venue hours', async () => {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const venue = await createVenue(app, owner.id, { opening_time: '10:00:00', closing_time: '20:00:00' })
  const game = await createIndoorGame(app, venue.id, { price_per_hour: 30000, slot_minutes: 30 })
  const date = daysFromFixedNow(2)
  assert.deepEqual(await quoteBooking(app.ctx.db, 'indoor', game.id, date, '10:00', '11:30', quoteTime()), {
    baseAmount: 45000,
    slotMinutes: 30,
  })
  await rejects(quoteBooking(app.ctx.db, 'indoor', game.id, date, '09:30', '10:30', quoteTime()), 409, (e) =>
    assert.equal(e.message, INDOOR_UNAVAILABLE),
  )
  await rejects(quoteBooking(app.ctx.db, 'indoor', game.id, date, '10:15', '10:45', quoteTime()), 422, (e) =>
    assert.deepEqual(Object.keys(e.errors ?? {}), ['start_time', 'end_time']),
  )
  await rejects(quoteBooking(app.ctx.db, 'indoor', game.id, daysFromFixedNow(-2), '10:00', '10:30', quoteTime()), 422)
})
