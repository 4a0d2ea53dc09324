import type { AppContext } from '../../lib/context.ts'
import type { Executor } from '../../lib/db.ts'
import { redeemCoupon } from '../coupons/index.ts'
import { type BookingKind, setDiscount } from './repository/bookings.ts'

// A coupon applied to a booking just inserted (in its transaction): the usage is recorded (limits
// hold under concurrency) and the booking's discount_amount and total_amount written. Booking-core
// writes every money column of a booking; this is the discount's one writer.

export interface NewBookingAmounts {
  id: number
  venue_id: number
  base_amount: number
}

/** Redeems `code` on the new booking and returns its total after the discount (paisa). Invalid on coupon_code when unusable. */
export async function applyCoupon(
  ctx: AppContext,
  trx: Executor,
  kind: BookingKind,
  booking: NewBookingAmounts,
  code: string,
  userId: number | null,
): Promise<number> {
  const { discount } = await redeemCoupon(trx, {
    code,
    userId,
    venueId: booking.venue_id,
    amount: booking.base_amount,
    bookingKind: kind,
    bookingId: booking.id,
    now: ctx.clock.now(),
  })
  const total = booking.base_amount - discount
  await setDiscount(trx, kind, booking.id, discount, total)
  return total
}
