import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { checkLedger } from '../../src/modules/ledger/index.ts'
import { lockShares, payTakenShares, releaseShare, sharesOf, splitBooking } from '../../src/modules/splits/index.ts'
import { build } from '../helpers/app.ts'
import { createIndoorGame, createUser, createVenue, daysFromFixedNow, FIXED_NOW } from '../helpers/factories.ts'
import { insertBooking, ledger, simulate } from '../payments/helpers.ts'
import { bookingState, payShare, split, splitWorld } from './helpers.ts'

// The service open matches build on, called inside a transaction: an indoor booking split, a share
// paid as a given player, and a paid share released (the player left): refunded to its payer the
// way it came, the spot unpaid again with no payer. ManualClock at FIXED_NOW.
let app: App
before(async () => {
  app = await build(undefined, {}, { clock: new ManualClock(FIXED_NOW) })
})
after(() => app.close())

test('an indoor booking split and paid through the service, inside the caller’s transaction', async () => {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const venue = await createVenue(app, owner.id)
  const game = await createIndoorGame(app, venue.id)
  const organizer = await createUser(app)
  const player = await createUser(app, { wallet: 40000 })
  const booking = await insertBooking(app, {
    userId: organizer.id,
    venueId: venue.id,
    indoorGameId: game.id,
    total: 90001,
    date: daysFromFixedNow(3),
    start: '17:00',
    end: '18:00',
  })
  const { ctx } = app
  const view = await ctx.db
    .transaction()
    .execute((trx) =>
      splitBooking(ctx, trx, { kind: 'indoor', bookingId: booking.id, organizerId: organizer.id, shares: 3 }),
    )
  assert.deepEqual(
    view.shares.map((s) => s.amount),
    ['300.01', '300.00', '300.00'],
  )
  const second = view.shares[1].id
  const started = await ctx.db.transaction().execute(async (trx) => {
    const splitId = (
      await trx.selectFrom('booking_shares').select('split_id').where('id', '=', second).executeTakeFirstOrThrow()
    ).split_id
    const taken = await lockShares(ctx, trx, splitId, (all) => all.filter((s) => s.id === second))
    return payTakenShares(ctx, trx, taken, player.id, 'wallet', null)
  })
  assert.equal(started.kind, 'wallet')
  assert.equal(started.booking.paid_amount, 30000)
  const after = await sharesOf(ctx, ctx.db, 'indoor', booking.id)
  assert.deepEqual(after?.shares[1].payer, { id: player.id, name: (await nameOf(player.id)) ?? '' })

  const refunded = await ctx.db.transaction().execute((trx) => releaseShare(ctx, trx, second))
  assert.equal(refunded, 30000)
  assert.equal((await ledger(app, player.id)).balance, 40000)
  const released = await sharesOf(ctx, ctx.db, 'indoor', booking.id)
  assert.equal(released?.shares[1].status, 'unpaid')
  assert.equal(released?.shares[1].payer, null)
  const row = await ctx.db
    .selectFrom('indoor_game_bookings')
    .select(['paid_amount', 'refunded_amount', 'status'])
    .where('id', '=', booking.id)
    .executeTakeFirstOrThrow()
  assert.deepEqual(row, { paid_amount: 0, refunded_amount: 30000, status: 'pending' })
  // Releasing an unpaid share changes nothing.
  assert.equal(await ctx.db.transaction().execute((trx) => releaseShare(ctx, trx, second)), 0)
  assert.deepEqual((await checkLedger(ctx.db)).problems, [])
})

test('a share paid through a gateway and released goes back to the payer’s wallet; the spot can be paid again', async () => {
  const w = await splitWorld(app, { total: 100000 })
  const data = (await split(app, w.organizer, w.booking.id, { shares: 2 })).json().data
  const leaver = await createUser(app)
  const res = await payShare(app, leaver, data.shares[1].pay_url, { method: 'gateway_1' })
  const callback = await simulate(app, res.json().data.payment_url, 'success')
  assert.equal((await app.inject({ method: 'GET', url: callback })).statusCode, 200)
  const { ctx } = app
  await ctx.db.transaction().execute((trx) => releaseShare(ctx, trx, data.shares[1].id))
  assert.equal((await ledger(app, leaver.id)).balance, 50000)
  assert.equal((await bookingState(app, w.booking.id)).paid_amount, 0)
  // A re-split stays refused: money has moved on this split.
  assert.equal((await split(app, w.organizer, w.booking.id, { shares: 3 })).statusCode, 409)
  const next = await createUser(app, { wallet: 50000 })
  const again = await payShare(app, next, data.shares[1].pay_url, { method: 'wallet' })
  assert.equal(again.statusCode, 200, again.body)
  assert.deepEqual((await checkLedger(ctx.db)).problems, [])
})

async function nameOf(id: number) {
  return (await app.ctx.db.selectFrom('users').select('name').where('id', '=', id).executeTakeFirst())?.name
}

test('the desk board shows how many shares of a split booking are paid; staff never see the shares list', async () => {
  const w = await splitWorld(app, { total: 150000 })
  const data = (await split(app, w.organizer, w.booking.id, { shares: 5 })).json().data
  for (const i of [1, 2, 3]) {
    const payer = await createUser(app, { wallet: 30000 })
    assert.equal((await payShare(app, payer, data.shares[i].pay_url, { method: 'wallet' })).statusCode, 200)
  }
  const { date } = await app.ctx.db
    .selectFrom('bookings')
    .select('date')
    .where('id', '=', w.booking.id)
    .executeTakeFirstOrThrow()
  const res = await app.inject({
    method: 'GET',
    url: `/api/venues/${w.venue.id}/board?date=${date}`,
    headers: w.staff.headers,
  })
  assert.equal(res.statusCode, 200, res.body)
  const booking = res
    .json()
    .data.bookings.find((b: { id: number; kind: string }) => b.kind === 'court' && b.id === w.booking.id)
  assert.deepEqual(booking.shares, { paid: 3, total: 5 })
  assert.equal(booking.paid_amount, '900.00')
  const shares = await app.inject({
    method: 'GET',
    url: `/api/bookings/${w.booking.id}/shares`,
    headers: w.staff.headers,
  })
  assert.equal(shares.statusCode, 403)
})
