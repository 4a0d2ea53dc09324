import type { AuthUser } from '../../lib/auth.ts'
import type { AppContext } from '../../lib/context.ts'
import type { Executor } from '../../lib/db.ts'
import { Invalid, Unprocessable } from '../../lib/errors.ts'
import { formatMoney } from '../../lib/money.ts'
import { toHHmm } from '../../lib/time.ts'
import { releaseCoupon } from '../coupons/index.ts'
import { notify } from '../notifications/index.ts'
import { emitBookingEvent, emitPaymentEvent } from '../webhooks/index.ts'
import { type CancelledBy, hasStarted, refundQuote } from './cancellation.ts'
import type { DeskPaymentMethod } from './methods.ts'
import { recordBookingPayment } from './payable.ts'
import { refundBookingToWallet } from './payment-records.ts'
import { type BookingKind, insertCharge, type LockedBooking, markCancelled, setStatus } from './repository/bookings.ts'
import { insertPayment, newReference } from './repository/payments.ts'
import { type StaffTarget, transitionError } from './state.ts'

// Changes to a booking that court and indoor-game bookings share: cancellation (with refund,
// coupon release and notification), staff status changes, extra charges and payments
// recorded at the desk. Each runs inside the caller's transaction.

export const NOT_PAYABLE = 'This booking cannot be paid.'

export { hasStarted } from './cancellation.ts'

export interface CancelOptions {
  reason: string | null
  /** customer: refund only inside the free-cancellation window; venue, system: refund what is left. */
  by: CancelledBy
}

/** What a cancel did about money: paisa credited to the wallet and the words the customer is told. */
export interface CancelOutcome {
  refund: number
  note: string | null
}

/**
 * Cancels a live booking (the caller has locked it and checked who may): sets status, reason and
 * time, clears the hold, gives back an unpaid booking's coupon, refunds to the wallet what the
 * policy allows (never more than is still refundable on its payments), and sends BookingCancelled
 * stating the amount credited or why nothing was.
 */
export async function cancelLocked(
  ctx: AppContext,
  trx: Executor,
  kind: BookingKind,
  booking: LockedBooking,
  opts: CancelOptions,
): Promise<CancelOutcome> {
  const now = ctx.clock.now()
  const quote = await refundQuote(trx, kind, booking, opts.by, now, ctx.zone)
  await markCancelled(trx, kind, booking.id, opts.reason, now)
  await emitBookingEvent(ctx, trx, kind, booking.id, 'cancelled')
  if (booking.paid_amount === 0) await releaseCoupon(trx, kind, booking.id)
  if (quote.refund > 0 && booking.user_id !== null) {
    await refundBookingToWallet(
      ctx,
      trx,
      kind,
      booking.id,
      booking.user_id,
      quote.refund,
      `Refund for cancelled booking ${booking.booking_number}`,
    )
  }
  if (booking.user_id !== null) {
    const when = `${booking.date} at ${toHHmm(booking.start_time)}`
    await notify(
      ctx,
      booking.user_id,
      'BookingCancelled',
      {
        message: `Your booking ${booking.booking_number} on ${when} was cancelled.${quote.note ? ` ${quote.note}` : ''}`,
        booking_id: booking.id,
        booking_type: kind,
        booking_number: booking.booking_number,
        venue_id: booking.venue_id,
        cancel_reason: opts.reason,
        refund_amount: formatMoney(quote.refund),
      },
      trx,
    )
  }
  return { refund: quote.refund, note: quote.note }
}

/** A staff status change (PATCH …/status): only the state machine's transitions, else 422. */
export async function changeStatus(
  ctx: AppContext,
  trx: Executor,
  kind: BookingKind,
  booking: LockedBooking,
  target: StaffTarget,
  reason: string | null,
): Promise<void> {
  const error = transitionError(booking.status, target, hasStarted(booking, ctx.clock.now(), ctx.zone))
  if (error) throw new Invalid('status', error)
  if (target === 'cancelled') {
    await cancelLocked(ctx, trx, kind, booking, { reason: reason ?? 'Cancelled by the venue', by: 'venue' })
    return
  }
  await setStatus(trx, kind, booking.id, target, ctx.clock.now())
  if (target === 'completed') await emitBookingEvent(ctx, trx, kind, booking.id, 'completed')
}

/** An extra session charge: raises extras_total, total_amount and so balance_due. */
export async function addCharge(
  ctx: AppContext,
  trx: Executor,
  kind: BookingKind,
  booking: LockedBooking,
  input: { description: string; amount: number },
  staff: AuthUser,
): Promise<void> {
  if (booking.status === 'cancelled' || booking.status === 'no_show') {
    throw new Unprocessable(`A ${booking.status.replace('_', '-')} booking cannot take charges.`)
  }
  if (input.amount <= 0) throw new Invalid('amount', 'The amount field must be at least 0.01.')
  await insertCharge(
    trx,
    kind,
    booking.id,
    { description: input.description, amount: input.amount, createdBy: staff.id },
    ctx.clock.now(),
  )
}

export interface DeskPayment {
  amount: number
  method: DeskPaymentMethod
  reference?: string | null
}

/**
 * A payment taken at the venue (cash, or a gateway payment made outside the app, with its
 * reference): amount ≤ balance_due; a pending booking that becomes fully paid is confirmed.
 */
export async function recordDeskPayment(
  ctx: AppContext,
  trx: Executor,
  kind: BookingKind,
  booking: LockedBooking,
  input: DeskPayment,
  staff: AuthUser,
) {
  if (booking.status === 'cancelled' || booking.status === 'no_show') throw new Unprocessable(NOT_PAYABLE)
  const due = Math.max(booking.total_amount - booking.paid_amount, 0)
  if (due === 0) throw new Unprocessable('This booking is already paid.')
  if (input.amount <= 0) throw new Invalid('amount', 'The amount field must be at least 0.01.')
  if (input.amount > due) {
    throw new Invalid('amount', `The amount must not be greater than the balance due of ${formatMoney(due)}.`)
  }
  const now = ctx.clock.now()
  const payment = await insertPayment(trx, {
    user_id: booking.user_id,
    payable_type: kind,
    payable_id: booking.id,
    method: input.method,
    amount: input.amount,
    status: 'completed',
    reference: newReference(now),
    gateway_transaction_id: input.reference ?? null,
    recorded_by: staff.id,
    completed_at: now,
  })
  await emitPaymentEvent(ctx, trx, payment.id, 'completed')
  await recordBookingPayment(ctx, trx, kind, booking.id, input.amount)
  return payment
}
