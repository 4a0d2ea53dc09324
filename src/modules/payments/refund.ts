import type { Static } from 'typebox'
import type { AuthUser } from '../../lib/auth.ts'
import type { AppContext } from '../../lib/context.ts'
import { Invalid, NotFound, Unprocessable } from '../../lib/errors.ts'
import { formatMoney, toPaisa } from '../../lib/money.ts'
import { assertPositiveAmount, type BookingKind, lockBooking, returnPaymentToWallet } from '../booking-core/index.ts'
import { assertCanRefund } from './policy.ts'
import * as repo from './repository.ts'
import type { RefundBody } from './schemas.ts'

/**
 * A manual refund of one booking payment, in full or in part, the way the money came: an online
 * payment to the customer's wallet, a desk payment at the venue's desk (never wallet money).
 */
export async function refundPayment(
  ctx: AppContext,
  user: AuthUser,
  paymentId: number,
  input: Static<typeof RefundBody>,
) {
  return ctx.db.transaction().execute(async (trx) => {
    const found = await repo.findPayment(trx, paymentId)
    if (!found || found.payable_type === 'topup') throw new NotFound()
    const kind = found.payable_type as BookingKind
    // The booking first, then its payment: the order cancelling takes them in (booking, then its
    // payments), so a refund racing a cancel waits instead of deadlocking.
    const booking = await lockBooking(trx, kind, found.payable_id)
    if (!booking) throw new NotFound()
    const payment = (await repo.findPayment(trx, paymentId, true))!
    await assertCanRefund(trx, user, booking.venue_id)
    if (!['completed', 'partially_refunded'].includes(payment.status)) {
      throw new Unprocessable('Only a completed payment can be refunded.')
    }
    const refundable = payment.amount - payment.refunded_amount
    const amount = input.amount === undefined ? refundable : toPaisa(input.amount)
    assertPositiveAmount(amount)
    if (amount > refundable) {
      throw new Invalid('amount', `The amount must not be greater than the refundable ${formatMoney(refundable)}.`)
    }
    // Online money goes back to the wallet; desk money is handed back at the desk (no wallet needed).
    const customer = payment.user_id ?? booking.user_id
    if (customer === null && payment.recorded_by === null) {
      throw new Unprocessable('This payment has no customer wallet to refund to.')
    }
    const description = input.reason?.trim() || `Refund for booking ${booking.booking_number}`
    await returnPaymentToWallet(ctx, trx, kind, booking.id, payment, customer, amount, { description, applied: true })
    return (await repo.findPayment(trx, payment.id))!
  })
}
