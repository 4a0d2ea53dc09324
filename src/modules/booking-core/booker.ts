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
