import type { Static } from 'typebox'
import type { AuthUser } from '../../lib/auth.ts'
import type { AppContext } from '../../lib/context.ts'
import type { PageParams } from '../../lib/pagination.ts'
import { bookingIdPage, onlineBooker, ownedBookingId } from '../booking-core/index.ts'
import { createIndoorBooking } from './create.ts'
import { indoorBookingResource, indoorBookingResources } from './queries.ts'
import { bookingsByIds, findBooking } from './repository.ts'
import type { CreateBody, ListQuery } from './schemas.ts'

// The customer side of indoor bookings: list, create, show, cancel (the cancel itself and who may
// act on a booking are booking-core's, shared with court bookings).

/** One indoor booking as its resource, as a step leaves it. */
export const reloadBooking = (ctx: AppContext) => async (id: number) =>
  indoorBookingResource(ctx, ctx.db, (await findBooking(ctx.db, id))!)

export async function listMine(ctx: AppContext, user: AuthUser, page: PageParams, query: Static<typeof ListQuery>) {
  const filter = { userId: user.id, status: query.status, date: query.date }
  const { ids, total } = await bookingIdPage(ctx.db, 'indoor', filter, page, 'newest')
  return { items: await indoorBookingResources(ctx, ctx.db, await bookingsByIds(ctx.db, ids)), total }
}

export async function createMine(ctx: AppContext, user: AuthUser, input: Static<typeof CreateBody>) {
  // The signed-in user carries its name and phone (src/lib/auth.ts).
  const row = await createIndoorBooking(ctx, input, onlineBooker(user))
  return indoorBookingResource(ctx, ctx.db, row)
}

/**
 * Only the booking's customer may read it (contract, Authentication rule 9), as for court bookings:
 * venue staff and admins see bookings through the venue's booking list.
 */
export async function showBooking(ctx: AppContext, user: AuthUser, rawId: string) {
  return reloadBooking(ctx)(await ownedBookingId(ctx, user, 'indoor', rawId))
}
