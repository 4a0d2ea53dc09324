import type { Static } from 'typebox'
import type { AuthUser } from '../../lib/auth.ts'
import type { AppContext } from '../../lib/context.ts'
import { Forbidden, NotFound } from '../../lib/errors.ts'
import type { PageParams } from '../../lib/pagination.ts'
import {
  assertCustomerMayCancel,
  type Booker,
  cancelledMessage,
  lockBooking,
  previewCancellation,
  transition,
} from '../booking-core/index.ts'
import { createCourtBooking } from './create.ts'
import { loadBooking, loadBookings } from './queries.ts'
import { bookingOwnership, listBookingIds, parseId } from './repository.ts'
import type { Booking } from './resource.ts'
import type { CreateBody, ListQuery } from './schemas.ts'

// The customer's side of court bookings: list, create, show, cancel.

export const CANCELLED_BY_CUSTOMER = 'Cancelled by the customer'

export async function listMyBookings(
  ctx: AppContext,
  user: AuthUser,
  query: Static<typeof ListQuery>,
  page: PageParams,
): Promise<{ items: Booking[]; total: number }> {
  const { ids, total } = await listBookingIds(ctx.db, { userId: user.id, status: query.status, date: query.date }, page)
  return { items: await loadBookings(ctx, ids), total }
}

export async function createMyBooking(
  ctx: AppContext,
  user: AuthUser,
  input: Static<typeof CreateBody>,
): Promise<Booking> {
  // The caller's account names the booking; the response embeds it as `user`.
  const booker: Booker = {
    type: 'online',
    userId: user.id,
    customerName: user.name,
    customerPhone: user.phone,
    createdBy: user.id,
  }
  return createCourtBooking(ctx, { ...input, customer_phone: null }, booker)
}

/** The booking's id when the caller owns it: 404 for an unknown id, 403 for someone else's booking. */
export async function ownedId(ctx: AppContext, user: AuthUser, rawId: string): Promise<number> {
  const id = parseId(rawId)
  if (id === undefined) throw new NotFound()
  const row = await bookingOwnership(ctx.db, id)
  if (!row) throw new NotFound()
  if (row.user_id !== user.id) throw new Forbidden()
  return id
}

export async function showMyBooking(ctx: AppContext, user: AuthUser, rawId: string): Promise<Booking> {
  return loadBooking(ctx, await ownedId(ctx, user, rawId))
}

/**
 * The customer cancels their own booking. A completed one is 403 (the contract); other states that
 * cannot be cancelled (already cancelled, playing, no-show, or started) are 422. A paid booking
 * cancelled at least the venue's free_cancellation_hours before its start is refunded to the wallet
 * (what is still refundable on its payments). `message` states the amount credited or why none.
 */
export async function cancelMyBooking(
  ctx: AppContext,
  user: AuthUser,
  rawId: string,
  reason: string | undefined,
): Promise<{ booking: Booking; message: string; refund: number }> {
  const id = await ownedId(ctx, user, rawId)
  const outcome = await ctx.db.transaction().execute(async (trx) => {
    const booking = (await lockBooking(trx, 'court', id))!
    assertCustomerMayCancel(booking, ctx.clock.now(), ctx.zone)
    return transition(ctx, trx, booking, 'cancel', {
      reason: reason?.trim() || CANCELLED_BY_CUSTOMER,
      by: 'customer',
    })
  })
  return { booking: await loadBooking(ctx, id), message: cancelledMessage(outcome.note), refund: outcome.refund }
}

/** GET /bookings/{booking}/cancellation: what cancelling now would refund, for the owner only. */
export async function previewMyCancellation(ctx: AppContext, user: AuthUser, rawId: string) {
  return previewCancellation(ctx.db, 'court', await ownedId(ctx, user, rawId), ctx.clock.now(), ctx.zone)
}
