import type { Static } from 'typebox'
import type { AuthUser } from '../../lib/auth.ts'
import type { AppContext } from '../../lib/context.ts'
import type { PageParams } from '../../lib/pagination.ts'
import { deskBooker, deskVenueId, venueBookingIds } from '../booking-core/index.ts'
import { createIndoorBooking } from './create.ts'
import { indoorBookingResource, indoorBookingResources } from './queries.ts'
import { bookingsByIds } from './repository.ts'
import type { StaffCreateBody, VenueListQuery } from './schemas.ts'

// The venue side of indoor bookings (docs/bookings.md, "Staff operations"): owner, managers, staff.
// Status changes, charges and desk payments are booking-core's (desk.ts), called by the routes.

export async function listVenueBookings(
  ctx: AppContext,
  user: AuthUser,
  venueKey: string,
  query: Static<typeof VenueListQuery>,
  page: PageParams,
) {
  const filter = { date: query.date, status: query.status, resourceId: query.indoor_game_id }
  const { ids, total } = await venueBookingIds(ctx, user, 'indoor', venueKey, filter, page, 'schedule')
  return { items: await indoorBookingResources(ctx, ctx.db, await bookingsByIds(ctx.db, ids)), total }
}

export async function createVenueBooking(
  ctx: AppContext,
  user: AuthUser,
  venueKey: string,
  input: Static<typeof StaffCreateBody>,
) {
  const venueId = await deskVenueId(ctx, user, venueKey)
  const row = await createIndoorBooking(ctx, input, deskBooker(user, venueId, input))
  return indoorBookingResource(ctx, ctx.db, row)
}
