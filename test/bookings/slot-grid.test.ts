import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { build } from '../helpers/app.ts'
import { createIndoorGame, createUser, daysFromFixedNow, FIXED_NOW } from '../helpers/factories.ts'
import { book, fixedSlot, world } from './helpers.ts'

// A start or end off the slot grid is a malformed request (422 naming the field), not a taken slot:
// the contract's 409 list is overlap, maintenance block, closed day and opening hours. The venue
// opens 06:00; courts and the game below have hourly slots.

let app: App
before(async () => {
  app = await build(undefined, {}, { clock: new ManualClock(FIXED_NOW) })
})
after(() => app.close())

const START_OFF = ['The start time must be on a slot boundary (every 60 minutes from 06:00).']
const END_OFF = ['The end time must be on a slot boundary (every 60 minutes from 06:00).']

function assertOffGrid(res: { statusCode: number; body: string; json: () => unknown }, errors: object) {
  assert.equal(res.statusCode, 422, res.body)
  assert.deepEqual(res.json(), { message: 'The given data was invalid.', errors })
}

test('customer court booking: off-grid start or end is 422 on that field; nothing is written', async () => {
  const w = await world(app)
  assertOffGrid(await book(app, w.customer, fixedSlot(w.court.id, 3, '10:30', '11:30')), {
    start_time: START_OFF,
    end_time: END_OFF,
  })
  assertOffGrid(await book(app, w.customer, fixedSlot(w.court.id, 3, '10:00', '10:45')), { end_time: END_OFF })
  assertOffGrid(await book(app, w.customer, fixedSlot(w.court.id, 3, '09:15', '11:00')), { start_time: START_OFF })
  // On the grid but outside the hours stays the contract's 409.
  const early = await book(app, w.customer, fixedSlot(w.court.id, 3, '05:00', '06:00'))
  assert.equal(early.statusCode, 409)
  const rows = await app.ctx.db.selectFrom('bookings').select('id').where('court_id', '=', w.court.id).execute()
  assert.equal(rows.length, 0)
  assert.equal((await book(app, w.customer, fixedSlot(w.court.id, 3, '10:00', '11:00'))).statusCode, 201)
})

test('the grid follows the court: a 30-minute court takes 10:30, an hourly one does not', async () => {
  const w = await world(app)
  await app.ctx.db.updateTable('courts').set({ slot_minutes: 30 }).where('id', '=', w.court.id).execute()
  assert.equal((await book(app, w.customer, fixedSlot(w.court.id, 3, '10:30', '11:30'))).statusCode, 201)
  assertOffGrid(await book(app, w.customer, fixedSlot(w.court.id, 3, '12:10', '13:00')), {
    start_time: ['The start time must be on a slot boundary (every 30 minutes from 06:00).'],
  })
})

test('staff desk booking: off-grid times are 422 on the field', async () => {
  const w = await world(app)
  const res = await app.inject({
    method: 'POST',
    url: `/api/venues/${w.venue.id}/bookings`,
    headers: w.staff.headers,
    payload: { ...fixedSlot(w.court.id, 3, '14:20', '15:00'), customer_name: 'Walk In' },
  })
  assertOffGrid(res, { start_time: START_OFF })
})

test('coupon validate quotes: off-grid court and indoor ranges are 422 on the field', async () => {
  const w = await world(app)
  const game = await createIndoorGame(app, w.venue.id, { slot_minutes: 60, price_per_hour: 30000 })
  const code = `GRID${process.pid}`
  await app.ctx.db.insertInto('coupons').values({ venue_id: w.venue.id, code, type: 'percent', value: 1000 }).execute()
  const validate = (payload: Record<string, unknown>) =>
    app.inject({ method: 'POST', url: '/api/coupons/validate', headers: w.customer.headers, payload })
  const when = { date: daysFromFixedNow(2), start_time: '10:00', end_time: '11:30' }
  assertOffGrid(await validate({ code, court_id: w.court.id, ...when }), { end_time: END_OFF })
  assertOffGrid(await validate({ code, indoor_game_id: game.id, ...when }), { end_time: END_OFF })
  const ok = await validate({ code, court_id: w.court.id, ...when, end_time: '11:00' })
  assert.equal(ok.statusCode, 200, ok.body)
})

test('indoor bookings (customer and desk): off-grid times are 422 on the field', async () => {
  const w = await world(app)
  const game = await createIndoorGame(app, w.venue.id, { slot_minutes: 60, price_per_hour: 30000 })
  const customer = await createUser(app)
  const when = { indoor_game_id: game.id, date: daysFromFixedNow(2), start_time: '10:05', end_time: '11:00' }
  const mine = await app.inject({
    method: 'POST',
    url: '/api/indoor-game-bookings',
    headers: customer.headers,
    payload: when,
  })
  assertOffGrid(mine, { start_time: START_OFF })
  const desk = await app.inject({
    method: 'POST',
    url: `/api/venues/${w.venue.id}/indoor-game-bookings`,
    headers: w.staff.headers,
    payload: { ...when, customer_name: 'Walk In' },
  })
  assertOffGrid(desk, { start_time: START_OFF })
})
