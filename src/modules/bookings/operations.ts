import { sql } from 'kysely'
import type { AuthUser } from '../../lib/auth.ts'
import type { AppContext } from '../../lib/context.ts'
import type { Executor } from '../../lib/db.ts'
import { Invalid, Unprocessable } from '../../lib/errors.ts'
import { formatMoney } from '../../lib/money.ts'
import { localToInstant, toHHmm } from '../../lib/time.ts'
import { releaseCoupon } from '../coupons/service.ts'
import { notify } from '../notifications/service.ts'
import { refundBookingToWallet } from '../payments/records.ts'
import { insertPayment, newReference } from '../payments/repository.ts'
import { type BookingKind, bookingTable, recordBookingPayment } from './payable.ts'
import { type BookingStatus, type StaffTarget, transitionError } from './state.ts'

// Changes to a booking that court and indoor-game bookings share: cancellation (with refund,
// coupon release and notification), hold expiry, staff status changes, extra charges and payments
// recorded at the desk. Each runs inside the caller's transaction.

export const HOLD_EXPIRED_REASON = 'Payment not received'
export const NOT_PAYABLE = 'This booking cannot be paid.'
/** How many expired holds the sweep cancels per transaction. */
export const EXPIRY_BATCH = 200

export interface LockedBooking {
  id: number
  booking_number: string
  user_id: number | null
  venue_id: number
  status: BookingStatus
  date: string
  start_time: string
  total_amount: number
  paid_amount: number
}

/** Row-locks a booking of either kind (FOR UPDATE); undefined when the id does not exist. */
export async function lockBooking(trx: Executor, kind: BookingKind, id: number): Promise<LockedBooking | undefined> {
  const row = await trx
    .selectFrom(bookingTable(kind))
    .select([
      'id',
      'booking_number',
      'user_id',
      'venue_id',
      'status',
      'date',
      'start_time',
      'total_amount',
      'paid_amount',
    ])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst()
  return row ? { ...row, status: row.status as BookingStatus } : undefined
}

/** Whether the booking's venue-local start time has passed. */
export function hasStarted(b: { date: string; start_time: string }, now = new Date()): boolean {
  return localToInstant(b.date, b.start_time).getTime() <= now.getTime()
}

export interface CancelOptions {
  reason: string | null
  /** customer: refund only inside the free-cancellation window; venue: always refund what was paid. */
  by: 'customer' | 'venue' | 'system'
}

/**
 * Cancels a live booking (the caller has locked it and checked who may): sets status, reason and
 * time, clears the hold, gives back an unpaid booking's coupon, refunds to the wallet what the
 * policy allows, and sends BookingCancelled. Returns the refunded amount in paisa.
 */
export async function cancelLocked(
  ctx: AppContext,
  trx: Executor,
  kind: BookingKind,
  booking: LockedBooking,
  opts: CancelOptions,
): Promise<number> {
  const now = new Date()
  await trx
    .updateTable(bookingTable(kind))
    .set({ status: 'cancelled', cancel_reason: opts.reason, cancelled_at: now, hold_expires_at: null, updated_at: now })
    .where('id', '=', booking.id)
    .execute()
  if (booking.paid_amount === 0) await releaseCoupon(trx, kind, booking.id)
  let refund = 0
  if (booking.paid_amount > 0 && booking.user_id !== null) {
    refund = (await refundAllowed(trx, booking, opts.by, now)) ? booking.paid_amount : 0
    if (refund > 0) {
      await refundBookingToWallet(
        ctx,
        trx,
        kind,
        booking.id,
        booking.user_id,
        refund,
        `Refund for cancelled booking ${booking.booking_number}`,
      )
    }
  }
  if (booking.user_id !== null) {
    const refunded = refund > 0 ? ` Rs ${formatMoney(refund)} has been credited to your wallet.` : ''
    await notify(
      ctx,
      booking.user_id,
      'BookingCancelled',
      {
        message: `Your booking ${booking.booking_number} on ${booking.date} at ${toHHmm(booking.start_time)} was cancelled.${refunded}`,
        booking_id: booking.id,
        booking_type: kind,
        booking_number: booking.booking_number,
        venue_id: booking.venue_id,
        cancel_reason: opts.reason,
        refund_amount: formatMoney(refund),
      },
      trx,
    )
  }
  return refund
}

async function refundAllowed(trx: Executor, b: LockedBooking, by: CancelOptions['by'], now: Date): Promise<boolean> {
  if (by !== 'customer') return true
  const venue = await trx
    .selectFrom('venues')
    .select('free_cancellation_hours')
    .where('id', '=', b.venue_id)
    .executeTakeFirstOrThrow()
  const hoursLeft = (localToInstant(b.date, b.start_time).getTime() - now.getTime()) / 3_600_000
  return hoursLeft >= venue.free_cancellation_hours
}

