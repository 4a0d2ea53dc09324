import assert from 'node:assert/strict'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import {
  createCourt,
  createIndoorGame,
  createUser,
  createVenue,
  daysAfter,
  type TestUser,
} from '../helpers/factories.ts'
import { insertBooking, ledger } from './helpers.ts'

// Shared steps of the reconciliation tests (reconcile.test.ts, late-success.test.ts).

export const GATEWAY_LIST = ['gateway_1', 'gateway_2', 'gateway_3'] as const

export function reconcileKit(app: App) {
  let day = 0
  async function setup(opts: { indoor?: boolean } = {}) {
    const owner = await createUser(app, { roles: ['venue_owner'] })
    const venue = await createVenue(app, owner.id)
    const court = await createCourt(app, venue.id)
    const user = await createUser(app)
    // Counted from the app's clock: right whether the app runs on a ManualClock or the system clock.
    const date = daysAfter(app.ctx.clock.now(), 2 + day++)
    const game = opts.indoor ? await createIndoorGame(app, venue.id) : undefined
    const booking = await insertBooking(app, {
      userId: user.id,
      venueId: venue.id,
      courtId: court.id,
      indoorGameId: game?.id,
      total: 120000,
      date,
    })
    return { owner, venue, court, user, booking, date }
  }

  async function startGateway(user: TestUser, bookingId: number, method: string, kind: 'court' | 'indoor' = 'court') {
    const res = await app.inject({
      method: 'POST',
      url: '/api/payments/initiate',
      headers: user.headers,
      payload: { booking_id: bookingId, method, booking_type: kind },
    })
    assert.equal(res.statusCode, 201, res.body)
    return res.json().data as { payment: { id: number }; payment_url: string }
  }

  async function startTopup(user: TestUser, method: string, amount = '500.00') {
    const res = await app.inject({
      method: 'POST',
      url: '/api/wallet/topup',
      headers: user.headers,
      payload: { amount, method },
    })
    assert.equal(res.statusCode, 201, res.body)
    const payment = await app.ctx.db
      .selectFrom('payments')
      .select('id')
      .where('payable_type', '=', 'topup')
      .where('payable_id', '=', res.json().data.id)
      .executeTakeFirstOrThrow()
    return { paymentId: payment.id, transactionId: res.json().data.id as number, payment_url: res.json().payment_url }
  }

  const getPayment = (user: TestUser, id: number) =>
    app.inject({ method: 'GET', url: `/api/payments/${id}`, headers: user.headers })

  const paymentRow = (id: number) =>
    app.ctx.db.selectFrom('payments').selectAll().where('id', '=', id).executeTakeFirstOrThrow()

  /**
   * Lets a booking's hold run out. On a ManualClock time moves on to a minute past the hold's end (the
   * hold sweep asks the app's clock); on the system clock the hold is moved back to a minute ago.
   */
  async function expireHold(kind: 'court' | 'indoor', id: number) {
    const table = kind === 'court' ? 'bookings' : 'indoor_game_bookings'
    const clock = app.ctx.clock
    if (clock instanceof ManualClock) {
      const row = await app.ctx.db
        .selectFrom(table)
        .select('hold_expires_at')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
      assert.ok(row.hold_expires_at, `${kind} booking ${id} has no hold`)
      const end = new Date(row.hold_expires_at).getTime() + 60_000
      if (end > clock.now().getTime()) clock.set(new Date(end))
      return
    }
    await app.ctx.db
      .updateTable(table)
      .set({ hold_expires_at: new Date(clock.now().getTime() - 60_000) })
      .where('id', '=', id)
      .execute()
  }

  async function assertLedgerHolds(userId: number) {
    const l = await ledger(app, userId)
    assert.equal(l.balance, l.sum, 'balance == sum(ledger)')
    return l
  }

  return { setup, startGateway, startTopup, getPayment, paymentRow, expireHold, assertLedgerHolds }
}
