import { sql } from 'kysely'
import type { Executor } from '../../../lib/db.ts'
import { dueRows, type SweepRow } from '../../../lib/sweeps.ts'
import type { BookingStatus } from '../state.ts'
import { lockBookedResourceOf, tryLockBookedResourceOf } from './numbers.ts'

// The booking rows both kinds share the columns of: court bookings live in `bookings`, indoor-game
// bookings in `indoor_game_bookings`. Locks, the changes staff operations, payments, cancellation
// and expiry make, and the due-hold lookups of the sweep.

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
  /** 'online' (the customer's own, a series week), 'offline' or 'walkin' (made at the desk). */
  type: string
  /** A pending booking's payment hold end; null when none runs. */
  hold_expires_at: Date | null
  created_by: number | null
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
  'type',
  'hold_expires_at',
  'created_by',
] as const

/** The table that holds bookings of a kind. */
export const bookingTable = (kind: BookingKind) => (kind === 'court' ? 'bookings' : 'indoor_game_bookings')

/**
 * Reads and row-locks (FOR UPDATE) a booking of either kind, for a payment, a staff operation, a
 * cancellation or an expiry: the one way to lock a booking. Undefined when the id does not exist.
 */
export async function lockBooking(trx: Executor, kind: BookingKind, id: number): Promise<LockedBooking | undefined> {
  if (!Number.isSafeInteger(id) || id < 1) return undefined
  await lockResourceOf(trx, kind, id)
  const row = await trx
    .selectFrom(bookingTable(kind))
    .select(LOCKED_BOOKING_COLUMNS)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst()
  return row ? { kind, ...row, status: row.status as BookingStatus } : undefined
}

/**
 * The court's (or game's) advisory lock, before the booking's row lock: a transaction that changes
 * a booking (a cancel frees its slot, which the waitlist then books in the same transaction) and an
 * INSERT on the same court take their locks in one order, court first, so they never deadlock
 * (docs/architecture.md, "Double booking"; lockBookedResourceOf).
 */
function lockResourceOf(trx: Executor, kind: BookingKind, id: number) {
  return lockBookedResourceOf(trx, kind === 'court' ? 'BK' : 'IG', id)
}

/** Locks a booking only if it still is pending with a hold that passed before `now`. */
export async function lockExpiredHold(
  trx: Executor,
  kind: BookingKind,
  id: number,
  now: Date,
  skipLocked: boolean,
): Promise<LockedBooking | undefined> {
  // A sweep (skipLocked) passes over a booking whose court is locked by a running transaction (a
  // series insert, a settle) and takes it next round; an inline expiry waits like any change.
  if (skipLocked) {
    if (!(await tryLockBookedResourceOf(trx, kind === 'court' ? 'BK' : 'IG', id))) return undefined
  } else await lockResourceOf(trx, kind, id)
  let query = trx
    .selectFrom(bookingTable(kind))
    .select(LOCKED_BOOKING_COLUMNS)
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where('hold_expires_at', '<', now)
    .forUpdate()
  if (skipLocked) query = query.skipLocked()
  const row = await query.executeTakeFirst()
  return row ? { kind, ...row, status: row.status as BookingStatus } : undefined
}

/** Due holds of one kind after id `afterId`, oldest id first, leaving out those in back-off. */
export async function dueHolds(
  db: Executor,
  kind: BookingKind,
  sweep: string,
  now: Date,
  afterId: number,
  limit: number,
): Promise<SweepRow[]> {
  const due = sql<boolean>`b.status = 'pending' AND b.hold_expires_at < ${now}`
  return dueRows(db, sweep, bookingTable(kind), due, afterId, limit)
}

/** Ids of the pending bookings on one court / indoor game and date whose hold passed before `now`. */
export async function expiredHoldIdsOn(
  trx: Executor,
  kind: BookingKind,
  scope: { resourceId: number; date: string },
  now: Date,
): Promise<number[]> {
  const resource = kind === 'court' ? 'court_id' : 'indoor_game_id'
  const { rows } = await sql<{ id: number }>`
    SELECT id FROM ${sql.table(bookingTable(kind))}
    WHERE status = 'pending' AND hold_expires_at < ${now}
      AND ${sql.ref(resource)} = ${scope.resourceId} AND date = ${scope.date}
    ORDER BY id`.execute(trx)
  return rows.map((r) => Number(r.id))
}

/** Sets paid_amount (payable.ts; a booking paid in full is then confirmed by transition). */
export async function setPaidAmount(trx: Executor, kind: BookingKind, id: number, paid: number, now: Date) {
  await trx.updateTable(bookingTable(kind)).set({ paid_amount: paid, updated_at: now }).where('id', '=', id).execute()
}

