import type { Static } from 'typebox'
import type { AuthUser } from '../../lib/auth.ts'
import type { AppContext } from '../../lib/context.ts'
import type { Executor } from '../../lib/db.ts'
import { Forbidden, NotFound } from '../../lib/errors.ts'
import type { PageParams } from '../../lib/pagination.ts'
import {
  assertCustomerMayCancel,
  cancelledMessage,
  lockBooking,
  previewCancellation,
  transition,
} from '../booking-core/index.ts'
import { createIndoorBooking } from './create.ts'
import { indoorBookingResource, indoorBookingResources } from './queries.ts'
import { findBooking, listBookings, parseId } from './repository.ts'
import type { IndoorBookingRow } from './resource.ts'
import type { CreateBody, ListQuery } from './schemas.ts'

// The customer side of indoor bookings: list, create, show, cancel.

export const CANCELLED_BY_CUSTOMER = 'Cancelled by the customer'

/** The booking of a path id; 404 when the id is malformed or unknown. */
export async function bookingOr404(db: Executor, rawId: string): Promise<IndoorBookingRow> {
  const id = parseId(rawId)
  const booking = id === undefined ? undefined : await findBooking(db, id)
  if (!booking) throw new NotFound()
  return booking
}

/** The caller's own booking: 404 for an unknown id, 403 for someone else's. */
export async function ownedBooking(ctx: AppContext, user: AuthUser, rawId: string): Promise<IndoorBookingRow> {
  const booking = await bookingOr404(ctx.db, rawId)
  if (booking.user_id !== user.id) throw new Forbidden()
  return booking
}

export async function listMine(ctx: AppContext, user: AuthUser, page: PageParams, query: Static<typeof ListQuery>) {
  const filter = { userId: user.id, status: query.status, date: query.date }
  const { rows, total } = await listBookings(ctx.db, filter, page, 'newest')
  return { items: await indoorBookingResources(ctx, ctx.db, rows), total }
}

export async function createMine(ctx: AppContext, user: AuthUser, input: Static<typeof CreateBody>) {
  // The signed-in user carries its name and phone (src/lib/auth.ts).
  const row = await createIndoorBooking(ctx, input, {
    type: 'online',
    userId: user.id,
    customerName: user.name,
    customerPhone: user.phone,
    createdBy: user.id,
  })
  return indoorBookingResource(ctx, ctx.db, row)
}

/**
 * Only the booking's customer may read it (contract, Authentication rule 9), as for court bookings:
 * venue staff and admins see bookings through the venue's booking list.
 */
export async function showBooking(ctx: AppContext, user: AuthUser, rawId: string) {
  return indoorBookingResource(ctx, ctx.db, await ownedBooking(ctx, user, rawId))
}

/**
 * The customer cancels their own booking, as for court bookings: someone else's or a completed
 * one is 403; other states that cannot be cancelled (cancelled, playing, no-show) or a booking that
 * has started are 422. A paid booking cancelled at least the venue's free_cancellation_hours before
 * its start is refunded to the wallet (what is still refundable); BookingCancelled is sent.
 */
export async function cancelMine(ctx: AppContext, user: AuthUser, rawId: string, reason: string | undefined) {
  const found = await ownedBooking(ctx, user, rawId)
  const outcome = await ctx.db.transaction().execute(async (trx) => {
    const booking = (await lockBooking(trx, 'indoor', found.id))!
    assertCustomerMayCancel(booking, ctx.clock.now(), ctx.zone)
    return transition(ctx, trx, booking, 'cancel', {
      reason: reason?.trim() || CANCELLED_BY_CUSTOMER,
      by: 'customer',
    })
  })
  const booking = await indoorBookingResource(ctx, ctx.db, (await findBooking(ctx.db, found.id))!)
  return { booking, message: cancelledMessage(outcome.note), refund: outcome.refund }
}

/** GET /indoor-game-bookings/{id}/cancellation: what cancelling now would refund (the booking's customer only). */
export async function previewMine(ctx: AppContext, user: AuthUser, rawId: string) {
  const found = await ownedBooking(ctx, user, rawId)
  return previewCancellation(ctx.db, 'indoor', found.id, ctx.clock.now(), ctx.zone)
}
