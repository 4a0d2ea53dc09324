import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { book, type World, world } from '../bookings/helpers.ts'
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
import { payInsertedBookings } from '../helpers/ledger.ts'

// GET /api/venues/{venue}/board: the front desk's day.

let app: App
before(async () => {
  app = await build(undefined, {}, { clock: new ManualClock(FIXED_NOW) })
})
after(() => app.close())

const date = daysFromFixedNow(5)

function board(venue: number | string, who?: { headers: Record<string, string> }, query = `?date=${date}`) {
  return app.inject({ method: 'GET', url: `/api/venues/${venue}/board${query}`, headers: who?.headers })
}

function staffCall(method: 'POST' | 'PATCH', url: string, who: World['staff'], payload: Record<string, unknown>) {
  return app.inject({ method, url, headers: who.headers, payload })
}

/** A venue day with everything the board shows: a hold, a walk-in paid in cash with a charge, a cancelled booking, an indoor booking, a block, a holiday. */
async function busyDay() {
  const w = await world(app)
  const second = await createCourt(app, w.venue.id, { name: 'B court', price_per_hour: 100000, slot_minutes: 30 })
  const retired = await createCourt(app, w.venue.id, { name: 'Retired', is_active: false })
  const game = await createIndoorGame(app, w.venue.id, { name: 'PS5', price_per_hour: 30000 })
  await app.ctx.db
    .insertInto('pricing_rules')
    .values({
      court_id: w.court.id,
      type: 'holiday',
      day_of_week: null,
      start_time: '18:00',
      end_time: '22:00',
      price_per_hour: 200000,
    })
    .execute()
  let res = await staffCall('POST', `/api/venues/${w.venue.id}/holidays`, w.manager, { date, name: 'Dashain' })
  assert.equal(res.statusCode, 201, res.body)

  // A customer's booking with no payment yet: pending, held for payment.
  res = await book(app, w.customer, { court_id: w.court.id, date, start_time: '10:00', end_time: '11:00' })
  assert.equal(res.statusCode, 201, res.body)
  const hold = res.json().data
  // A walk-in at the desk, an extra charge and a cash payment.
  res = await staffCall('POST', `/api/venues/${w.venue.id}/bookings`, w.staff, {
    court_id: w.court.id,
    date,
    start_time: '12:00',
    end_time: '13:00',
    type: 'walkin',
    customer_name: 'Walk In',
    customer_phone: '9811111111',
  })
  assert.equal(res.statusCode, 201, res.body)
  const walkIn = res.json().data
  res = await staffCall('POST', `/api/bookings/${walkIn.id}/charges`, w.staff, { description: 'Balls', amount: 200 })
  assert.equal(res.statusCode, 201, res.body)
  res = await staffCall('POST', `/api/bookings/${walkIn.id}/payments`, w.staff, { amount: 500, method: 'cash' })
  assert.equal(res.statusCode, 201, res.body)
  // A cancelled booking: listed, not counted, its slot free.
  res = await staffCall('POST', `/api/venues/${w.venue.id}/bookings`, w.staff, {
    court_id: second.id,
    date,
    start_time: '14:00',
    end_time: '15:00',
    customer_name: 'Gone',
  })
  assert.equal(res.statusCode, 201, res.body)
  const cancelled = res.json().data
  res = await staffCall('PATCH', `/api/bookings/${cancelled.id}/status`, w.staff, { status: 'cancelled' })
  assert.equal(res.statusCode, 200, res.body)
  // An indoor booking.
  res = await app.inject({
    method: 'POST',
    url: '/api/indoor-game-bookings',
    headers: w.customer.headers,
    payload: { indoor_game_id: game.id, date, start_time: '16:00', end_time: '17:00' },
  })
  assert.equal(res.statusCode, 201, res.body)
  const indoor = res.json().data
  // Maintenance.
  res = await staffCall('POST', `/api/courts/${w.court.id}/blocks`, w.manager, {
    date,
    start_time: '15:00',
    end_time: '16:00',
    reason: 'Net repair',
  })
  assert.equal(res.statusCode, 201, res.body)
  const block = res.json().data
  return { w, second, retired, game, hold, walkIn, cancelled, indoor, block }
}

