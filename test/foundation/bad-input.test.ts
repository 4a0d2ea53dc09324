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
  type TestUser,
} from '../helpers/factories.ts'

// Inputs the schemas and the error handler must refuse with the contract's bodies rather than a
// 500 (or, worse, store as something else): impossible calendar dates, amounts beyond the money
// maximum, text PostgreSQL cannot store, and path segments that cannot name anything.

let app: App
let owner: TestUser
let customer: TestUser
let venue: Awaited<ReturnType<typeof createVenue>>
let court: Awaited<ReturnType<typeof createCourt>>
let game: Awaited<ReturnType<typeof createIndoorGame>>

before(async () => {
  app = await build(undefined, {}, { clock: new ManualClock(FIXED_NOW) })
  owner = await createUser(app, { roles: ['venue_owner'] })
  customer = await createUser(app)
  venue = await createVenue(app, owner.id)
  court = await createCourt(app, venue.id)
  game = await createIndoorGame(app, venue.id)
})
after(() => app.close())

const send = (method: string, url: string, who?: TestUser, payload?: unknown) =>
  app.inject({ method: method as 'GET', url, headers: who?.headers, payload: payload as object })

const count = async (table: 'bookings' | 'venue_holidays' | 'court_blocks' | 'coupons' | 'tournaments' | 'courts') =>
  Number(
    (
      await app.ctx.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  )

function assertInvalid(res: { statusCode: number; body: string }, field: string, where: string) {
  assert.equal(res.statusCode, 422, `${where}: ${res.body}`)
  const body = JSON.parse(res.body)
  assert.equal(body.message, 'The given data was invalid.', where)
  assert.ok(Array.isArray(body.errors?.[field]), `${where}: no errors.${field} in ${res.body}`)
}

const IMPOSSIBLE = ['2027-13-01', '2027-02-30', '2026-02-29']

test('impossible calendar dates are 422 wherever a date is accepted, and nothing is stored', async () => {
  const tables = ['bookings', 'venue_holidays', 'court_blocks', 'coupons', 'tournaments'] as const
  const before = await Promise.all(tables.map(count))
  for (const date of IMPOSSIBLE) {
    assertInvalid(await send('GET', `/api/courts/${court.id}/availability?date=${date}`), 'date', date)
    assertInvalid(await send('GET', `/api/indoor-games/${game.id}/availability?date=${date}`), 'date', date)
    assertInvalid(await send('GET', `/api/bookings?date=${date}`, customer), 'date', date)
    assertInvalid(await send('GET', `/api/venues/${venue.id}/bookings?date=${date}`, owner), 'date', date)
    assertInvalid(await send('GET', `/api/courts/${court.id}/blocks?date=${date}`, owner), 'date', date)
    const slot = { date, start_time: '10:00', end_time: '11:00' }
    assertInvalid(await send('POST', '/api/bookings', customer, { court_id: court.id, ...slot }), 'date', date)
    assertInvalid(
      await send('POST', '/api/indoor-game-bookings', customer, { indoor_game_id: game.id, ...slot }),
      'date',
      date,
    )
    assertInvalid(await send('POST', `/api/courts/${court.id}/blocks`, owner, slot), 'date', date)
    assertInvalid(await send('POST', `/api/venues/${venue.id}/holidays`, owner, { date, name: 'Tihar' }), 'date', date)
    const tournament = {
      venue_id: venue.id,
      name: 'Cup',
      format: 'league',
      sport_type: 'futsal',
      max_teams: 4,
      starts_at: date,
      ends_at: daysFromFixedNow(40),
    }
    assertInvalid(await send('POST', '/api/tournaments', owner, tournament), 'starts_at', date)
    // Coupons take a date with an optional time; a bare 2027-02-30 used to be stored as March 2.
    for (const [field, value] of [
      ['starts_at', date],
      ['expires_at', `${date} 18:00`],
    ]) {
      const coupon = { code: 'DATES1', type: 'fixed', value: 100, [field]: value }
      assertInvalid(await send('POST', `/api/venues/${venue.id}/coupons`, owner, coupon), field, `${field} ${value}`)
    }
  }
  assert.deepEqual(await Promise.all(tables.map(count)), before)
  // A real leap day is a date.
  const leap = await send('POST', `/api/venues/${venue.id}/coupons`, owner, {
    code: 'LEAP28',
    type: 'fixed',
    value: 100,
    starts_at: '2028-02-29',
    expires_at: '2028-02-29 23:00',
  })
  assert.equal(leap.statusCode, 201, leap.body)
  assert.equal(leap.json().data.starts_at, '2028-02-29 00:00:00')
})

// Real days, but outside the years a request date may name (1900–2200): the Nepali calendar and
// Intl could not handle 0999, and a report over it was a 500 (RangeError).
const OUT_OF_RANGE = ['0999-06-01', '1899-12-31', '2201-01-01']

test('dates outside 1900–2200 are 422 on reports, statements, the cash-up and bookings, never a 500', async () => {
  const day = daysFromFixedNow(1)
  for (const date of OUT_OF_RANGE) {
    const base = `/api/venues/${venue.id}`
    for (const [url, field] of [
      [`${base}/reports/summary?from=${date}&to=${day}`, 'from'],
      [`${base}/reports/summary?from=${day}&to=${date}`, 'to'],
      [`${base}/reports/bookings.csv?from=${date}&to=${day}`, 'from'],
      [`${base}/reports/payments.csv?from=${day}&to=${date}`, 'to'],
      [`${base}/statement?from=${date}&to=${day}`, 'from'],
      [`${base}/cash-up?date=${date}`, 'date'],
      [`/api/courts/${court.id}/availability?date=${date}`, 'date'],
      [`/api/bookings?date=${date}`, 'date'],
    ] as const) {
      assertInvalid(await send('GET', url, url.startsWith('/api/bookings') ? customer : owner), field, url)
    }
    assertInvalid(await send('POST', `${base}/cash-up`, owner, { date, counted_cash: '0.00' }), 'date', date)
    const slot = { court_id: court.id, date, start_time: '10:00', end_time: '11:00' }
    assertInvalid(await send('POST', '/api/bookings', customer, slot), 'date', date)
    const coupon = { code: 'YEARS1', type: 'fixed', value: 100, expires_at: `${date} 18:00` }
    assertInvalid(await send('POST', `${base}/coupons`, owner, coupon), 'expires_at', date)
  }
  // The first and last years are dates.
  for (const date of ['1900-01-01', '2200-12-31']) {
    const res = await send('GET', `/api/venues/${venue.id}/reports/summary?from=${date}&to=${date}`, owner)
    assert.equal(res.statusCode, 200, `${date}: ${res.body}`)
  }
})

test('money beyond 10,000,000.00 is 422 on every money input, not a 500 from the converter', async () => {
  const before = await Promise.all([count('courts'), count('coupons'), count('tournaments')])
  for (const amount of [1e21, 1e308, 10_000_000.01, '10000000.01', '99999999', '1e21']) {
    assertInvalid(
      await send('POST', '/api/wallet/topup', customer, { amount, method: 'gateway_1' }),
      'amount',
      `${amount}`,
    )
    const courtBody = { name: 'Big', sport_id: 1, capacity: 10, slot_minutes: 60, price_per_hour: amount }
    assertInvalid(await send('POST', `/api/venues/${venue.id}/courts`, owner, courtBody), 'price_per_hour', `${amount}`)
    const coupon = { code: 'HUGE1', type: 'fixed', value: 100, min_amount: amount }
    assertInvalid(await send('POST', `/api/venues/${venue.id}/coupons`, owner, coupon), 'min_amount', `${amount}`)
    assertInvalid(
      await send('PATCH', `/api/indoor-games/${game.id}`, owner, { price_per_hour: amount }),
      'price_per_hour',
      `${amount}`,
    )
  }
  assert.deepEqual(await Promise.all([count('courts'), count('coupons'), count('tournaments')]), before)
  // The maximum itself is an amount.
  for (const price of [10_000_000, '10000000.00']) {
    const res = await send('POST', `/api/venues/${venue.id}/courts`, owner, {
      name: `Top ${price}`,
      sport_id: 1,
      capacity: 10,
      slot_minutes: 60,
      price_per_hour: price,
    })
    assert.equal(res.statusCode, 201, res.body)
    assert.equal(res.json().data.price_per_hour, '10000000.00')
  }
})

test('a NUL byte in a body field, a query or a path is a 4xx with the contract body, never a 500', async () => {
  const before = await count('courts')
  const nul = 'a\u0000b'
  const body = { name: nul, sport_id: 1, capacity: 10, slot_minutes: 60, price_per_hour: 100 }
  const created = await send('POST', `/api/venues/${venue.id}/courts`, owner, body)
  assert.equal(created.statusCode, 422, created.body)
  assert.deepEqual(Object.keys(created.json()).sort(), ['errors', 'message'])
  assert.equal(await count('courts'), before)

  const renamed = await send('PATCH', `/api/indoor-games/${game.id}`, owner, { name: nul })
  assert.equal(renamed.statusCode, 422, renamed.body)
  const row = await app.ctx.db
    .selectFrom('indoor_games')
    .select('name')
    .where('id', '=', game.id)
    .executeTakeFirstOrThrow()
  assert.equal(row.name, game.name)

  const device = await send('PUT', '/api/notifications/device-token', customer, { token: '\u0000' })
  assert.equal(device.statusCode, 422, device.body)

  const search = await send('GET', '/api/venues?sport=%00')
  assert.ok(search.statusCode >= 400 && search.statusCode < 500, search.body)
  assert.equal(typeof search.json().message, 'string')

  for (const url of [`/api/venues/${venue.id}%00/coupons`, `/api/venues/${venue.id}%00/bookings`]) {
    const res = await send('GET', url, owner)
    assert.equal(res.statusCode, 404, `${url}: ${res.body}`)
    assert.deepEqual(res.json(), { message: 'Not found.' })
  }
})

test('path segments that cannot name a resource are 404 with the contract body', async () => {
  const urls = [
    `/api/courts/%ED%A0%80`, // a lone surrogate, percent-encoded: not valid UTF-8
    `/api/venues/%F0%9F`, // a truncated UTF-8 sequence
    `/api/courts/${'9'.repeat(500)}`, // longer than any id or slug
    `/api/courts/0x${court.id.toString(16)}`,
    `/api/courts/${court.id}e0`,
    `/api/venues/${venue.id}.0/reviews`,
    '/api/notifications/not-a-uuid/read',
  ]
  for (const url of urls) {
    const res = await send(url.includes('notifications') ? 'PATCH' : 'GET', url, customer)
    assert.equal(res.statusCode, 404, `${url}: ${res.body}`)
    assert.deepEqual(res.json(), { message: 'Not found.' }, url)
  }
  // Amenity and sport ids are int4: one beyond it is simply unknown.
  const admin = await createUser(app, { roles: ['super_admin'] })
  for (const id of ['2147483648', '0x1', '1e0', '0']) {
    const res = await send('PUT', `/api/admin/sports/${id}`, admin, { name: 'Padel' })
    assert.equal(res.statusCode, 404, `${id}: ${res.body}`)
  }
})
