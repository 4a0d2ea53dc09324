import type { AuthUser } from '../../lib/auth.ts'
import type { AppContext } from '../../lib/context.ts'
import { translate } from '../../lib/i18n/index.ts'
import { formatMoney } from '../../lib/money.ts'
import { ownedBookingId } from './access.ts'
import { assertCustomerMayCancel, cancelledMessage, previewCancellation } from './cancellation.ts'
import type { Reload } from './desk.ts'
import { type BookingKind, lockBooking } from './repository/bookings.ts'
import { type CancelInput, cancelReason } from './schemas.ts'
import { transition } from './transitions.ts'

// The customer's own cancel of a booking of either kind, and its preview (docs/bookings.md,
// "Cancellation"). The kind's module answers the booking with its own resource.

/** The cancel_reason of a customer's cancel that gives none. */
export const CANCELLED_BY_CUSTOMER = 'Cancelled by the customer'

/**
 * The customer cancels their own booking: someone else's or a completed one is 403; other states
 * that cannot be cancelled (cancelled, playing, no-show) or a booking that has started are 422. A
 * paid booking cancelled at least the venue's free_cancellation_hours before its start is refunded
 * what is still refundable; BookingCancelled is sent. The reason follows cancelReason.
 */
export async function cancelAsCustomer<B>(
  ctx: AppContext,
  user: AuthUser,
  kind: BookingKind,
  rawId: string,
  body: CancelInput | undefined,
  reload: Reload<B>,
): Promise<{ message: string; refund_amount: string; data: B }> {
  const id = await ownedBookingId(ctx, user, kind, rawId)
  const outcome = await ctx.db.transaction().execute(async (trx) => {
    const booking = (await lockBooking(trx, kind, id))!
    assertCustomerMayCancel(booking, ctx.clock.now(), ctx.zone)
    return transition(ctx, trx, booking, 'cancel', {
      reason: cancelReason(body) ?? CANCELLED_BY_CUSTOMER,
      by: 'customer',
      actor: user.id,
    })
  })
  // Worded in the customer's language (docs/languages.md); English is the contract's words.
  const message = translate(user.locale, cancelledMessage(outcome.note))
  return { message, refund_amount: formatMoney(outcome.given), data: await reload(id) }
}

/** GET …/cancellation: what cancelling now would refund, for the booking's customer only. */
export async function previewAsCustomer(ctx: AppContext, user: AuthUser, kind: BookingKind, rawId: string) {
  const id = await ownedBookingId(ctx, user, kind, rawId)
  const preview = await previewCancellation(ctx.db, kind, id, ctx.clock.now(), ctx.zone)
  return { ...preview, reason: translate(user.locale, preview.reason) }
}
