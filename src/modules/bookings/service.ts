import type { Static } from 'typebox'
import type { AuthUser } from '../../lib/auth.ts'
import type { AppContext } from '../../lib/context.ts'
import type { PageParams } from '../../lib/pagination.ts'
import { bookingIdPage, onlineBooker, ownedBookingId } from '../booking-core/index.ts'
import { createCourtBooking } from './create.ts'
import { loadBooking, loadBookings } from './queries.ts'
import type { Booking } from './resource.ts'
import type { CreateBody, ListQuery } from './schemas.ts'

// The customer's side of court bookings: list, create, show, cancel.

export async function listMyBookings(
  ctx: AppContext,
  user: AuthUser,
  query: Static<typeof ListQuery>,
  page: PageParams,
): Promise<{ items: Booking[]; total: number }> {
  const filter = { userId: user.id, status: query.status, date: query.date }
  const { ids, total } = await bookingIdPage(ctx.db, 'court', filter, page, 'newest')
  return { items: await loadBookings(ctx, ids), total }
}

export async function createMyBooking(
  ctx: AppContext,
  user: AuthUser,
  input: Static<typeof CreateBody>,
): Promise<Booking> {
  // The caller's account names the booking; the response embeds it as `user`.
  return createCourtBooking(ctx, { ...input, customer_phone: null }, onlineBooker(user))
}

/** One court booking as its resource (with its customer), as a step leaves it. */
export const reloadBooking = (ctx: AppContext) => (id: number) => loadBooking(ctx, id)

export async function showMyBooking(ctx: AppContext, user: AuthUser, rawId: string): Promise<Booking> {
  return loadBooking(ctx, await ownedBookingId(ctx, user, 'court', rawId))
}