/** Lowers paid_amount by money returned to the customer (a refund): paid_amount is net of refunds. */
export async function lowerPaidAmount(trx: Executor, kind: BookingKind, id: number, refunded: number, now: Date) {
  return trx
    .updateTable(bookingTable(kind))
    .set({
      paid_amount: sql`paid_amount - ${refunded}`,
      refunded_amount: sql`refunded_amount + ${refunded}`,
      updated_at: now,
    })
    .where('id', '=', id)
    .returning(['paid_amount', 'total_amount', 'venue_id'])
    .executeTakeFirstOrThrow()
}

/** The discount a coupon gave a new booking, and its total after it. */
export async function setDiscount(trx: Executor, kind: BookingKind, id: number, discount: number, total: number) {
  await trx
    .updateTable(bookingTable(kind))
    .set({ discount_amount: discount, total_amount: total })
    .where('id', '=', id)
    .execute()
}

export async function setPaymentMethod(
  trx: Executor,
  kind: BookingKind,
  id: number,
  method: string,
  hold: Date | null,
  now: Date,
): Promise<void> {
  // A waitlist offer keeps its window (WAITLIST_OFFER_MINUTES): choosing cash or starting another
  // gateway payment may shorten its hold, never stretch it, so the next in line is not kept waiting.
  const offered = sql<boolean>`EXISTS (SELECT 1 FROM waitlist_entries w
    WHERE w.offer_booking_id = ${id} AND w.status = 'offered')`
  const held =
    kind === 'court' && hold !== null
      ? sql<Date>`CASE WHEN ${offered} THEN LEAST(hold_expires_at, ${hold}) ELSE ${hold} END`
      : hold
  await trx
    .updateTable(bookingTable(kind))
    .set({ payment_method: method, hold_expires_at: held, updated_at: now })
    .where('id', '=', id)
    .execute()
}

export async function markCancelled(
  trx: Executor,
  kind: BookingKind,
  id: number,
  reason: string | null,
  now: Date,
): Promise<void> {
  await trx
    .updateTable(bookingTable(kind))
    .set({ status: 'cancelled', cancel_reason: reason, cancelled_at: now, hold_expires_at: null, updated_at: now })
    .where('id', '=', id)
    .execute()
}

export async function setStatus(
  trx: Executor,
  kind: BookingKind,
  id: number,
  status: BookingStatus,
  now: Date,
): Promise<void> {
  await trx
    .updateTable(bookingTable(kind))
    .set({ status, hold_expires_at: null, updated_at: now })
    .where('id', '=', id)
    .execute()
}

/** An extra session charge row, and the booking's extras_total and total_amount raised by it. */
export async function insertCharge(
  trx: Executor,
  kind: BookingKind,
  bookingId: number,
  charge: { description: string; amount: number; createdBy: number },
  now: Date,
): Promise<void> {
  await trx
    .insertInto('booking_charges')
    .values({
      booking_type: kind,
      booking_id: bookingId,
      description: charge.description,
      amount: charge.amount,
      created_by: charge.createdBy,
    })
    .execute()
  await trx
    .updateTable(bookingTable(kind))
    .set({
      extras_total: sql`extras_total + ${charge.amount}`,
      total_amount: sql`total_amount + ${charge.amount}`,
      updated_at: now,
    })
    .where('id', '=', bookingId)
    .execute()
}

/** The cancel reason of a booking (only a hold the sweep expired may be reinstated). */
export async function cancelReasonOf(trx: Executor, kind: BookingKind, id: number): Promise<string | null> {
  const row = await trx
    .selectFrom(bookingTable(kind))
    .select('cancel_reason')
    .where('id', '=', id)
    .executeTakeFirstOrThrow()
  return row.cancel_reason
}

/**
 * Puts a cancelled booking back to pending (no hold: its payment has arrived). The exclusion
 * constraint refuses it (23P01) when another live booking now overlaps; run it under a savepoint.
 */
export async function reinstateRow(trx: Executor, kind: BookingKind, id: number, now: Date): Promise<void> {
  await trx
    .updateTable(bookingTable(kind))
    .set({ status: 'pending', cancel_reason: null, cancelled_at: null, hold_expires_at: null, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'cancelled')
    .execute()
}

/** The columns a cancellation preview reads; throws when the booking does not exist. */
export async function cancellableBooking(db: Executor, kind: BookingKind, id: number) {
  const row = await db
    .selectFrom(bookingTable(kind))
    .select(['id', 'user_id', 'venue_id', 'status', 'date', 'start_time', 'paid_amount'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow()
  return { ...row, status: row.status as BookingStatus }
}

/** The venue's free-cancellation window in hours. */
export async function freeCancellationHours(db: Executor, venueId: number): Promise<number> {
  const venue = await db
    .selectFrom('venues')
    .select('free_cancellation_hours')
    .where('id', '=', venueId)
    .executeTakeFirstOrThrow()
  return venue.free_cancellation_hours
}
