import type { AuthUser } from '../../lib/auth.ts'
import type { Executor } from '../../lib/db.ts'
import { Forbidden, NotFound, Unprocessable } from '../../lib/errors.ts'
import type { BookingKind, LockedBooking } from '../booking-core/index.ts'
import { assertVenueAccess, DESK_ROLES, MANAGER_ROLES } from '../venues/index.ts'
import { bookingVenueId } from './repository.ts'

export const NOT_PAYABLE = 'This booking cannot be paid.'
export const ALREADY_PAID = 'This booking is already paid.'

/** A customer pays only their own booking, only while it is live and has a balance due. */
export function assertCanPay(booking: LockedBooking | undefined, user: AuthUser): asserts booking is LockedBooking {
  if (!booking) throw new NotFound()
  if (booking.user_id !== user.id) throw new Forbidden()
  if (!['pending', 'confirmed'].includes(booking.status)) throw new Unprocessable(NOT_PAYABLE)
  if (booking.paid_amount >= booking.total_amount) throw new Unprocessable(ALREADY_PAID)
}

/** Refunds: the venue's owner or manager, or a super_admin (staff may not). */
export async function assertCanRefund(db: Executor, user: AuthUser, venueId: number) {
  await assertVenueAccess(db, user, venueId, MANAGER_ROLES)
}

/**
 * Reading a payment: the customer it belongs to; for a booking payment also the venue's owner,
 * managers and staff (and super_admin). A top-up concerns its customer only.
 */
export async function assertCanView(
  db: Executor,
  user: AuthUser,
  payment: { user_id: number | null; payable_type: string; payable_id: number },
) {
  if (payment.user_id === user.id) return
  if (payment.payable_type === 'topup') {
    if (!user.roles.includes('super_admin')) throw new Forbidden()
    return
  }
  const venueId = await bookingVenueId(db, payment.payable_type as BookingKind, payment.payable_id)
  if (venueId === undefined) throw new Forbidden()
  await assertVenueAccess(db, user, venueId, DESK_ROLES)
}
