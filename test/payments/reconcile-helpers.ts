import assert from 'node:assert/strict'
import type { App } from '../../src/app.ts'
import {
  createCourt,
  createIndoorGame,
  createUser,
  createVenue,
  daysFromNow,
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
    const date = daysFromNow(2 + day++)
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

  async function expireHold(kind: 'court' | 'indoor', id: number) {
    await app.ctx.db
      .updateTable(kind === 'court' ? 'bookings' : 'indoor_game_bookings')
      .set({ hold_expires_at: new Date(Date.now() - 60_000) })
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
