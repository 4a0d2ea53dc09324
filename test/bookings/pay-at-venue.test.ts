import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { build } from '../helpers/app.ts'
import { createIndoorGame, type TestUser } from '../helpers/factories.ts'
import { book, type World, world } from './helpers.ts'

// Issue 34: a venue's allows_pay_at_venue setting (docs/bookings.md, "Booking rules"). Off, a
// customer may not choose to pay at the venue (cash), at booking or later; the desk is unaffected.
// Every test runs on a ManualClock: Wednesday 10 March 2027, 18:05 in Kathmandu.

const TOMORROW = '2027-03-11'
const OFF_MESSAGE = 'This venue does not take payment at the venue: pay online (eSewa, Khalti, Fonepay or your wallet).'

async function setup(t: Parameters<typeof build>[0]) {
  const clock = new ManualClock('2027-03-10T12:20:00Z')
  const app = await build(t, { MAX_UNPAID_BOOKINGS: '100' }, { clock })
  const w = await world(app, { wallet: 1_000_000 })
  const game = await createIndoorGame(app, w.venue.id, { price_per_hour: 30000 })
  return { app, w, game }
}

function patchVenue(app: App, user: TestUser, venue: number | string, payload: Record<string, unknown>) {
  return app.inject({ method: 'PATCH', url: `/api/venues/${venue}`, headers: user.headers, payload })
}

function initiate(app: App, user: TestUser, payload: Record<string, unknown>) {
  return app.inject({ method: 'POST', url: '/api/payments/initiate', headers: user.headers, payload })
}

function bookIndoor(app: App, user: TestUser, gameId: number, start: string, end: string) {
  return app.inject({
    method: 'POST',
    url: '/api/indoor-game-bookings',
    headers: user.headers,
    payload: { indoor_game_id: gameId, date: TOMORROW, start_time: start, end_time: end },
  })
}

const court = (w: World, start: string, end: string, extra: Record<string, unknown> = {}) => ({
  court_id: w.court.id,
  date: TOMORROW,
  start_time: start,
  end_time: end,
  ...extra,
})

test('allows_pay_at_venue: shown on the venue (true by default); owner and manager set it, booleans only', async (t) => {
  const { app, w } = await setup(t)
  const shown = await app.inject({ method: 'GET', url: `/api/venues/${w.venue.slug}` })
  assert.equal(shown.statusCode, 200, shown.body)
  assert.equal(shown.json().data.allows_pay_at_venue, true)

  // Staff and customers may not change it; a wrong type is 422, never coerced.
  assert.equal((await patchVenue(app, w.staff, w.venue.id, { allows_pay_at_venue: false })).statusCode, 403)
  assert.equal((await patchVenue(app, w.customer, w.venue.id, { allows_pay_at_venue: false })).statusCode, 403)
  for (const wrong of ['false', 0, null, 'no']) {
    const res = await patchVenue(app, w.owner, w.venue.id, { allows_pay_at_venue: wrong })
    assert.equal(res.statusCode, 422, `${JSON.stringify(wrong)}: ${res.body}`)
    assert.ok(res.json().errors.allows_pay_at_venue, res.body)
  }
  const still = await app.inject({ method: 'GET', url: `/api/venues/${w.venue.id}` })
  assert.equal(still.json().data.allows_pay_at_venue, true)

  const off = await patchVenue(app, w.manager, w.venue.id, { allows_pay_at_venue: false })
  assert.equal(off.statusCode, 200, off.body)
  assert.equal(off.json().data.allows_pay_at_venue, false)
  const afterOff = await app.inject({ method: 'GET', url: `/api/venues/${w.venue.slug}` })
  assert.equal(afterOff.json().data.allows_pay_at_venue, false)
  const mine = await app.inject({ method: 'GET', url: '/api/venues/my-venues', headers: w.owner.headers })
  assert.equal(mine.statusCode, 200, mine.body)
  assert.equal(
    mine.json().find((v: { id: number }) => v.id === w.venue.id).allows_pay_at_venue,
    false,
    'my-venues shows it',
  )

  const on = await patchVenue(app, w.owner, w.venue.id, { allows_pay_at_venue: true })
  assert.equal(on.statusCode, 200, on.body)
  assert.equal(on.json().data.allows_pay_at_venue, true)
})

