import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { build } from '../helpers/app.ts'
import {
  createCourt,
  createIndoorGame,
  createUser,
  createVenue,
  daysFromFixedNow,
  FIXED_NOW,
} from '../helpers/factories.ts'

const clock = new ManualClock(FIXED_NOW)
let app: App
before(async () => {
  app = await build(undefined, {}, { clock })
})
after(() => app.close())

let n = 0
async function coupon(venueId: number | null, fields: Record<string, unknown> = {}) {
  const code = `VAL${process.pid}X${++n}`
  await app.ctx.db
    .insertInto('coupons')
    .values({ venue_id: venueId, code, type: 'percent', value: 1000, ...fields })
    .execute()
  return code
}

async function setup() {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const venue = await createVenue(app, owner.id)
  const court = await createCourt(app, venue.id, { price_per_hour: 150000 }) // 1500.00 an hour
  const user = await createUser(app)
  return { venue, court, user }
}

const slot = { date: daysFromFixedNow(1), start_time: '10:00', end_time: '12:00' } // 3000.00

test('a percent coupon prices the slot and caps at max_discount; a fixed one takes its amount', async () => {
  const { venue, court, user } = await setup()
  const pct = await coupon(venue.id, { value: 1000 })
  const res = await app.inject({
    method: 'POST',
    url: '/api/coupons/validate',
    headers: user.headers,
    payload: { code: pct.toLowerCase(), court_id: court.id, ...slot },
  })
  assert.equal(res.statusCode, 200, res.body)
  assert.deepEqual(res.json(), { data: { valid: true, code: pct, discount_amount: '300.00', final_amount: '2700.00' } })

  const capped = await coupon(venue.id, { value: 5000, max_discount: 50000 })
  const c = await app.inject({
    method: 'POST',
    url: '/api/coupons/validate',
    headers: user.headers,
    payload: { code: capped, court_id: court.id, ...slot },
  })
  assert.equal(c.json().data.discount_amount, '500.00')

  const fixed = await coupon(null, { type: 'fixed', value: 999999999 })
  const f = await app.inject({
    method: 'POST',
    url: '/api/coupons/validate',
    headers: user.headers,
    payload: { code: fixed, court_id: court.id, ...slot },
  })
  assert.deepEqual(f.json().data, { valid: true, code: fixed, discount_amount: '3000.00', final_amount: '0.00' })
})

test('an indoor game slot is priced from the game', async () => {
  const { venue, user } = await setup()
  const game = await createIndoorGame(app, venue.id, { price_per_hour: 30000, slot_minutes: 30 })
  const code = await coupon(venue.id, { type: 'fixed', value: 5000 })
  const res = await app.inject({
    method: 'POST',
    url: '/api/coupons/validate',
    headers: user.headers,
    payload: { code, indoor_game_id: game.id, date: slot.date, start_time: '10:00', end_time: '11:30' },
  })
  assert.deepEqual(res.json().data, { valid: true, code, discount_amount: '50.00', final_amount: '400.00' })
})

test('every reason a coupon cannot be used is a 422 on errors.code', async () => {
  const { venue, court, user } = await setup()
  const other = await createVenue(app, (await createUser(app, { roles: ['venue_owner'] })).id)
  const hour = 3600_000
  const used = await coupon(venue.id, { per_user_limit: 1 })
  await app.ctx.db
    .insertInto('coupon_usages')
    .values({
      coupon_id: (
        await app.ctx.db.selectFrom('coupons').select('id').where('code', '=', used).executeTakeFirstOrThrow()
      ).id,
      user_id: user.id,
      booking_type: 'court',
      booking_id: 999999,
      discount_amount: 1,
    })
    .execute()
  const cases: Array<[string, string]> = [
    ['NOPE-NOT-A-CODE', 'The coupon code is invalid.'],
    [await coupon(venue.id, { is_active: false }), 'The coupon code is invalid.'],
    [await coupon(venue.id, { expires_at: new Date(clock.now().getTime() - hour) }), 'This coupon has expired.'],
    [await coupon(venue.id, { starts_at: new Date(clock.now().getTime() + hour) }), 'This coupon is not valid yet.'],
    [await coupon(other.id), 'This coupon cannot be used at this venue.'],
    [await coupon(venue.id, { min_amount: 300001 }), 'This coupon needs a booking amount of at least 3000.01.'],
    [await coupon(venue.id, { usage_limit: 2, used_count: 2 }), 'This coupon has reached its usage limit.'],
    [used, 'You have already used this coupon the maximum number of times.'],
  ]
  for (const [code, message] of cases) {
    const res = await app.inject({
      method: 'POST',
      url: '/api/coupons/validate',
      headers: user.headers,
      payload: { code, court_id: court.id, ...slot },
    })
    assert.equal(res.statusCode, 422, code)
    assert.deepEqual(res.json(), { message: 'The given data was invalid.', errors: { code: [message] } })
  }
})

test('validation of the slot: a court or game, a real range, a token', async () => {
  const { court, user } = await setup()
  const code = await coupon(null)
  const bad = async (payload: Record<string, unknown>) =>
    (await app.inject({ method: 'POST', url: '/api/coupons/validate', headers: user.headers, payload })).json()
  assert.deepEqual((await bad({ code, ...slot })).errors.court_id, [
    'The court id field is required when indoor game id is not present.',
  ])
  assert.deepEqual((await bad({ code, court_id: court.id, ...slot, end_time: '09:00' })).errors.end_time, [
    'The end time field must be a date after start time.',
  ])
  assert.deepEqual((await bad({ code, court_id: 987654, ...slot })).errors.court_id, [
    'The selected court id is invalid.',
  ])
  assert.deepEqual((await bad({ court_id: court.id, ...slot })).errors.code, ['The code field is required.'])
  const guest = await app.inject({
    method: 'POST',
    url: '/api/coupons/validate',
    payload: { code, court_id: court.id, ...slot },
  })
  assert.equal(guest.statusCode, 401)
})
