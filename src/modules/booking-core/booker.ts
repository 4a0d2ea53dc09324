import type { AuthUser } from '../../lib/auth.ts'
import { Invalid } from '../../lib/errors.ts'

// Who a new booking is for and who makes it: the customer's own account (online), or venue staff
// booking for someone at the desk (offline, walk-in). Court and indoor bookings take the same one.

export interface Booker {
  type: 'online' | 'offline' | 'walkin'
  userId: number | null
  customerName: string
  /** Used when the request carries no customer_phone (the customer's profile phone). */
  customerPhone: string | null
  createdBy: number
  /** Staff book only the courts and games of their venue; customers only those of visible venues. */
  venueId?: number
}

/** A customer booking for themself (signed in, or offered a waitlist slot): their account names the booking. */
export function onlineBooker(user: Pick<AuthUser, 'id' | 'name' | 'phone'>): Booker {
  return { type: 'online', userId: user.id, customerName: user.name, customerPhone: user.phone, createdBy: user.id }
}

/**
 * Venue staff booking at their venue's desk for a named customer with no account: offline unless
 * walkin. A customer_name that is blank once trimmed is 422, for both kinds.
 */
export function deskBooker(
  staff: AuthUser,
  venueId: number,
  input: { type?: 'offline' | 'walkin'; customer_name: string },
): Booker {
  const customerName = input.customer_name.trim()
  if (!customerName) throw new Invalid('customer_name', 'The customer name field is required.')
  return {
    type: input.type ?? 'offline',
    userId: null,
    customerName,
    customerPhone: null,
    createdBy: staff.id,
    venueId,
  }
}