/**
 * Cancels the pending bookings whose payment hold has run out ("Payment not received"), optionally
 * only those of one court / indoor game on one date. Rows another transaction holds are skipped by
 * the job (SKIP LOCKED) but waited for when a booking is being created on that slot. Returns the
 * number cancelled.
 */
export async function expireHolds(
  ctx: AppContext,
  trx: Executor,
  kind: BookingKind,
  scope?: { resourceId: number; date: string },
): Promise<number> {
  const resource = kind === 'court' ? 'court_id' : 'indoor_game_id'
  const table = sql.table(bookingTable(kind))
  const filter = scope ? sql`AND ${sql.ref(resource)} = ${scope.resourceId} AND date = ${scope.date}` : sql``
  // The sweep takes a bounded batch per transaction and skips rows a payment step holds right now.
  const lock = scope ? sql`FOR UPDATE` : sql`LIMIT ${EXPIRY_BATCH} FOR UPDATE SKIP LOCKED`
  const due = await sql<{ id: number }>`
    SELECT id FROM ${table}
    WHERE status = 'pending' AND hold_expires_at < now() ${filter}
    ORDER BY id ${lock}`.execute(trx)
  let count = 0
  for (const { id } of due.rows) {
    const b = await lockBooking(trx, kind, id)
    if (b?.status !== 'pending') continue
    await cancelLocked(ctx, trx, kind, b, { reason: HOLD_EXPIRED_REASON, by: 'system' })
    count++
  }
  return count
}

/** A staff status change (PATCH …/status): only the state machine's transitions, else 422. */
export async function changeStatus(
  ctx: AppContext,
  trx: Executor,
  kind: BookingKind,
  booking: LockedBooking,
  target: StaffTarget,
  reason: string | null,
): Promise<void> {
  const error = transitionError(booking.status, target, hasStarted(booking))
  if (error) throw new Invalid('status', error)
  if (target === 'cancelled') {
    await cancelLocked(ctx, trx, kind, booking, { reason: reason ?? 'Cancelled by the venue', by: 'venue' })
    return
  }
  await trx
    .updateTable(bookingTable(kind))
    .set({ status: target, hold_expires_at: null, updated_at: new Date() })
    .where('id', '=', booking.id)
    .execute()
}

/** An extra session charge: raises extras_total, total_amount and so balance_due. */
export async function addCharge(
  trx: Executor,
  kind: BookingKind,
  booking: LockedBooking,
  input: { description: string; amount: number },
  staff: AuthUser,
): Promise<void> {
  if (booking.status === 'cancelled' || booking.status === 'no_show') {
    throw new Unprocessable(`A ${booking.status.replace('_', '-')} booking cannot take charges.`)
  }
  if (input.amount <= 0) throw new Invalid('amount', 'The amount field must be at least 0.01.')
  await trx
    .insertInto('booking_charges')
    .values({
      booking_type: kind,
      booking_id: booking.id,
      description: input.description,
      amount: input.amount,
      created_by: staff.id,
    })
    .execute()
  await trx
    .updateTable(bookingTable(kind))
    .set({
      extras_total: sql`extras_total + ${input.amount}`,
      total_amount: sql`total_amount + ${input.amount}`,
      updated_at: new Date(),
    })
    .where('id', '=', booking.id)
    .execute()
}

export interface DeskPayment {
  amount: number
  method: 'cash' | 'gateway_1' | 'gateway_2' | 'gateway_3'
  reference?: string | null
}

/**
 * A payment taken at the venue (cash, or a gateway payment made outside the app, with its
 * reference): amount ≤ balance_due; a pending booking that becomes fully paid is confirmed.
 */
export async function recordDeskPayment(
  ctx: AppContext,
  trx: Executor,
  kind: BookingKind,
  booking: LockedBooking,
  input: DeskPayment,
  staff: AuthUser,
) {
  if (booking.status === 'cancelled' || booking.status === 'no_show') throw new Unprocessable(NOT_PAYABLE)
  const due = Math.max(booking.total_amount - booking.paid_amount, 0)
  if (due === 0) throw new Unprocessable('This booking is already paid.')
  if (input.amount <= 0) throw new Invalid('amount', 'The amount field must be at least 0.01.')
  if (input.amount > due) {
    throw new Invalid('amount', `The amount must not be greater than the balance due of ${formatMoney(due)}.`)
  }
  const payment = await insertPayment(trx, {
    user_id: booking.user_id,
    payable_type: kind,
    payable_id: booking.id,
    method: input.method,
    amount: input.amount,
    status: 'completed',
    reference: newReference(),
    gateway_transaction_id: input.reference ?? null,
    recorded_by: staff.id,
    completed_at: new Date(),
  })
  await recordBookingPayment(ctx, trx, kind, booking.id, input.amount)
  return payment
}
