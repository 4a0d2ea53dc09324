import type { Executor } from '../../lib/db.ts'
import type { BookingKind } from './repository/bookings.ts'

// The rows both booking resources embed, for many bookings of one kind at once (one query per
// piece, not per booking): payments, extra session charges and the coupon usage.

/** Payment rows of bookings, oldest first. */
export async function paymentRowsOf(db: Executor, kind: BookingKind, bookingIds: number[]) {
  return db
    .selectFrom('payments')
    .select([
      'id',
      'payable_id',
      'method',
      'amount',
      'refunded_amount',
      'status',
      'reference',
      'completed_at',
      'created_at',
      'unverified',
    ])
    .where('payable_type', '=', kind)
    .where('payable_id', 'in', bookingIds)
    .orderBy('id')
    .execute()
}

/** Extra session charge rows of bookings, oldest first. */
export async function chargeRowsOf(db: Executor, kind: BookingKind, ids: number[]) {
  return db
    .selectFrom('booking_charges')
    .select(['id', 'booking_id', 'description', 'amount', 'created_at'])
    .where('booking_type', '=', kind)
    .where('booking_id', 'in', [...new Set(ids)])
    .orderBy('id')
    .execute()
}

/** The coupon usage rows of bookings, with the coupon's code and type. */
export async function couponUsageRowsOf(db: Executor, kind: BookingKind, ids: number[]) {
  return db
    .selectFrom('coupon_usages as u')
    .innerJoin('coupons as c', 'c.id', 'u.coupon_id')
    .select(['u.id', 'u.booking_id', 'c.code', 'c.type', 'u.discount_amount', 'u.created_at'])
    .where('u.booking_type', '=', kind)
    .where('u.booking_id', 'in', [...new Set(ids)])
    .where('u.released_at', 'is', null)
    .execute()
}
