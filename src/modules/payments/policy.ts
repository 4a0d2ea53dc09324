import type { AuthUser } from '../../lib/auth.ts'
import type { Executor } from '../../lib/db.ts'
import { Forbidden, NotFound, Unprocessable } from '../../lib/errors.ts'
import type { PayableBooking } from '../bookings/payable.ts'
import { assertVenueAccess } from '../venues/access.ts'

export const NOT_PAYABLE = 'This booking cannot be paid.'
export const ALREADY_PAID = 'This booking is already paid.'

/** A customer pays only their own booking, only while it is live and has a balance due. */
export function assertCanPay(booking: PayableBooking | undefined, user: AuthUser): asserts booking is PayableBooking {
  if (!booking) throw new NotFound()
  if (booking.user_id !== user.id) throw new Forbidden()
  if (!['pending', 'confirmed'].includes(booking.status)) throw new Unprocessable(NOT_PAYABLE)
  if (booking.paid_amount >= booking.total_amount) throw new Unprocessable(ALREADY_PAID)
}

/** Refunds: the venue's owner or manager, or a super_admin (staff may not). */
export async function assertCanRefund(db: Executor, user: AuthUser, venueId: number) {
  await assertVenueAccess(db, user, venueId, ['owner', 'manager'])
}
