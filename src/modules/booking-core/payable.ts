import type { AppContext } from '../../lib/context.ts'
import type { Executor } from '../../lib/db.ts'
import { toHHmm } from '../../lib/time.ts'
import { notify } from '../notifications/index.ts'
import { emitBookingEvent } from '../webhooks/index.ts'
import { type BookingKind, lockBooking, setPaidAmount, setPaymentMethod } from './repository/bookings.ts'

// What payments need from bookings, for both kinds: recording a payment and the payment intent
// (the rows and locks are in repository/bookings.ts).

export type { BookingKind, LockedBooking } from './repository/bookings.ts'
export { bookingTable, LOCKED_BOOKING_COLUMNS, lockBooking } from './repository/bookings.ts'

/**
 * Adds a received payment to the booking (paid_amount += amount). A pending booking that becomes
 * fully paid turns confirmed, its hold is cleared, and BookingConfirmed /
 * IndoorGameBookingConfirmed is sent (in the same transaction).
 */
export async function recordBookingPayment(
  ctx: AppContext,
  trx: Executor,
  kind: BookingKind,
  id: number,
  amountPaisa: number,
): Promise<void> {
  const before = await lockBooking(trx, kind, id)
  if (!before) throw new Error(`recordBookingPayment: ${kind} booking ${id} does not exist`)
  const paid = before.paid_amount + amountPaisa
  const confirms = before.status === 'pending' && paid >= before.total_amount
  await setPaidAmount(trx, kind, id, paid, confirms, ctx.clock.now())
  if (confirms) await emitBookingEvent(ctx, trx, kind, id, 'confirmed')
  if (confirms && before.user_id !== null) {
    const court = kind === 'court'
    await notify(
      ctx,
      before.user_id,
      court ? 'BookingConfirmed' : 'IndoorGameBookingConfirmed',
      {
        message: `Your ${court ? 'booking' : 'indoor game booking'} ${before.booking_number} on ${before.date} at ${toHHmm(before.start_time)} is confirmed.`,
        booking_id: before.id,
        booking_type: kind,
        booking_number: before.booking_number,
        venue_id: before.venue_id,
        date: before.date,
        start_time: toHHmm(before.start_time),
      },
      trx,
    )
  }
}

/** When a pending booking with this payment method stops holding its slot. */
export function holdUntil(ctx: AppContext, method: string, date: string, startTime: string, now: Date): Date {
  if (method === 'cash') return ctx.zone.instant(date, startTime)
  return new Date(now.getTime() + ctx.config.bookingHoldMinutes * 60_000)
}

/**
 * Records how the customer intends to pay. gateway or wallet: the slot is held for
 * BOOKING_HOLD_MINUTES from now; cash: held until the booking's start.
 */
export async function setPaymentIntent(
  ctx: AppContext,
  trx: Executor,
  kind: BookingKind,
  id: number,
  method: string,
): Promise<void> {
  const booking = await lockBooking(trx, kind, id)
  if (!booking) throw new Error(`setPaymentIntent: ${kind} booking ${id} does not exist`)
  // Only a pending booking is held; a confirmed one keeps its slot without a hold.
  const hold =
    booking.status === 'pending' ? holdUntil(ctx, method, booking.date, booking.start_time, ctx.clock.now()) : null
  await setPaymentMethod(trx, kind, id, method, hold, ctx.clock.now())
}
