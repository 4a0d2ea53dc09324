import assert from 'node:assert/strict'
import type { App } from '../../src/app.ts'
import { type CashBack, type LockedBooking, lockBooking, receivePayment } from '../../src/modules/booking-core/index.ts'
import { account, post, transfer } from '../../src/modules/ledger/index.ts'
import type { TestUser } from '../helpers/factories.ts'
import { call } from '../reports/helpers.ts'

// Cash-back fixtures for test/desk/cash-backs*.test.ts: walk-in bookings, desk payments recorded the
// legacy way (a typed gateway reference nobody checked), and cash-backs handed over by the old rule
// (before only the drawer's cash of the booking could be paid out).

/** A cash-back as the API answers it (the service's own resource type). */
export type CashBackView = CashBack

/** A walk-in court booking staff make at the desk for `date`; its id. */
export async function walkIn(
  app: App,
  staff: TestUser,
  venueId: number,
  courtId: number,
  date: string,
  start = '10:00',
) {
  const end = `${String(Number(start.slice(0, 2)) + 1).padStart(2, '0')}:00`
  const res = await call(app, 'POST', `/api/venues/${venueId}/bookings`, staff, {
    court_id: courtId,
    date,
    start_time: start,
    end_time: end,
    type: 'offline',
    customer_name: 'Walk-in Ram',
  })
  assert.equal(res.statusCode, 201, res.body)
  return res.json().data.id as number
}

/** Staff take cash at the desk for a court booking; the payment id. */
export async function takeCash(app: App, staff: TestUser, bookingId: number, amount: string) {
  const res = await call(app, 'POST', `/api/bookings/${bookingId}/payments`, staff, { method: 'cash', amount })
  assert.equal(res.statusCode, 201, res.body)
  const payments = res.json().data.payments as { id: number; method: string }[]
  return payments.filter((p) => p.method === 'cash').at(-1)!.id
}

/**
 * A desk payment as staff recorded gateway money before it had to be verified: a method, an amount and
 * a typed reference nobody checked, as the old desk route wrote it (a desk arrival, the desk account's
 * money) and migration 030 marked it (unverified).
 */
export async function legacyGatewayPayment(
  app: App,
  staff: TestUser,
  bookingId: number,
  amountPaisa: number,
  reference = 'NEVER-RECEIVED-9',
) {
  const id = await app.ctx.db.transaction().execute(async (trx) => {
    const booking = (await lockBooking(trx, 'court', bookingId)) as LockedBooking
    const received = await receivePayment(app.ctx, trx, booking, {
      way: 'desk',
      method: 'cash',
      amount: amountPaisa,
      staffId: staff.id,
    })
    return received.payment.id
  })
  await markTyped(app, id, 'gateway_2', reference)
  return id
}

async function markTyped(app: App, paymentId: number, method: 'cash' | 'gateway_2', reference: string | null) {
  await app.ctx.db
    .updateTable('payments')
    .set({ method, gateway_transaction_id: reference, unverified: method !== 'cash' })
    .where('id', '=', paymentId)
    .execute()
}

/**
 * Runs `step` (a cancel, a refund) on a typed gateway payment as the code before desk QR payments
 * did, which refunded it as a cash-back due at the desk: the cash-backs such payments left behind.
 */
export async function refundedTheOldWay<T>(app: App, paymentId: number, step: () => Promise<T>): Promise<T> {
  const { gateway_transaction_id: reference } = await app.ctx.db
    .selectFrom('payments')
    .select('gateway_transaction_id')
    .where('id', '=', paymentId)
    .executeTakeFirstOrThrow()
  await markTyped(app, paymentId, 'cash', null)
  try {
    return await step()
  } finally {
    await markTyped(app, paymentId, 'gateway_2', reference)
  }
}

/** A due cash-back handed over by the old rule (any cash-back, from the drawer): marked paid, desk account down. */
export async function paidOutTheOldWay(app: App, venueId: number, cashBackId: number, staff: TestUser) {
  const now = app.ctx.clock.now()
  const row = await app.ctx.db
    .updateTable('cash_backs')
    .set({ status: 'paid', paid_by: staff.id, paid_at: now })
    .where('id', '=', cashBackId)
    .returningAll()
    .executeTakeFirstOrThrow()
  await post(app.ctx.db, {
    kind: 'cash_back',
    occurredAt: now,
    description: `Cash-back ${row.id} paid at the desk`,
    paymentId: row.payment_id,
    booking: { kind: 'court', id: row.booking_id },
    venueId,
    userId: row.user_id,
    createdBy: staff.id,
    lines: transfer(account.cashBackDue(venueId), account.venueDesk(venueId), row.amount),
  })
}

/** The venue's cash-backs as `user` sees them (`status` as the list filter). */
export async function cashBacks(app: App, venueId: number, user: TestUser, status = 'due'): Promise<CashBackView[]> {
  const res = await call(app, 'GET', `/api/venues/${venueId}/cash-backs?status=${status}`, user)
  assert.equal(res.statusCode, 200, res.body)
  return res.json().data
}

export const payUrl = (venueId: number, id: number | string) => `/api/venues/${venueId}/cash-backs/${id}/pay`
export const approveUrl = (venueId: number, id: number | string) => `/api/venues/${venueId}/cash-backs/${id}/approve`
