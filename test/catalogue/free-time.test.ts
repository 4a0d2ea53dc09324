import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { build, heardAll } from '../helpers/app.ts'
import {
  createCourt,
  createIndoorGame,
  createUser,
  createVenue,
  daysFromFixedNow,
  FIXED_NOW,
} from '../helpers/factories.ts'

// The free-time search (docs/catalogue.md, "Free-time search"): GET /api/venues and /venues/nearby
// with date, from, to and duration. FIXED_NOW is a Tuesday, 09:00 in Kathmandu.

let app: App
const clock = new ManualClock(FIXED_NOW)
const today = daysFromFixedNow(0)
const tomorrow = daysFromFixedNow(1)
let ownerId: number
let seq = 0

type FreeSlot = {
  court_id: number | null
  indoor_game_id: number | null
  name: string
  date: string
  start_time: string
  end_time: string
  price: string
}
type Item = {
  id: number
  name: string
  free_slots?: FreeSlot[]
  min_price: string | null
  rating: number | null
  reviews_count: number | null
  distance_km?: number
}

async function search(query: Record<string, string | number>) {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))
  const res = await app.inject({ method: 'GET', url: `/api/venues?${qs}` })
  return { status: res.statusCode, body: res.json() as { data: Item[]; meta: { total: number } } }
}

/** The one venue named `name` in a search, or undefined when the search does not list it. */
async function found(name: string, query: Record<string, string | number>) {
  const { status, body } = await search({ search: name, ...query })
  assert.equal(status, 200, JSON.stringify(body))
  return body.data.find((v) => v.name === name)
}

const times = (v: Item | undefined) => v?.free_slots?.map((s) => `${s.start_time}-${s.end_time}`)

/** A venue of its own (unique name) with one futsal court, 06:00–22:00, Rs 1,500 an hour. */
async function venueWithCourt(
  fields: Parameters<typeof createVenue>[2] = {},
  court: Parameters<typeof createCourt>[2] = {},
) {
  const name = `Free Time Arena ${++seq}`
  const venue = await createVenue(app, ownerId, { name, ...fields })
  const c = await createCourt(app, venue.id, { name: 'Court A', ...court })
  return { venue, court: c, name }
}

async function insertBooking(
  venueId: number,
  courtId: number,
  date: string,
  start: string,
  end: string,
  fields: { status?: string; hold_expires_at?: Date | null } = {},
) {
  await app.ctx.db
    .insertInto('bookings')
    .values({
      booking_number: `BK-FT-${++seq}`,
      venue_id: venueId,
      court_id: courtId,
      customer_name: 'Walk-in',
      date,
      start_time: start,
      end_time: end,
      base_amount: 150000,
      total_amount: 150000,
      status: fields.status ?? 'confirmed',
      hold_expires_at: fields.hold_expires_at ?? null,
    })
    .execute()
}

before(async () => {
  app = await build(undefined, {}, { clock })
  ownerId = (await createUser(app, { roles: ['venue_owner'] })).id
})

after(() => app.close())

