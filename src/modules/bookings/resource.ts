import type { Selectable } from 'kysely'
import { type Static, Type } from 'typebox'
import type { Bookings } from '../../db/types.ts'
import type { AppContext } from '../../lib/context.ts'
import { DateOnly, DateTime, Nullable } from '../../lib/schemas.ts'
import { formatDateTime, toHHmm } from '../../lib/time.ts'
import { selectUsers, type UserRow, UserSchema, userResource } from '../accounts/resource.ts'
import { CourtSchema, loadCourtResources } from '../courts/index.ts'
import { ReviewSchema, reviewsByBookingIds } from '../reviews/resource.ts'
import { VenueSummarySchema, venueSummary } from '../venues/resource.ts'
import {
  bookingMoney,
  bookingMoneyFields,
  ChargeSchema,
  CouponUsageSchema,
  durationHours,
  loadBookingExtras,
  PaymentRecordSchema,
} from './shared.ts'

// The contract's Booking (BookingResource) for court bookings, and its one batch loader: a page of
// bookings costs a fixed number of queries whatever its length.

export const BookingSchema = Type.Object({
  id: Type.Integer(),
  booking_number: Type.String({ description: 'BK-<year>-<6-digit sequence>' }),
  type: Type.String({ description: 'online, offline or walkin' }),
  status: Type.String({ description: 'pending, confirmed, playing, completed, cancelled or no_show' }),
  date: DateOnly,
  start_time: Type.String({ description: 'HH:mm' }),
  end_time: Type.String({ description: 'HH:mm' }),
  duration_hours: Type.String({ description: 'Decimal string, e.g. "1.50"' }),
  ...bookingMoneyFields,
  payment_method: Nullable(Type.String({ description: 'gateway_1, gateway_2, gateway_3, wallet or cash' })),
  hold_expires_at: Nullable(DateTime),
  customer_name: Type.String(),
  customer_phone: Nullable(Type.String()),
  notes: Nullable(Type.String()),
  cancel_reason: Nullable(Type.String()),
  cancelled_at: Nullable(DateTime),
  court_id: Type.Integer(),
  venue_id: Type.Integer(),
  user_id: Nullable(Type.Integer()),
  court: Nullable(CourtSchema),
  venue: Nullable(VenueSummarySchema),
  user: Type.Optional(Nullable(UserSchema)),
  payments: Type.Array(PaymentRecordSchema),
  charges: Type.Array(ChargeSchema),
  coupon_usage: Nullable(CouponUsageSchema),
  review: Nullable(ReviewSchema),
  created_at: DateTime,
})
export type Booking = Static<typeof BookingSchema>

/**
 * Court bookings by id, in the order of `ids` (unknown ids are skipped). `withUser` embeds the
 * customer (the single-booking views); lists leave `user` out.
 */
export async function loadBookings(
  ctx: AppContext,
  ids: number[],
  opts: { withUser?: boolean } = {},
): Promise<Booking[]> {
  if (ids.length === 0) return []
  // Never inside a transaction: the review loader reads through ctx.db (and PGlite has one session).
  const db = ctx.db
  const rows = await db.selectFrom('bookings').selectAll().where('id', 'in', ids).execute()
  const bookingIds = rows.map((r) => r.id)
  const userIds = [...new Set(rows.map((r) => r.user_id).filter((id): id is number => id !== null))]
  const [courts, venues, extras, reviews, users] = await Promise.all([
    loadCourtResources(
      db,
      rows.map((r) => r.court_id),
      { storage: ctx.storage },
    ),
    db
      .selectFrom('venues')
      .select(['id', 'name', 'slug'])
      .where('id', 'in', [...new Set(rows.map((r) => r.venue_id))])
      .execute(),
    loadBookingExtras(db, 'court', bookingIds),
    reviewsByBookingIds(ctx, bookingIds),
    opts.withUser && userIds.length > 0 ? selectUsers(db).where('u.id', 'in', userIds).execute() : Promise.resolve([]),
  ])
  const venueById = new Map(venues.map((v) => [v.id, venueSummary(v)]))
  const userById = new Map(users.map((u) => [u.id, userResource(ctx.storage, u as UserRow)]))
  const byId = new Map(rows.map((r) => [r.id, r]))
  const out: Booking[] = []
  for (const id of ids) {
    const b = byId.get(id)
    if (!b) continue
    const booking = bookingResource(b, {
      court: courts.get(b.court_id) ?? null,
      venue: venueById.get(b.venue_id) ?? null,
      payments: extras.payments(b.id),
      charges: extras.charges(b.id),
      couponUsage: extras.couponUsage(b.id),
      review: reviews.get(b.id) ?? null,
    })
    if (opts.withUser) booking.user = b.user_id === null ? null : (userById.get(b.user_id) ?? null)
    out.push(booking)
  }
  return out
}

/** What a booking resource embeds besides its own columns. */
export interface BookingParts {
  court: Booking['court']
  venue: Booking['venue']
  payments: Booking['payments']
  charges: Booking['charges']
  couponUsage: Booking['coupon_usage']
  review: Booking['review']
}

/** The resource of one `bookings` row (all columns) and its embedded parts; `user` is left to the caller. */
export function bookingResource(b: Selectable<Bookings>, parts: BookingParts): Booking {
  return {
    id: b.id,
    booking_number: b.booking_number,
    type: b.type,
    status: b.status,
    date: b.date,
    start_time: toHHmm(b.start_time),
    end_time: toHHmm(b.end_time),
    duration_hours: durationHours(b.start_time, b.end_time),
    ...bookingMoney(b),
    payment_method: b.payment_method,
    hold_expires_at: b.status === 'pending' ? formatDateTime(b.hold_expires_at) : null,
    customer_name: b.customer_name,
    customer_phone: b.customer_phone,
    notes: b.notes,
    cancel_reason: b.cancel_reason,
    cancelled_at: formatDateTime(b.cancelled_at),
    court_id: b.court_id,
    venue_id: b.venue_id,
    user_id: b.user_id,
    court: parts.court,
    venue: parts.venue,
    payments: parts.payments,
    charges: parts.charges,
    coupon_usage: parts.couponUsage,
    review: parts.review,
    created_at: formatDateTime(b.created_at)!,
  }
}

/** One court booking as the resource (with its customer unless told otherwise). */
export async function loadBooking(ctx: AppContext, id: number, opts = { withUser: true }): Promise<Booking> {
  const [booking] = await loadBookings(ctx, [id], opts)
  if (!booking) throw new Error(`booking ${id} vanished`)
  return booking
}
