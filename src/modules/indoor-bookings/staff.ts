import type { Static } from 'typebox'
import type { AuthUser } from '../../lib/auth.ts'
import type { AppContext } from '../../lib/context.ts'
import type { PageParams } from '../../lib/pagination.ts'
import {
  type ChargeInput,
  chargeAtDesk,
  deskBooker,
  deskVenueId,
  payAtDesk,
  type StatusChange,
  setStatusAtDesk,
  venueBookingIds,
} from '../booking-core/index.ts'
import { createIndoorBooking } from './create.ts'
import { indoorBookingResource, indoorBookingResources } from './queries.ts'
import { bookingsByIds } from './repository.ts'
import type { PaymentBody, StaffCreateBody, VenueListQuery } from './schemas.ts'
import { reloadBooking } from './service.ts'

// The venue side of indoor bookings (docs/bookings.md, "Staff operations"): owner, managers, staff.
// Status changes, charges and desk payments are the ones court bookings use (booking-core/desk.ts).

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

/** PATCH /indoor-game-bookings/{id}/status (booking-core/desk.ts). */
export function changeStatus(ctx: AppContext, user: AuthUser, rawId: string, input: StatusChange) {
  return setStatusAtDesk(ctx, user, 'indoor', rawId, input, reloadBooking(ctx))
}

/** POST /indoor-game-bookings/{id}/charges (booking-core/desk.ts). */
export function addBookingCharge(ctx: AppContext, user: AuthUser, rawId: string, input: ChargeInput) {
  return chargeAtDesk(ctx, user, 'indoor', rawId, input, reloadBooking(ctx))
}

/** POST /indoor-game-bookings/{id}/payments (booking-core/desk.ts). */
export function recordVenuePayment(ctx: AppContext, user: AuthUser, rawId: string, input: Static<typeof PaymentBody>) {
  return payAtDesk(ctx, user, 'indoor', rawId, input, reloadBooking(ctx))
}