describe('the window, the duration and the price', () => {
  test('each free start of the window, at the price a customer pays (peak rule)', async () => {
    const { court, name } = await venueWithCourt()
    await app.ctx.db
      .insertInto('pricing_rules')
      .values({
        court_id: court.id,
        type: 'peak',
        day_of_week: null,
        start_time: '18:00',
        end_time: '21:00',
        price_per_hour: 250000,
      })
      .execute()
    const v = await found(name, { date: tomorrow, from: '18:00', to: '21:00' })
    assert.deepEqual(v?.free_slots, [
      {
        court_id: court.id,
        indoor_game_id: null,
        name: 'Court A',
        date: tomorrow,
        start_time: '18:00',
        end_time: '19:00',
        price: '2500.00',
      },
      {
        court_id: court.id,
        indoor_game_id: null,
        name: 'Court A',
        date: tomorrow,
        start_time: '19:00',
        end_time: '20:00',
        price: '2500.00',
      },
      {
        court_id: court.id,
        indoor_game_id: null,
        name: 'Court A',
        date: tomorrow,
        start_time: '20:00',
        end_time: '21:00',
        price: '2500.00',
      },
    ])
    // Two hours: the last start of the window ends at closing; 20:00–22:00 is one peak and one standard hour.
    const two = await found(name, { date: tomorrow, from: '18:00', to: '21:00', duration: 120 })
    assert.deepEqual(
      two?.free_slots?.map((s) => [s.start_time, s.end_time, s.price]),
      [
        ['18:00', '20:00', '5000.00'],
        ['19:00', '21:00', '5000.00'],
        ['20:00', '22:00', '4000.00'],
      ],
    )
    // 90 minutes cannot be booked on an hourly grid: the venue is not listed.
    assert.equal(await found(name, { date: tomorrow, from: '18:00', to: '21:00', duration: 90 }), undefined)
    // A start must fit before closing: from 21:00 only 21:00–22:00.
    assert.deepEqual(times(await found(name, { date: tomorrow, from: '21:00' })), ['21:00-22:00'])
  })

  test('at most 5 starts, earliest first, over all courts; the whole day by default', async () => {
    const { venue, name } = await venueWithCourt()
    await createCourt(app, venue.id, { name: 'Court B', slot_minutes: 30, price_per_hour: 100000 })
    const v = await found(name, { date: tomorrow })
    assert.deepEqual(
      v?.free_slots?.map((s) => `${s.name} ${s.start_time}-${s.end_time} ${s.price}`),
      [
        'Court A 06:00-07:00 1500.00',
        'Court B 06:00-07:00 1000.00',
        'Court B 06:30-07:30 1000.00',
        'Court A 07:00-08:00 1500.00',
        'Court B 07:00-08:00 1000.00',
      ],
    )
    // The cards' lowest hourly price today.
    assert.equal(v?.min_price, '1000.00')
  })

  test('a holiday prices its slots by the holiday rule', async () => {
    const { venue, court, name } = await venueWithCourt()
    await app.ctx.db
      .insertInto('venue_holidays')
      .values({ venue_id: venue.id, date: tomorrow, name: 'Festival' })
      .execute()
    await app.ctx.db
      .insertInto('pricing_rules')
      .values({
        court_id: court.id,
        type: 'holiday',
        day_of_week: null,
        start_time: '06:00',
        end_time: '22:00',
        price_per_hour: 300000,
      })
      .execute()
    const v = await found(name, { date: tomorrow, from: '18:00', to: '19:00' })
    assert.deepEqual(
      v?.free_slots?.map((s) => s.price),
      ['3000.00'],
    )
    // Today is no holiday: the day's price is the court's own.
    assert.deepEqual(
      (await found(name, { date: today, from: '18:00', to: '19:00' }))?.free_slots?.map((s) => s.price),
      ['1500.00'],
    )
  })
})

