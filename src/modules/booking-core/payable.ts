import type { AppContext } from '../../lib/context.ts'
import type { Executor } from '../../lib/db.ts'
import { bookingHeldAsVerified, holdUntil } from './holds.ts'
import { type BookingKind, type LockedBooking, lockBooking, setPaymentMethod } from './repository/bookings.ts'
import { checkPayAtVenue } from './rules.ts'
import { reviveWithinCap } from './unpaid-caps.ts'

// What payments need from bookings, for both kinds: the payment intent and the hold it sets (the
// rows and locks are in repository/bookings.ts; a payment arriving is receive.ts).

export type { BookingKind, LockedBooking } from './repository/bookings.ts'
export { bookingTable, LOCKED_BOOKING_COLUMNS, lockBooking } from './repository/bookings.ts'

/**
 * Records how the customer intends to pay. gateway or wallet: the slot is held for
 * BOOKING_HOLD_MINUTES from now; cash: held until the booking's start, when the customer has a
 * verified phone (else BOOKING_HOLD_MINUTES too: holdUntil). `field` names the request's
 * payment method field, under which a refused cash intent is reported. A customer's own hold that
 * already ran out is held again only within the unpaid cap (`reviveWithinCap`; 422 under `field`):
 * the caller takes the customer's lock (lockCustomerHolds) before the booking's.
 */
export async function setPaymentIntent(
  ctx: AppContext,
  trx: Executor,
  kind: BookingKind,
  id: number,
  method: string,
  field = 'payment_method',
): Promise<void> {
  const booking = await lockBooking(trx, kind, id)
  if (!booking) throw new Error(`setPaymentIntent: ${kind} booking ${id} does not exist`)
  // A customer may not choose to pay at a venue that does not take it, nor at the venue's no-show
  // limit (docs/bookings.md, "Booking rules" and "No-shows").
  if (method === 'cash') await checkPayAtVenue(ctx, trx, booking, field)
  // Only a pending booking is held; a confirmed one keeps its slot without a hold.
  const now = ctx.clock.now()
  const hold =
    booking.status === 'pending'
      ? holdUntil(
          ctx,
          { method, date: booking.date, startTime: booking.start_time },
          now,
          await bookingHeldAsVerified(trx, booking),
        )
      : null
  const record = () => setPaymentMethod(trx, kind, id, method, hold, ctx.clock.now())
  const owner = lapsedHoldOwner(booking, ctx.clock.now())
  if (owner === null) return record()
  await reviveWithinCap(ctx, trx, owner, field, record)
}

/**
 * The customer whose own online booking `b` is, when it is pending and its payment hold ran out by
 * `now` (not yet cancelled by the sweep); null otherwise. Such a hold counts against the unpaid cap
 * no more (courtside_unpaid_held), so reviving it counts again (setPaymentIntent).
 */
function lapsedHoldOwner(b: LockedBooking, now: Date): number | null {
  const lapsed = b.hold_expires_at !== null && b.hold_expires_at.getTime() <= now.getTime()
  const own = b.user_id !== null && b.created_by === b.user_id
  return b.status === 'pending' && b.type === 'online' && lapsed && own ? b.user_id : null
}