test('the board of a busy day: columns on the availability grid, bookings with money, blocks, holiday, totals', async () => {
  const s = await busyDay()
  const res = await board(s.w.venue.id, s.w.staff)
  assert.equal(res.statusCode, 200, res.body)
  assert.equal(res.headers['cache-control'], 'no-store')
  const b = res.json().data
  assert.equal(b.date, date)
  assert.match(b.now, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
  assert.equal(b.time_zone, 'Asia/Kathmandu')
  assert.deepEqual(b.venue, {
    id: s.w.venue.id,
    name: s.w.venue.name,
    slug: s.w.venue.slug,
    opening_time: '06:00',
    closing_time: '22:00',
  })
  assert.equal(b.is_holiday, true)
  assert.equal(b.holiday_reason, 'Dashain')

  // Active courts by id, then games; the inactive court without bookings is left out.
  assert.deepEqual(
    b.columns.map((c: { kind: string; id: number; name: string }) => [c.kind, c.id]),
    [
      ['court', s.w.court.id],
      ['court', s.second.id],
      ['indoor_game', s.game.id],
    ],
  )
  const [court, second, game] = b.columns
  assert.deepEqual(
    { ...court, slots: court.slots.length },
    {
      kind: 'court',
      id: s.w.court.id,
      name: s.w.court.name,
      type: 'futsal',
      is_active: true,
      slot_minutes: 60,
      is_closed: false,
      open_time: '06:00',
      close_time: '22:00',
      slots: 16,
    },
  )
  type SlotJson = { start_time: string; price: string | null; state: string; booking_id: number | null }
  const at = (col: { slots: SlotJson[] }, time: string) => col.slots.find((x) => x.start_time === time)
  assert.deepEqual(at(court, '10:00'), {
    start_time: '10:00',
    end_time: '11:00',
    price: '1500.00',
    state: 'booked',
    booking_id: s.hold.id,
    block_id: null,
  })
  assert.equal(at(court, '12:00')?.booking_id, s.walkIn.id)
  assert.deepEqual(at(court, '15:00'), {
    start_time: '15:00',
    end_time: '16:00',
    price: '1500.00',
    state: 'blocked',
    booking_id: null,
    block_id: s.block.id,
  })
  // The holiday rule prices the evening.
  assert.equal(at(court, '18:00')?.price, '2000.00')
  assert.equal(second.slot_minutes, 30)
  assert.equal(second.slots.length, 32)
  assert.equal(at(second, '14:00')?.state, 'free')
  assert.equal(at(game, '16:00')?.state, 'booked')
  assert.equal(at(game, '16:00')?.booking_id, s.indoor.id)
  assert.equal(at(game, '16:00')?.price, '300.00')

  // The same grid, prices and availability as the public route.
  for (const col of [court, second]) {
    const av = await app.inject({ method: 'GET', url: `/api/courts/${col.id}/availability?date=${date}` })
    assert.equal(av.statusCode, 200)
    assert.deepEqual(
      col.slots.map((x: { start_time: string; end_time: string; price: string; state: string }) => [
        x.start_time,
        x.end_time,
        x.price,
        x.state === 'free',
      ]),
      av
        .json()
        .slots.map((x: { start_time: string; end_time: string; price_per_hour: string; is_available: boolean }) => [
          x.start_time,
          x.end_time,
          x.price_per_hour,
          x.is_available,
        ]),
    )
  }

  const byId = new Map(b.bookings.map((x: { kind: string; id: number }) => [`${x.kind}:${x.id}`, x]))
  assert.equal(b.bookings.length, 4)
  const hold = byId.get(`court:${s.hold.id}`) as Record<string, unknown>
  assert.equal(hold.status, 'pending')
  assert.equal(hold.is_hold, true)
  // Venue wall clock, like every instant of the API.
  assert.match(String(hold.hold_expires_at), /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
  assert.ok(String(hold.hold_expires_at) > b.now)
  assert.deepEqual(
    { ...(byId.get(`court:${s.walkIn.id}`) as object), id: 0 },
    {
      kind: 'court',
      id: 0,
      booking_number: s.walkIn.booking_number,
      resource_id: s.w.court.id,
      start_time: '12:00',
      end_time: '13:00',
      // A desk booking stays pending (without a hold) until paid in full.
      status: 'pending',
      customer_name: 'Walk In',
      customer_phone: '9811111111',
      booking_type: 'walkin',
      total_amount: '1700.00',
      paid_amount: '500.00',
      balance_due: '1200.00',
      payment_method: (byId.get(`court:${s.walkIn.id}`) as { payment_method: string | null }).payment_method,
      is_hold: false,
      hold_expires_at: null,
      waitlist_count: 0,
      is_waitlist_offer: false,
      series_id: null,
      shares: null,
    },
  )
  assert.equal((byId.get(`court:${s.cancelled.id}`) as { status: string }).status, 'cancelled')
  const indoor = byId.get(`indoor_game:${s.indoor.id}`) as Record<string, unknown>
  assert.equal(indoor.resource_id, s.game.id)
  assert.equal(indoor.total_amount, '300.00')
  assert.deepEqual(b.blocks, [
    { id: s.block.id, court_id: s.w.court.id, start_time: '15:00', end_time: '16:00', reason: 'Net repair' },
  ])
  // Hold 1500 due, walk-in 1700 − 500, indoor 300 due; the cancelled one is not counted.
  assert.deepEqual(b.totals, { bookings: 3, paid: '500.00', due: '3000.00', cash_taken: '500.00' })
})

test('an inactive court with a booking that day stays on the board; the venue slug works; a past day is all past', async () => {
  const w = await world(app)
  const res0 = await staffCall('POST', `/api/venues/${w.venue.id}/bookings`, w.staff, {
    court_id: w.court.id,
    date,
    start_time: '08:00',
    end_time: '09:00',
    customer_name: 'Early',
  })
  assert.equal(res0.statusCode, 201, res0.body)
  await app.ctx.db.updateTable('courts').set({ is_active: false }).where('id', '=', w.court.id).execute()
  const res = await board(w.venue.slug, w.owner)
  assert.equal(res.statusCode, 200, res.body)
  const [col] = res.json().data.columns
  assert.equal(col.id, w.court.id)
  assert.equal(col.is_active, false)
  assert.equal(col.slots.find((x: { start_time: string }) => x.start_time === '08:00').state, 'booked')

  await app.ctx.db.updateTable('courts').set({ is_active: true }).where('id', '=', w.court.id).execute()
  const past = await board(w.venue.id, w.owner, `?date=${daysFromFixedNow(-2)}`)
  assert.equal(past.statusCode, 200, past.body)
  const states = new Set(past.json().data.columns[0].slots.map((x: { state: string }) => x.state))
  assert.deepEqual([...states], ['past'])
  assert.equal(past.json().data.is_holiday, false)
  assert.equal(past.json().data.holiday_reason, null)
})

test('without a date the board is today (venue time)', async () => {
  const w = await world(app)
  const res = await board(w.venue.id, w.staff, '')
  assert.equal(res.statusCode, 200, res.body)
  // The app's clock stands at FIXED_NOW: today is that day in the venue's zone.
  assert.equal(app.ctx.zone.wallClock(app.ctx.clock.now()).date, daysFromFixedNow(0))
  assert.equal(res.json().data.date, daysFromFixedNow(0))
})

test('who may see the board: 401, 403 (customer, staff of another venue), 404, super_admin allowed; 422 bad date', async () => {
  const w = await world(app)
  const stranger = await createUser(app, { roles: ['staff'] })
  const otherVenue = await createVenue(app, (await createUser(app, { roles: ['venue_owner'] })).id)
  await assignStaff(app, otherVenue.id, stranger.id, 'staff')
  const admin = await createUser(app, { roles: ['super_admin'] })

  assert.equal((await board(w.venue.id)).statusCode, 401)
  assert.equal((await board(w.venue.id, w.customer)).statusCode, 403)
  assert.equal((await board(w.venue.id, stranger)).statusCode, 403)
  // 403 before validation: a stranger learns nothing from a bad date.
  assert.equal((await board(w.venue.id, stranger, '?date=bogus')).statusCode, 403)
  assert.equal((await board(999999999, w.staff)).statusCode, 404)
  assert.equal((await board('no-such-venue', w.staff)).statusCode, 404)
  for (const who of [w.owner, w.manager, w.staff, admin]) {
    assert.equal((await board(w.venue.id, who)).statusCode, 200)
  }
  for (const bad of ['2026-02-30', 'tomorrow', '2026-1-01']) {
    const res = await board(w.venue.id, w.staff, `?date=${bad}`)
    assert.equal(res.statusCode, 422, bad)
    assert.ok(res.json().errors.date, res.body)
  }
})

test('a venue with 12 courts and 100 bookings on the day answers quickly', async () => {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const venue = await createVenue(app, owner.id, { opening_time: '06:00:00', closing_time: '23:00:00' })
  const courts = []
  for (let i = 0; i < 12; i++) courts.push(await createCourt(app, venue.id, { name: `Court ${i + 1}` }))
  const rows = []
  let n = 0
  for (const court of courts) {
    for (let h = 6; h < 23 && n < 100; h += 2) {
      n++
      rows.push({
        booking_number: `BK-PERF-${venue.id}-${n}`,
        court_id: court.id,
        venue_id: venue.id,
        customer_name: `Customer ${n}`,
        date,
        start_time: `${String(h).padStart(2, '0')}:00:00`,
        end_time: `${String(h + 1).padStart(2, '0')}:00:00`,
        base_amount: 150000,
        total_amount: 150000,
        paid_amount: n % 3 === 0 ? 150000 : 0,
        status: 'confirmed',
        type: 'offline',
      })
    }
  }
  await app.ctx.db.insertInto('bookings').values(rows).execute()
  await payInsertedBookings(app)
  // Warm once (statement plans, the token), then measure.
  assert.equal((await board(venue.id, owner)).statusCode, 200)
  const times: number[] = []
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now()
    const res = await board(venue.id, owner)
    times.push(performance.now() - t0)
    assert.equal(res.statusCode, 200)
    const b = res.json().data
    assert.equal(b.columns.length, 12)
    assert.equal(b.bookings.length, 100)
    assert.equal(b.totals.bookings, 100)
  }
  times.sort((a, b) => a - b)
  const median = times[2]
  console.log(`board: 12 courts, 100 bookings: median ${median.toFixed(1)} ms (${app.ctx.dbKind})`)
  // Generous: the bound catches a query per booking, not a slow shared machine.
  assert.ok(median < 2000, `board took ${median} ms`)
})