describe('what takes a slot', () => {
  test('bookings, running holds and blocks take slots; an expired hold does not; a full venue is absent', async () => {
    const { venue, court, name } = await venueWithCourt()
    await insertBooking(venue.id, court.id, tomorrow, '19:00', '20:00')
    // A hold running past now takes 18:00; one that ran out at 08:59 leaves 20:00 free.
    await insertBooking(venue.id, court.id, tomorrow, '18:00', '19:00', {
      status: 'pending',
      hold_expires_at: new Date(Date.parse(FIXED_NOW) + 10 * 60_000),
    })
    await insertBooking(venue.id, court.id, tomorrow, '20:00', '21:00', {
      status: 'pending',
      hold_expires_at: new Date(Date.parse(FIXED_NOW) - 60_000),
    })
    // A cancelled booking takes nothing.
    await insertBooking(venue.id, court.id, tomorrow, '17:00', '18:00', { status: 'cancelled' })
    assert.deepEqual(times(await found(name, { date: tomorrow, from: '17:00', to: '21:00' })), [
      '17:00-18:00',
      '20:00-21:00',
    ])
    // Two hours need two free hours in a row.
    assert.deepEqual(times(await found(name, { date: tomorrow, from: '16:00', to: '21:00', duration: 120 })), [
      '16:00-18:00',
      '20:00-22:00',
    ])
    await app.ctx.db
      .insertInto('court_blocks')
      .values([
        { court_id: court.id, date: tomorrow, start_time: '17:00', end_time: '18:00', reason: 'Repairs' },
        { court_id: court.id, date: tomorrow, start_time: '20:00', end_time: '22:00', reason: 'Repairs' },
      ])
      .execute()
    assert.equal(await found(name, { date: tomorrow, from: '17:00', to: '21:00' }), undefined)
    // Without a date the venue is listed as before, with no free_slots.
    const plain = await found(name, {})
    assert.ok(plain)
    assert.equal(plain.free_slots, undefined)
  })

  test("a closed weekday and a court's own hours", async () => {
    const { venue, court, name } = await venueWithCourt()
    const dow = new Date(`${tomorrow}T00:00:00Z`).getUTCDay()
    await app.ctx.db
      .insertInto('court_schedules')
      .values({ court_id: court.id, day_of_week: dow, open_time: '06:00', close_time: '22:00', is_closed: true })
      .execute()
    assert.equal(await found(name, { date: tomorrow }), undefined)
    const second = await createCourt(app, venue.id, { name: 'Court B' })
    await app.ctx.db
      .insertInto('court_schedules')
      .values({ court_id: second.id, day_of_week: dow, open_time: '17:00', close_time: '20:00' })
      .execute()
    assert.deepEqual(times(await found(name, { date: tomorrow, from: '12:00' })), [
      '17:00-18:00',
      '18:00-19:00',
      '19:00-20:00',
    ])
  })

  test('started slots, minimum notice and the booking window', async () => {
    const { venue, name } = await venueWithCourt()
    // 09:00 now: the 09:00 slot has not started.
    assert.deepEqual(times(await found(name, { date: today, to: '11:00' })), ['09:00-10:00', '10:00-11:00'])
    clock.set(new Date(Date.parse(FIXED_NOW) + 10 * 60_000))
    try {
      assert.deepEqual(times(await found(name, { date: today, to: '11:00' })), ['10:00-11:00'])
      await app.ctx.db.updateTable('venues').set({ min_notice_minutes: 120 }).where('id', '=', venue.id).execute()
      // 09:10 + 2 hours: the first start is 12:00.
      assert.deepEqual(times(await found(name, { date: today, to: '13:00' })), ['12:00-13:00'])
      assert.deepEqual(times(await found(name, { date: tomorrow, to: '07:00' })), ['06:00-07:00'])
    } finally {
      clock.set(FIXED_NOW)
    }
    await app.ctx.db.updateTable('venues').set({ booking_window_days: 2 }).where('id', '=', venue.id).execute()
    assert.ok(await found(name, { date: daysFromFixedNow(2) }))
    assert.equal(await found(name, { date: daysFromFixedNow(3) }), undefined)
  })

  test('inactive courts, hidden venues and other sports are left out', async () => {
    const off = await venueWithCourt({}, { is_active: false })
    assert.equal(await found(off.name, { date: tomorrow }), undefined)
    const hidden = await venueWithCourt({ verification_status: 'pending' })
    assert.equal(await found(hidden.name, { date: tomorrow }), undefined)
    const futsal = await venueWithCourt()
    assert.ok(await found(futsal.name, { date: tomorrow, sport: 'futsal' }))
    assert.equal(await found(futsal.name, { date: tomorrow, sport: 'chess' }), undefined)
  })
})

describe('indoor games', () => {
  test("a game's sessions are found by its type, at its price", async () => {
    const name = `Free Time Lounge ${++seq}`
    const venue = await createVenue(app, ownerId, { name })
    const game = await createIndoorGame(app, venue.id, {
      name: 'PS5 Station',
      game_type: 'playstation',
      price_per_hour: 40000,
    })
    const v = await found(name, { date: tomorrow, from: '20:00', sport: 'playstation' })
    assert.deepEqual(v?.free_slots, [
      {
        court_id: null,
        indoor_game_id: game.id,
        name: 'PS5 Station',
        date: tomorrow,
        start_time: '20:00',
        end_time: '21:00',
        price: '400.00',
      },
      {
        court_id: null,
        indoor_game_id: game.id,
        name: 'PS5 Station',
        date: tomorrow,
        start_time: '21:00',
        end_time: '22:00',
        price: '400.00',
      },
    ])
    await app.ctx.db
      .insertInto('indoor_game_bookings')
      .values({
        booking_number: `IG-FT-${++seq}`,
        venue_id: venue.id,
        tenant_id: ownerId,
        indoor_game_id: game.id,
        customer_name: 'Walk-in',
        date: tomorrow,
        start_time: '20:00',
        end_time: '21:00',
        base_amount: 40000,
        total_amount: 40000,
        status: 'confirmed',
      })
      .execute()
    assert.deepEqual(times(await found(name, { date: tomorrow, from: '20:00', sport: 'playstation' })), ['21:00-22:00'])
    assert.equal(await found(name, { date: tomorrow, from: '20:00', sport: 'futsal' }), undefined)
  })
})

