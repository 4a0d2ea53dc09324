import type { FastifyRequest } from 'fastify'
import type { AuthUser } from '../../lib/auth.ts'
import type { AppContext } from '../../lib/context.ts'
import { Forbidden, NotFound, Unprocessable } from '../../lib/errors.ts'
import { pageParams, paginated } from '../../lib/pagination.ts'
import { type Booker, createCourtBooking, type NewBooking } from './create.ts'
import { cancelLocked, hasStarted, lockBooking } from './operations.ts'
import { listBookingIds, parseId } from './repository.ts'
import { type Booking, loadBooking, loadBookings } from './resource.ts'

// The customer's side of court bookings: list, create, show, cancel.

export const CANCELLED_BY_CUSTOMER = 'Cancelled by the customer'

export interface ListQuery {
  page?: number
  per_page?: number
  status?: string
  date?: string
}

export async function listMyBookings(ctx: AppContext, req: FastifyRequest, user: AuthUser, query: ListQuery) {
  const page = pageParams(query)
  const { ids, total } = await listBookingIds(ctx.db, { userId: user.id, status: query.status, date: query.date }, page)
  const items = await loadBookings(ctx, ids)
  return paginated(req, ctx.config.appUrl, items, total, page)
}

export async function createMyBooking(ctx: AppContext, user: AuthUser, input: NewBooking): Promise<Booking> {
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
  const row = await ctx.db.selectFrom('bookings').select(['id', 'user_id']).where('id', '=', id).executeTakeFirst()
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
 * cancelled at least the venue's free_cancellation_hours before its start is refunded to the wallet.
 */
export async function cancelMyBooking(
  ctx: AppContext,
  user: AuthUser,
  rawId: string,
  reason: string | undefined,
): Promise<Booking> {
  const id = await ownedId(ctx, user, rawId)
  await ctx.db.transaction().execute(async (trx) => {
    const booking = (await lockBooking(trx, 'court', id))!
    if (booking.status === 'completed') throw new Forbidden()
    if (booking.status !== 'pending' && booking.status !== 'confirmed') {
      throw new Unprocessable(`A ${booking.status.replace('_', '-')} booking cannot be cancelled.`)
    }
    if (hasStarted(booking)) throw new Unprocessable('A booking that has started cannot be cancelled.')
    await cancelLocked(ctx, trx, 'court', booking, { reason: reason?.trim() || CANCELLED_BY_CUSTOMER, by: 'customer' })
  })
  return loadBooking(ctx, id)
}
