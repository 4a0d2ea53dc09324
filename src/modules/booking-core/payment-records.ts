import type { Insertable } from 'kysely'
import type { Payments } from '../../db/types.ts'
import type { AppContext } from '../../lib/context.ts'
import type { Executor } from '../../lib/db.ts'
import { Unprocessable } from '../../lib/errors.ts'
import { formatMoney } from '../../lib/money.ts'
import type { Zone } from '../../lib/zone.ts'
import { creditWallet } from '../wallet/index.ts'
import { emitPaymentEvent } from '../webhooks/index.ts'
import { paymentRowsOf } from './queries.ts'
import { type BookingKind, lowerPaidAmount } from './repository/bookings.ts'
import { insertPayment, lockRefundablePayments, markRefunded, newReference } from './repository/payments.ts'

// The payment rows of bookings as both booking kinds show and refund them. Payments reads the same
// rows for its own steps through this module (docs/architecture.md, "Booking core and money direction").

export interface PaymentRecord {
  id: number
  method: string
  amount: string
  refunded_amount: string
  status: string
  reference: string | null
  paid_at: string | null
  created_at: string | null
}

/** Wallet ledger reference_type of a booking kind ("booking" for courts, "indoor" for indoor games). */
export const ledgerReferenceType = (kind: BookingKind) => (kind === 'court' ? 'booking' : 'indoor')

export function toPaymentRecord(
  p: {
    id: number
    method: string
    amount: number
    refunded_amount: number
    status: string
    reference: string | null
    completed_at: Date | string | null
    created_at: Date | string | null
  },
  zone: Zone,
): PaymentRecord {
  return {
    id: p.id,
    method: p.method,
    amount: formatMoney(p.amount),
    refunded_amount: formatMoney(p.refunded_amount),
    status: p.status,
    reference: p.reference,
    paid_at: zone.format(p.completed_at),
    created_at: zone.format(p.created_at),
  }
}

/** Payment history of bookings, keyed by booking id (for the `payments` field). */
export async function paymentsFor(
  db: Executor,
  kind: BookingKind,
  bookingIds: number[],
  zone: Zone,
): Promise<Map<number, PaymentRecord[]>> {
  const out = new Map<number, PaymentRecord[]>()
  if (bookingIds.length === 0) return out
  const rows = await paymentRowsOf(db, kind, bookingIds)
  for (const row of rows) {
    const list = out.get(row.payable_id) ?? []
    list.push(toPaymentRecord(row, zone))
    out.set(row.payable_id, list)
  }
  return out
}

/**
 * Refunds a booking's completed payments by the way the money came (refundQuote): `toWallet` paisa of
 * its online payments to the customer's wallet (a `credit` ledger row), `atDesk` paisa of its desk
 * payments as refunded at the venue's desk (no wallet money). The payments are marked refunded /
 * partially_refunded and the booking's paid_amount lowered by both (it is net of refunds). Runs in
 * the caller's transaction.
 */
export async function refundBooking(
  ctx: AppContext,
  trx: Executor,
  kind: BookingKind,
  booking: { id: number; user_id: number | null },
  amounts: { toWallet: number; atDesk: number },
  reason: string,
): Promise<void> {
  if (amounts.toWallet + amounts.atDesk <= 0) return
  const payments = await lockRefundablePayments(trx, kind, booking.id)
  const left = { online: amounts.toWallet, desk: amounts.atDesk }
  let walletPayment: number | undefined
  for (const p of payments) {
    const way = p.recorded_by === null ? 'online' : 'desk'
    const take = Math.min(left[way], p.amount - p.refunded_amount)
    if (take <= 0) continue
    await markRefunded(trx, p.id, take, ctx.clock.now())
    await emitPaymentEvent(ctx, trx, p.id, 'refunded')
    if (way === 'online') walletPayment ??= p.id
    left[way] -= take
  }
  if (left.online > 0 || left.desk > 0) throw new Unprocessable('The refund is more than was paid for this booking.')
  await lowerPaidAmount(trx, kind, booking.id, amounts.toWallet + amounts.atDesk, ctx.clock.now())
  if (amounts.toWallet > 0) {
    if (booking.user_id === null) throw new Unprocessable('This booking has no customer wallet to refund to.')
    await creditWallet(
      trx,
      booking.user_id,
      amounts.toWallet,
      {
        referenceType: ledgerReferenceType(kind),
        referenceId: booking.id,
        description: reason,
        paymentId: walletPayment,
      },
      'credit',
    )
  }
}

/**
 * Returns `amountPaisa` of one completed payment the way it came: an online payment to the
 * customer's wallet, a desk payment (recorded by staff) at the venue's desk. Used for the venue's manual refund
 * (`applied`: the money was part of the booking's paid_amount, which is lowered by it), or money a
 * booking could not take (an overpayment, a payment for a booking no longer active: never applied).
 * The caller holds the booking's and the payment's row locks and has checked the amount against
 * what is refundable.
 */
export async function returnPaymentToWallet(
  ctx: AppContext,
  trx: Executor,
  kind: BookingKind,
  bookingId: number,
  payment: { id: number; recorded_by: number | null },
  userId: number | null,
  amountPaisa: number,
  opts: { description: string; applied: boolean },
): Promise<void> {
  await markRefunded(trx, payment.id, amountPaisa, ctx.clock.now())
  await emitPaymentEvent(ctx, trx, payment.id, 'refunded')
  if (opts.applied) await lowerPaidAmount(trx, kind, bookingId, amountPaisa, ctx.clock.now())
  // Desk money goes back at the desk: it never becomes platform wallet money.
  if (payment.recorded_by !== null) return
  if (userId === null) throw new Unprocessable('This payment has no customer wallet to refund to.')
  await creditWallet(trx, userId, amountPaisa, {
    referenceType: ledgerReferenceType(kind),
    referenceId: bookingId,
    description: opts.description,
    paymentId: payment.id,
  })
}

/** A new payment row (a booking's or a top-up's) with a fresh reference for its gateway. */
export function newPayment(ctx: AppContext, trx: Executor, values: Omit<Insertable<Payments>, 'reference'>) {
  return insertPayment(trx, { ...values, reference: newReference(ctx.clock.now()) })
}