describe('sorting, paging and nearby', () => {
  test('soonest first, then nearer; the total counts venues with a free start', async () => {
    // Far in the west, so only these three are within 5 km.
    const at = { latitude: 28.9, longitude: 80.6 }
    const late = await venueWithCourt({ ...at })
    const early = await venueWithCourt({ latitude: 28.91, longitude: 80.6 })
    const full = await venueWithCourt({ latitude: 28.905, longitude: 80.6 })
    await insertBooking(late.venue.id, late.court.id, tomorrow, '18:00', '19:00')
    await insertBooking(full.venue.id, full.court.id, tomorrow, '18:00', '21:00')
    const near = { lat: at.latitude, lng: at.longitude, radius: 5, date: tomorrow, from: '18:00', to: '21:00' }
    const soonest = await search({ ...near, sort: 'soonest' })
    assert.equal(soonest.status, 200)
    assert.deepEqual(
      soonest.body.data.map((v) => [v.name, v.free_slots?.[0]?.start_time]),
      [
        [early.name, '18:00'],
        [late.name, '19:00'],
      ],
    )
    assert.equal(soonest.body.meta.total, 2)
    const byDistance = await search({ ...near, sort: 'distance' })
    assert.deepEqual(
      byDistance.body.data.map((v) => v.name),
      [late.name, early.name],
    )
    const second = await search({ ...near, sort: 'soonest', per_page: 1, page: 2 })
    assert.deepEqual(
      second.body.data.map((v) => v.name),
      [late.name],
    )
    assert.equal(second.body.meta.total, 2)
    const beyond = await search({ ...near, per_page: 1, page: 9 })
    assert.deepEqual(beyond.body.data, [])
    assert.equal(beyond.body.meta.total, 2)
    const nearby = await app.inject({
      method: 'GET',
      url: `/api/venues/nearby?latitude=${at.latitude}&longitude=${at.longitude}&radius=5&date=${tomorrow}&from=18:00&to=19:00`,
    })
    assert.equal(nearby.statusCode, 200)
    assert.deepEqual(
      nearby.json().data.map((v: Item) => [v.name, times(v)]),
      [[early.name, ['18:00-19:00']]],
    )
  })

  test('list items carry rating, reviews_count and min_price without a date', async () => {
    const { venue, name } = await venueWithCourt({}, { price_per_hour: 180000 })
    await app.ctx.db
      .updateTable('venues')
      .set({ reviews_avg_rating: '4.25', reviews_count: 8 })
      .where('id', '=', venue.id)
      .execute()
    const v = await found(name, {})
    assert.equal(v?.rating, 4.3)
    assert.equal(v?.reviews_count, 8)
    assert.equal(v?.min_price, '1800.00')
    const shown = await app.inject({ method: 'GET', url: `/api/venues/${venue.slug}` })
    assert.equal(shown.json().data.min_price, '1800.00')
  })
})

describe('validation', () => {
  test('422 for a past date, an empty window, a window without a date and a bad duration', async () => {
    const cases: Array<[Record<string, string | number>, string]> = [
      [{ date: daysFromFixedNow(-1) }, 'date'],
      [{ date: 'tomorrow' }, 'date'],
      [{ date: tomorrow, from: '20:00', to: '18:00' }, 'to'],
      [{ date: tomorrow, from: '25:00' }, 'from'],
      [{ from: '18:00' }, 'date'],
      [{ duration: 60 }, 'date'],
      [{ date: tomorrow, duration: 5 }, 'duration'],
      [{ date: tomorrow, duration: 'long' }, 'duration'],
    ]
    for (const [query, field] of cases) {
      const { status, body } = await search(query)
      assert.equal(status, 422, JSON.stringify(query))
      assert.ok((body as unknown as { errors: Record<string, string[]> }).errors[field], JSON.stringify(body))
    }
    // soonest without a date is Recommended.
    assert.equal((await search({ sort: 'soonest' })).status, 200)
  })
})