test('turned off: a customer cannot choose to pay at the venue (court, series, indoor); online payment and the desk go on', async (t) => {
  const { app, w, game } = await setup(t)
  // Before: paying at the venue is offered.
  const before = await book(app, w.customer, court(w, '08:00', '09:00', { payment_method: 'cash' }))
  assert.equal(before.statusCode, 201, before.body)
  // A booking held online before the venue turned it off.
  const held = await book(app, w.customer, court(w, '09:00', '10:00'))
  assert.equal(held.statusCode, 201, held.body)
  const heldIndoor = await bookIndoor(app, w.customer, game.id, '09:00', '10:00')
  assert.equal(heldIndoor.statusCode, 201, heldIndoor.body)

  assert.equal((await patchVenue(app, w.owner, w.venue.id, { allows_pay_at_venue: false })).statusCode, 200)

  // A court booking with payment_method cash: 422 under payment_method, nothing written.
  const count = async () =>
    Number(
      (
        await app.ctx.db
          .selectFrom('bookings')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('venue_id', '=', w.venue.id)
          .executeTakeFirstOrThrow()
      ).n,
    )
  const n = await count()
  const cash = await book(app, w.customer, court(w, '10:00', '11:00', { payment_method: 'cash' }))
  assert.equal(cash.statusCode, 422, cash.body)
  assert.equal(cash.json().message, OFF_MESSAGE)
  assert.deepEqual(cash.json().errors.payment_method, [OFF_MESSAGE])
  // A series choosing cash alike.
  const series = await app.inject({
    method: 'POST',
    url: '/api/bookings/series',
    headers: w.customer.headers,
    payload: {
      court_id: w.court.id,
      start_date: '2027-03-14',
      start_time: '12:00',
      end_time: '13:00',
      weeks: 2,
      payment_method: 'cash',
    },
  })
  assert.equal(series.statusCode, 422, series.body)
  assert.deepEqual(series.json().errors.payment_method, [OFF_MESSAGE])
  assert.equal(await count(), n)

  // Choosing cash later: 422 under method, court and indoor; the hold is unchanged.
  const courtCash = await initiate(app, w.customer, { booking_id: held.json().data.id, method: 'cash' })
  assert.equal(courtCash.statusCode, 422, courtCash.body)
  assert.deepEqual(courtCash.json().errors.method, [OFF_MESSAGE])
  const indoorCash = await initiate(app, w.customer, {
    booking_type: 'indoor',
    booking_id: heldIndoor.json().data.id,
    method: 'cash',
  })
  assert.equal(indoorCash.statusCode, 422, indoorCash.body)
  assert.deepEqual(indoorCash.json().errors.method, [OFF_MESSAGE])
  const row = await app.ctx.db
    .selectFrom('bookings')
    .select(['payment_method'])
    .where('id', '=', held.json().data.id)
    .executeTakeFirstOrThrow()
  assert.equal(row.payment_method, null)

  // Online payment goes through: a booking with a gateway method, and the wallet.
  const online = await book(app, w.customer, court(w, '10:00', '11:00', { payment_method: 'gateway_1' }))
  assert.equal(online.statusCode, 201, online.body)
  const wallet = await initiate(app, w.customer, { booking_id: held.json().data.id, method: 'wallet' })
  assert.equal(wallet.statusCode, 200, wallet.body)
  assert.equal(wallet.json().data.booking.status, 'confirmed', wallet.body)

  // The desk is unaffected: a desk booking and its cash payment at the counter, and a desk series.
  const desk = await app.inject({
    method: 'POST',
    url: `/api/venues/${w.venue.id}/bookings`,
    headers: w.staff.headers,
    payload: { ...court(w, '15:00', '16:00'), customer_name: 'Phone customer' },
  })
  assert.equal(desk.statusCode, 201, desk.body)
  const deskPaid = await app.inject({
    method: 'POST',
    url: `/api/bookings/${desk.json().data.id}/payments`,
    headers: w.staff.headers,
    payload: { amount: 1500, method: 'cash' },
  })
  assert.equal(deskPaid.statusCode, 201, deskPaid.body)
  assert.equal(deskPaid.json().data.status, 'confirmed', deskPaid.body)
  const deskSeries = await app.inject({
    method: 'POST',
    url: `/api/venues/${w.venue.id}/bookings/series`,
    headers: w.staff.headers,
    payload: {
      court_id: w.court.id,
      start_date: '2027-03-14',
      start_time: '12:00',
      end_time: '13:00',
      weeks: 2,
      customer_name: 'League team',
    },
  })
  assert.equal(deskSeries.statusCode, 201, deskSeries.body)

  // The booking made before stays as it is, and staff take its cash at the desk.
  const earlier = await app.inject({
    method: 'POST',
    url: `/api/bookings/${before.json().data.id}/payments`,
    headers: w.staff.headers,
    payload: { amount: 1500, method: 'cash' },
  })
  assert.equal(earlier.statusCode, 201, earlier.body)

  // Turned on again: cash is accepted once more.
  assert.equal((await patchVenue(app, w.manager, w.venue.id, { allows_pay_at_venue: true })).statusCode, 200)
  const again = await initiate(app, w.customer, {
    booking_type: 'indoor',
    booking_id: heldIndoor.json().data.id,
    method: 'cash',
  })
  assert.equal(again.statusCode, 200, again.body)
  assert.equal(again.json().data.booking.status, 'pending')
})
