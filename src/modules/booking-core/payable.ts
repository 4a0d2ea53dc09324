import type { AppContext } from '../../lib/context.ts'
import type { Executor } from '../../lib/db.ts'
import { toHHmm } from '../../lib/time.ts'
import { notify } from '../notifications/index.ts'
import type { BookingStatus } from './state.ts'

// What payments need from bookings, for both kinds: court bookings live in `bookings`, indoor-game
// bookings in `indoor_game_bookings`. Both tables share the columns used here.

export type BookingKind = 'court' | 'indoor'

/** A booking of either kind as the steps that change it read it, under its row lock. */
export interface LockedBooking {
  kind: BookingKind
  id: number
  booking_number: string
  user_id: number | null
  venue_id: number
  status: BookingStatus
  total_amount: number // paisa, including extra charges, after discount
  paid_amount: number // paisa
  date: string
  start_time: string
}

/** The columns of a LockedBooking, for every query that locks a booking to change it. */
export const LOCKED_BOOKING_COLUMNS = [
  'id',
  'booking_number',
  'user_id',
  'venue_id',
  'status',
  'date',
  'start_time',
  'total_amount',
  'paid_amount',
] as const

/** The table that holds bookings of a kind. */
export const bookingTable = (kind: BookingKind) => (kind === 'court' ? 'bookings' : 'indoor_game_bookings')

/**
 * Reads and row-locks (FOR UPDATE) a booking of either kind, for a payment, a staff operation, a
 * cancellation or an expiry: the one way to lock a booking. Undefined when the id does not exist.
 */
export async function lockBooking(trx: Executor, kind: BookingKind, id: number): Promise<LockedBooking | undefined> {
  if (!Number.isSafeInteger(id) || id < 1) return undefined
  const row = await trx
    .selectFrom(bookingTable(kind))
    .select(LOCKED_BOOKING_COLUMNS)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst()
  return row ? { kind, ...row, status: row.status as BookingStatus } : undefined
}

/**
 * Adds a received payment to the booking (paid_amount += amount). A pending booking that becomes
 * fully paid turns confirmed, its hold is cleared, and BookingConfirmed /
 * IndoorGameBookingConfirmed is sent (in the same transaction).
 */
export async function recordBookingPayment(
  ctx: AppContext,
  trx: Executor,
  kind: BookingKind,
  id: number,
  amountPaisa: number,
): Promise<void> {
  const before = await lockBooking(trx, kind, id)
  if (!before) throw new Error(`recordBookingPayment: ${kind} booking ${id} does not exist`)
  const paid = before.paid_amount + amountPaisa
  const confirms = before.status === 'pending' && paid >= before.total_amount
  await trx
    .updateTable(bookingTable(kind))
    .set({
      paid_amount: paid,
      updated_at: new Date(),
      ...(confirms ? { status: 'confirmed', hold_expires_at: null } : {}),
    })
    .where('id', '=', id)
    .execute()
  if (confirms && before.user_id !== null) {
    const court = kind === 'court'
    await notify(
      ctx,
      before.user_id,
      court ? 'BookingConfirmed' : 'IndoorGameBookingConfirmed',
      {
        message: `Your ${court ? 'booking' : 'indoor game booking'} ${before.booking_number} on ${before.date} at ${toHHmm(before.start_time)} is confirmed.`,
        booking_id: before.id,
        booking_type: kind,
        booking_number: before.booking_number,
        venue_id: before.venue_id,
        date: before.date,
        start_time: toHHmm(before.start_time),
      },
      trx,
    )
  }
}

/** When a pending booking with this payment method stops holding its slot. */
export function holdUntil(ctx: AppContext, method: string, date: string, startTime: string, now: Date): Date {
  if (method === 'cash') return ctx.zone.instant(date, startTime)
  return new Date(now.getTime() + ctx.config.bookingHoldMinutes * 60_000)
}

/**
 * Records how the customer intends to pay. gateway or wallet: the slot is held for
 * BOOKING_HOLD_MINUTES from now; cash: held until the booking's start.
 */
export async function setPaymentIntent(
  ctx: AppContext,
  trx: Executor,
  kind: BookingKind,
  id: number,
  method: string,
): Promise<void> {
  const booking = await lockBooking(trx, kind, id)
  if (!booking) throw new Error(`setPaymentIntent: ${kind} booking ${id} does not exist`)
  // Only a pending booking is held; a confirmed one keeps its slot without a hold.
  const hold =
    booking.status === 'pending' ? holdUntil(ctx, method, booking.date, booking.start_time, ctx.clock.now()) : null
  await trx
    .updateTable(bookingTable(kind))
    .set({ payment_method: method, hold_expires_at: hold, updated_at: new Date() })
    .where('id', '=', id)
    .execute()
}