describe('with the read cache on: what the search keeps between requests', () => {
  test('a booking, a block, a schedule and a new court reach the next search', async () => {
    const cached = await build(undefined, { CACHE_TTL_MS: '600000' }, { clock })
    try {
      await heardAll(cached)
      assert.equal(cached.ctx.cache.enabled, true)
      const owner = await createUser(cached, { roles: ['venue_owner'] })
      const name = 'Cached Free Time Arena'
      const venue = await createVenue(cached, owner.id, { name })
      const court = await createCourt(cached, venue.id, { name: 'Court A' })
      const ask = async () => {
        const res = await cached.inject({
          method: 'GET',
          url: `/api/venues?search=${encodeURIComponent(name)}&date=${tomorrow}&from=18:00&to=21:00`,
        })
        assert.equal(res.statusCode, 200)
        return times(res.json().data[0])
      }
      assert.deepEqual(await ask(), ['18:00-19:00', '19:00-20:00', '20:00-21:00'])
      // Served again from memory: the same answer.
      assert.deepEqual(await ask(), ['18:00-19:00', '19:00-20:00', '20:00-21:00'])
      await cached.ctx.db
        .insertInto('bookings')
        .values({
          booking_number: 'BK-FT-CACHED',
          venue_id: venue.id,
          court_id: court.id,
          customer_name: 'Walk-in',
          date: tomorrow,
          start_time: '19:00',
          end_time: '20:00',
          base_amount: 150000,
          total_amount: 150000,
          status: 'confirmed',
        })
        .execute()
      await heardAll(cached)
      assert.deepEqual(await ask(), ['18:00-19:00', '20:00-21:00'])
      await cached.ctx.db
        .insertInto('court_blocks')
        .values({ court_id: court.id, date: tomorrow, start_time: '18:00', end_time: '19:00', reason: 'Repairs' })
        .execute()
      await heardAll(cached)
      assert.deepEqual(await ask(), ['20:00-21:00'])
      const dow = new Date(`${tomorrow}T00:00:00Z`).getUTCDay()
      await cached.ctx.db
        .insertInto('court_schedules')
        .values({ court_id: court.id, day_of_week: dow, open_time: '06:00', close_time: '20:00' })
        .execute()
      await heardAll(cached)
      assert.equal(await ask(), undefined)
      await createCourt(cached, venue.id, { name: 'Court B' })
      await heardAll(cached)
      assert.deepEqual(await ask(), ['18:00-19:00', '19:00-20:00', '20:00-21:00'])
      // A hold takes Court B's 18:00 until it runs out; the kept search ends with it, with no change announced.
      const courtB = await cached.ctx.db
        .selectFrom('courts')
        .select('id')
        .where('venue_id', '=', venue.id)
        .where('name', '=', 'Court B')
        .executeTakeFirstOrThrow()
      const holdEnds = Date.parse(FIXED_NOW) + 5 * 60_000
      await cached.ctx.db
        .insertInto('bookings')
        .values({
          booking_number: 'BK-FT-HOLD',
          venue_id: venue.id,
          court_id: courtB.id,
          customer_name: 'Walk-in',
          date: tomorrow,
          start_time: '18:00',
          end_time: '19:00',
          base_amount: 150000,
          total_amount: 150000,
          status: 'pending',
          hold_expires_at: new Date(holdEnds),
        })
        .execute()
      await heardAll(cached)
      assert.deepEqual(await ask(), ['19:00-20:00', '20:00-21:00'])
      clock.set(new Date(holdEnds + 1000))
      try {
        assert.deepEqual(await ask(), ['18:00-19:00', '19:00-20:00', '20:00-21:00'])
      } finally {
        clock.set(FIXED_NOW)
      }
      // Today at 09:00 the 09:00 slot is free. When the minute has passed, the next search may still
      // answer with the kept result while it is worked out again; the ones after it no longer show 09:00.
      const morning = async () => {
        const res = await cached.inject({
          method: 'GET',
          url: `/api/venues?search=${encodeURIComponent(name)}&date=${today}&from=09:00&to=10:00`,
        })
        return times(res.json().data[0])
      }
      // Both courts.
      assert.deepEqual(await morning(), ['09:00-10:00', '09:00-10:00'])
      clock.set(new Date(Date.parse(FIXED_NOW) + 70_000))
      try {
        const first = await morning()
        assert.ok(first === undefined || first.join() === '09:00-10:00,09:00-10:00', String(first))
        let later = first
        for (let i = 0; i < 50 && later !== undefined; i++) {
          await new Promise((r) => setTimeout(r, 20))
          later = await morning()
        }
        assert.equal(later, undefined, 'the 09:00 slot has started: the venue has no start left before 10:00')
      } finally {
        clock.set(FIXED_NOW)
      }
    } finally {
      await cached.close()
    }
  })
})
