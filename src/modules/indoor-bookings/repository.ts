import type { Insertable } from 'kysely'
import type { IndoorGameBookings } from '../../db/types.ts'
import type { Executor } from '../../lib/db.ts'
import type { PageParams } from '../../lib/pagination.ts'
import type { IndoorBookingRow } from './resource.ts'

// Queries on indoor_game_bookings.

export const HOLD_EXPIRED_REASON = 'Payment not received'

/** Postgres: the row violates an exclusion constraint (here: the slot overlaps a live booking). */
export function isOverlapViolation(err: unknown): boolean {
  const e = err as { code?: string; constraint?: string } | null
  return !!e && (e.code === '23P01' || e.constraint === 'indoor_bookings_no_overlap')
}

/** A booking id from the path: a positive integer that fits bigint, else undefined (→ 404). */
export function parseId(raw: string): number | undefined {
  if (!/^\d{1,15}$/.test(raw)) return undefined
  const id = Number(raw)
  return id >= 1 ? id : undefined
}

export async function findBooking(db: Executor, id: number, lock = false): Promise<IndoorBookingRow | undefined> {
  let q = db.selectFrom('indoor_game_bookings').selectAll().where('id', '=', id)
  if (lock) q = q.forUpdate()
  return q.executeTakeFirst()
}

export async function insertBooking(db: Executor, values: Insertable<IndoorGameBookings>): Promise<IndoorBookingRow> {
  return db.insertInto('indoor_game_bookings').values(values).returningAll().executeTakeFirstOrThrow()
}

/**
 * Cancels the pending bookings of one game and date whose payment hold has run out, so their slot
 * is free again for the booking about to be inserted in the same transaction.
 */
export async function cancelExpiredHolds(db: Executor, indoorGameId: number, date: string): Promise<void> {
  const now = new Date()
  await db
    .updateTable('indoor_game_bookings')
    .set({ status: 'cancelled', cancel_reason: HOLD_EXPIRED_REASON, cancelled_at: now, updated_at: now })
    .where('indoor_game_id', '=', indoorGameId)
    .where('date', '=', date)
    .where('status', '=', 'pending')
    .where('hold_expires_at', '<', now)
    .execute()
}

export interface ListFilter {
  userId?: number
  venueId?: number
  date?: string
  status?: string
  indoorGameId?: number
}

/** One page of bookings matching the filter and the total count. */
export async function listBookings(
  db: Executor,
  filter: ListFilter,
  page: PageParams,
  order: 'newest' | 'schedule',
): Promise<{ rows: IndoorBookingRow[]; total: number }> {
  let q = db.selectFrom('indoor_game_bookings')
  if (filter.userId !== undefined) q = q.where('user_id', '=', filter.userId)
  if (filter.venueId !== undefined) q = q.where('venue_id', '=', filter.venueId)
  if (filter.date !== undefined) q = q.where('date', '=', filter.date)
  if (filter.status !== undefined) q = q.where('status', '=', filter.status)
  if (filter.indoorGameId !== undefined) q = q.where('indoor_game_id', '=', filter.indoorGameId)
  const count = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
  const direction = order === 'newest' ? 'desc' : 'asc'
  const rows = await q
    .selectAll()
    .orderBy('date', direction)
    .orderBy('start_time', direction)
    .orderBy('id', direction)
    .limit(page.perPage)
    .offset(page.offset)
    .execute()
  return { rows, total: Number(count.n) }
}

/** Adds an extra session charge: the charge row, and extras_total and total_amount grow by it. */
export async function addCharge(
  db: Executor,
  bookingId: number,
  charge: { description: string; amount: number; createdBy: number },
): Promise<void> {
  await db
    .insertInto('booking_charges')
    .values({
      booking_type: 'indoor',
      booking_id: bookingId,
      description: charge.description,
      amount: charge.amount,
      created_by: charge.createdBy,
    })
    .execute()
  await db
    .updateTable('indoor_game_bookings')
    .set((eb) => ({
      extras_total: eb('extras_total', '+', charge.amount),
      total_amount: eb('total_amount', '+', charge.amount),
      updated_at: new Date(),
    }))
    .where('id', '=', bookingId)
    .execute()
}

/** Sets a new status; cancelled also records the reason and time. */
export async function setStatus(
  db: Executor,
  bookingId: number,
  status: string,
  cancelReason?: string | null,
): Promise<IndoorBookingRow> {
  const now = new Date()
  const cancel = status === 'cancelled' ? { cancel_reason: cancelReason ?? null, cancelled_at: now } : {}
  return db
    .updateTable('indoor_game_bookings')
    .set({ status, ...cancel, hold_expires_at: null, updated_at: now })
    .where('id', '=', bookingId)
    .returningAll()
    .executeTakeFirstOrThrow()
}
