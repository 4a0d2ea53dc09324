import assert from 'node:assert/strict'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { addDays } from '../../src/lib/time.ts'
import { Zone } from '../../src/lib/zone.ts'
import type { TestUser } from '../helpers/factories.ts'
import { payAtDeskByQr, simulate } from '../payments/helpers.ts'

// Reports tests run on a ManualClock at noon (venue time) of a fixed day, so no test reads the real
// date: bookings are made for days after it, and money moves on it unless a test moves the clock.

export const zone = new Zone('Asia/Kathmandu')
/** A Tuesday. */
export const TODAY = '2031-05-06'
export const day = (n: number) => addDays(TODAY, n)

export function noonClock(date = TODAY) {
  return new ManualClock(zone.instant(date, '12:00'))
}

export function call(
  app: App,
  method: 'GET' | 'POST' | 'PATCH' | 'PUT',
  url: string,
  user?: TestUser,
  payload?: object,
) {
  return app.inject({ method, url, headers: user?.headers, payload })
}

/** A customer's court booking for `date`, 201 expected; its id. */
export async function bookCourt(
  app: App,
  user: TestUser,
  courtId: number,
  date: string,
  start = '10:00',
  end = '11:00',
) {
  const res = await call(app, 'POST', '/api/bookings', user, {
    court_id: courtId,
    date,
    start_time: start,
    end_time: end,
  })
  assert.equal(res.statusCode, 201, res.body)
  return res.json().data.id as number
}

/** Pays a customer's booking online (wallet, or a sandbox gateway paid in full); the payment id. */
export async function payOnline(
  app: App,
  user: TestUser,
  bookingId: number,
  method: 'wallet' | 'gateway_1' | 'gateway_2' | 'gateway_3',
) {
  const init = await call(app, 'POST', '/api/payments/initiate', user, { booking_id: bookingId, method })
  assert.ok(init.statusCode < 300, init.body)
  if (method !== 'wallet') {
    const back = await app.inject({ method: 'GET', url: await simulate(app, init.json().data.payment_url, 'success') })
    assert.equal(back.statusCode, 200, back.body)
  }
  const booking = (await call(app, 'GET', `/api/bookings/${bookingId}`, user)).json().data
  const payment = booking.payments.find((p: { method: string; status: string }) => p.method === method)
  assert.ok(payment, JSON.stringify(booking.payments))
  return payment.id as number
}

/** Staff take a desk payment on a court booking; the payment id. */
export async function payAtDesk(
  app: App,
  staff: TestUser,
  bookingId: number,
  amount: string,
  method: 'cash' | 'gateway_1' | 'gateway_2' | 'gateway_3' = 'cash',
  kind: 'court' | 'indoor' = 'court',
) {
  if (method !== 'cash') {
    // Gateway money at the desk: a QR the customer pays, counted when the gateway confirms it.
    const { intent, callback } = await payAtDeskByQr(app, staff, { kind, id: bookingId }, amount, method)
    assert.ok([200, 302].includes(callback.statusCode), callback.body)
    return intent.payment.id
  }
  const url =
    kind === 'court' ? `/api/bookings/${bookingId}/payments` : `/api/indoor-game-bookings/${bookingId}/payments`
  const res = await call(app, 'POST', url, staff, { method, amount })
  assert.equal(res.statusCode, 201, res.body)
  const payments = res.json().data.payments as { id: number }[]
  return payments[payments.length - 1].id
}

/** The venue's revenue straight from the ledger for [start, end): online payment and refund lines on its balance, and its desk sales. */
export async function ledgerNet(app: App, venueId: number, start: Date, end: Date): Promise<number> {
  const rows = await app.ctx.db
    .selectFrom('ledger_lines as l')
    .innerJoin('ledger_entries as e', 'e.id', 'l.entry_id')
    .select(['l.account', 'l.amount', 'e.kind'])
    .where('l.account', 'in', [`venue:${venueId}:balance`, `venue:${venueId}:desk_sales`])
    .where('e.occurred_at', '>=', start)
    .where('e.occurred_at', '<', end)
    .execute()
  const online = [
    'gateway_payment',
    'wallet_payment',
    'platform_discount',
    'refund_to_wallet',
    'refund_to_source',
    'venue_credit',
  ]
  return rows
    .filter((r) => r.account.endsWith(':desk_sales') || online.includes(r.kind))
    .reduce((sum, r) => sum - Number(r.amount), 0)
}
