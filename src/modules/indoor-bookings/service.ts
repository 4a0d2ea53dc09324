import type { FastifyRequest } from 'fastify'
import type { AuthUser } from '../../lib/auth.ts'
import type { AppContext } from '../../lib/context.ts'
import type { Executor } from '../../lib/db.ts'
import { Forbidden, NotFound } from '../../lib/errors.ts'
import { formatMoney } from '../../lib/money.ts'
import { type PageParams, paginated } from '../../lib/pagination.ts'
import { localToInstant, toHHmm } from '../../lib/time.ts'
import { type BookingStatus, customerMayCancel } from '../bookings/state.ts'
import { notify } from '../notifications/service.ts'
import { refundBookingToWallet } from '../payments/records.ts'
import { venueRoleOf } from '../venues/access.ts'
import { createIndoorBooking, type NewIndoorBooking } from './create.ts'
import { findBooking, listBookings, parseId, setStatus } from './repository.ts'
import { type IndoorBookingRow, indoorBookingResource, indoorBookingResources } from './resource.ts'

// The customer side of indoor bookings: list, create, show, cancel.

/** The booking of a path id; 404 when the id is malformed or unknown. */
export async function bookingOr404(db: Executor, rawId: string, lock = false): Promise<IndoorBookingRow> {
  const id = parseId(rawId)
  const booking = id === undefined ? undefined : await findBooking(db, id, lock)
  if (!booking) throw new NotFound()
  return booking
}

/** Whether the booking's start (venue-local) has passed. */
export const hasStarted = (b: { date: string; start_time: string }, now = new Date()) =>
  localToInstant(b.date, b.start_time).getTime() <= now.getTime()

export async function listMine(ctx: AppContext, req: FastifyRequest, user: AuthUser, page: PageParams) {
  const { rows, total } = await listBookings(ctx.db, { userId: user.id }, page, 'newest')
  return paginated(req, ctx.config.appUrl, await indoorBookingResources(ctx, ctx.db, rows), total, page)
}

export async function createMine(ctx: AppContext, user: AuthUser, input: NewIndoorBooking) {
  const row = await createIndoorBooking(ctx, input, {
    type: 'online',
    userId: user.id,
    customerName: user.name,
    createdBy: user.id,
  })
  return indoorBookingResource(ctx, ctx.db, row)
}

/** The booking's customer may read it, and so may the owner, managers and staff of its venue. */
export async function showBooking(ctx: AppContext, user: AuthUser, rawId: string) {
  const booking = await bookingOr404(ctx.db, rawId)
  if (booking.user_id !== user.id && (await venueRoleOf(ctx.db, user, booking.venue_id)) === null) {
    throw new Forbidden()
  }
  return indoorBookingResource(ctx, ctx.db, booking)
}

/**
 * Refund owed when a booking is cancelled: everything paid when the venue cancels, or when the
 * customer cancels at least free_cancellation_hours before the start; otherwise nothing.
 */
export async function refundOnCancel(
  ctx: AppContext,
  trx: Executor,
  booking: IndoorBookingRow,
  by: 'customer' | 'venue',
): Promise<number> {
  if (booking.user_id === null || booking.paid_amount <= 0) return 0
  if (by === 'customer') {
    const venue = await trx
      .selectFrom('venues')
      .select('free_cancellation_hours')
      .where('id', '=', booking.venue_id)
      .executeTakeFirstOrThrow()
    const hoursLeft = (localToInstant(booking.date, booking.start_time).getTime() - Date.now()) / 3_600_000
    if (hoursLeft < venue.free_cancellation_hours) return 0
  }
  const refundable = await trx
    .selectFrom('payments')
    .select((eb) => eb.fn.sum<number>(eb('amount', '-', eb.ref('refunded_amount'))).as('left'))
    .where('payable_type', '=', 'indoor')
    .where('payable_id', '=', booking.id)
    .where('status', 'in', ['completed', 'partially_refunded'])
    .executeTakeFirstOrThrow()
  const amount = Math.min(booking.paid_amount, Number(refundable.left ?? 0))
  await refundBookingToWallet(
    ctx,
    trx,
    'indoor',
    booking.id,
    booking.user_id,
    amount,
    `Refund for cancelled booking ${booking.booking_number}`,
  )
  return amount
}

/** Tells the customer (if the booking has an account) that the booking was cancelled. */
export async function notifyCancelled(ctx: AppContext, trx: Executor, booking: IndoorBookingRow, refund: number) {
  if (booking.user_id === null) return
  const refundText = refund > 0 ? ` Rs ${formatMoney(refund)} has been refunded to your wallet.` : ''
  await notify(
    ctx,
    booking.user_id,
    'BookingCancelled',
    {
      message: `Your indoor game booking ${booking.booking_number} on ${booking.date} at ${toHHmm(booking.start_time)} has been cancelled.${refundText}`,
      booking_id: booking.id,
      booking_type: 'indoor',
      booking_number: booking.booking_number,
      venue_id: booking.venue_id,
      refund_amount: formatMoney(refund),
    },
    trx,
  )
}

/** The customer cancels their own pending or confirmed booking before it starts. */
export async function cancelMine(ctx: AppContext, user: AuthUser, rawId: string, reason: string | undefined) {
  const id = (await bookingOr404(ctx.db, rawId)).id
  return ctx.db.transaction().execute(async (trx) => {
    const booking = (await findBooking(trx, id, true))!
    if (booking.user_id !== user.id) throw new Forbidden()
    if (!customerMayCancel(booking.status as BookingStatus, hasStarted(booking))) throw new Forbidden()
    const refund = await refundOnCancel(ctx, trx, booking, 'customer')
    const cancelled = await setStatus(trx, booking.id, 'cancelled', reason?.trim() || null)
    await notifyCancelled(ctx, trx, cancelled, refund)
    return indoorBookingResource(ctx, trx, cancelled)
  })
}
