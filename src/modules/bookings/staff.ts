import type { Static } from 'typebox'
import type { AuthUser } from '../../lib/auth.ts'
import type { AppContext } from '../../lib/context.ts'
import type { PageParams } from '../../lib/pagination.ts'
import { deskBooker, deskVenueId, venueBookingIds } from '../booking-core/index.ts'
import { createCourtBooking } from './create.ts'
import { loadBookings, waitingCounts } from './queries.ts'
import type { Booking, Series } from './resource.ts'
import type { StaffCreateBody, StaffSeriesBody, VenueListQuery } from './schemas.ts'
import { createSeries } from './series.ts'

// Venue staff operations on court bookings (docs/bookings.md, "Staff operations"): the venue's owner,
// managers and staff, and any super_admin.

export async function listVenueBookings(
  ctx: AppContext,
  user: AuthUser,
  param: string,
  query: Static<typeof VenueListQuery>,
  page: PageParams,
): Promise<{ items: Booking[]; total: number }> {
  const filter = { date: query.date, status: query.status, resourceId: query.court_id }
  const { ids, total } = await venueBookingIds(ctx, user, 'court', param, filter, page, 'newest')
  const [items, waiting] = await Promise.all([loadBookings(ctx, ids, { withUser: true }), waitingCounts(ctx.db, ids)])
  for (const b of items) b.waitlist_count = waiting.get(b.id) ?? 0
  return { items, total }
}

export async function createVenueBooking(
  ctx: AppContext,
  user: AuthUser,
  param: string,
  input: Static<typeof StaffCreateBody>,
): Promise<Booking> {
  const venueId = await deskVenueId(ctx, user, param)
  const booking = await createCourtBooking(
    ctx,
    { ...input, coupon_code: null, payment_method: null },
    deskBooker(user, venueId, input),
  )
  // A desk booking has no customer account.
  booking.user = null
  return booking
}

/** POST /venues/{venue}/bookings/series: a desk series (offline or walk-in) for a named customer. */
export async function createVenueSeries(
  ctx: AppContext,
  user: AuthUser,
  param: string,
  input: Static<typeof StaffSeriesBody>,
): Promise<Series> {
  const venueId = await deskVenueId(ctx, user, param)
  return createSeries(ctx, { ...input, payment_method: null }, deskBooker(user, venueId, input))
}
