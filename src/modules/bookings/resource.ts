import type { Selectable } from 'kysely'
import { type Static, Type } from 'typebox'
import type { Bookings } from '../../db/types.ts'
import { DateOnly, DateTime, Money, Nullable, named } from '../../lib/schemas.ts'
import { toHHmm } from '../../lib/time.ts'
import type { Zone } from '../../lib/zone.ts'
import { UserSchema } from '../accounts/index.ts'
import {
  BookingStatusEnum,
  BookingTypeEnum,
  bookingMoney,
  bookingMoneyFields,
  ChargeSchema,
  CouponUsageSchema,
  durationHours,
  PaymentMethodEnum,
  PaymentRecordSchema,
} from '../booking-core/index.ts'
import { CourtSchema } from '../courts/index.ts'
import { ReviewSchema } from '../reviews/index.ts'
import { VenueSummarySchema } from '../venues/index.ts'

// The contract's Booking (BookingResource) for court bookings and its mapping; the batch loader is
// in queries.ts.

export const BookingSchema = named(
  'Booking',
  Type.Object({
    id: Type.Integer(),
    booking_number: Type.String({ description: 'BK-<year>-<6-digit sequence>' }),
    type: BookingTypeEnum.response,
    status: BookingStatusEnum.response,
    date: DateOnly,
    start_time: Type.String({ description: 'HH:mm' }),
    end_time: Type.String({ description: 'HH:mm' }),
    duration_hours: Type.String({ description: 'Decimal string, e.g. "1.50"' }),
    ...bookingMoneyFields,
    payment_method: Nullable(PaymentMethodEnum.response),
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
    series_id: Nullable(Type.Integer({ description: 'The recurring series this booking is an occurrence of' })),
    waitlist_count: Type.Optional(
      Type.Integer({
        minimum: 0,
        description: 'Venue booking list only: how many customers wait for a slot overlapping this booking (waitlist)',
      }),
    ),
    created_at: DateTime,
  }),
)
export type Booking = Static<typeof BookingSchema>

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
export function bookingResource(b: Selectable<Bookings>, parts: BookingParts, zone: Zone): Booking {
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
    hold_expires_at: b.status === 'pending' ? zone.format(b.hold_expires_at) : null,
    customer_name: b.customer_name,
    customer_phone: b.customer_phone,
    notes: b.notes,
    cancel_reason: b.cancel_reason,
    cancelled_at: zone.format(b.cancelled_at),
    court_id: b.court_id,
    venue_id: b.venue_id,
    user_id: b.user_id,
    court: parts.court,
    venue: parts.venue,
    payments: parts.payments,
    charges: parts.charges,
    coupon_usage: parts.couponUsage,
    review: parts.review,
    series_id: b.series_id ?? null,
    created_at: zone.format(b.created_at),
  }
}

/** A recurring series: its weekly slot, its occurrences (ordinary bookings) and the weeks not booked. */
export const SeriesSchema = named(
  'BookingSeries',
  Type.Object({
    id: Type.Integer(),
    court_id: Type.Integer(),
    venue_id: Type.Integer(),
    type: BookingTypeEnum.response,
    weekday: Type.Integer({ minimum: 0, maximum: 6, description: '0 = Sunday … 6 = Saturday' }),
    start_date: DateOnly,
    weeks: Type.Integer(),
    start_time: Type.String({ description: 'HH:mm, venue-local wall clock every week' }),
    end_time: Type.String({ description: 'HH:mm' }),
    customer_name: Type.String(),
    occurrences: Type.Array(BookingSchema),
    skipped: Type.Array(
      Type.Object({
        date: DateOnly,
        reason: Type.String({ description: 'Why that week was not booked' }),
      }),
    ),
    created_at: DateTime,
  }),
)
export type Series = Static<typeof SeriesSchema>

/** PATCH …/series/{series}/cancel: what was cancelled and refunded, one line per booking. */
export const SeriesCancelSchema = Type.Object({
  message: Type.String({ description: '"3 bookings cancelled. Rs 3,000.00 refunded to your wallet."' }),
  refund_amount: Money,
  data: Type.Object({
    id: Type.Integer({ description: 'The series id' }),
    cancelled: Type.Array(
      Type.Object({
        booking_id: Type.Integer(),
        booking_number: Type.String(),
        date: DateOnly,
        refund_amount: Money,
        message: Type.String({ description: 'The cancel message of that booking (refund or why none)' }),
      }),
    ),
  }),
})
export type SeriesCancel = Static<typeof SeriesCancelSchema>
