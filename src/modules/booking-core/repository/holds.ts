import { type RawBuilder, sql } from 'kysely'
import type { Executor } from '../../../lib/db.ts'
import { type BookingKind, bookingTable } from './bookings.ts'

// What the holds of a customer's own bookings read and write (booking-core/holds.ts): whether the
// customer has a verified phone, the held bookings that verifying one extends, and a new hold.

/** Whether the user has a verified phone (users.phone_verified_at, set by the OTP verify). */
export async function hasVerifiedPhone(db: Executor, userId: number): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('id', '=', userId)
    .where('phone_verified_at', 'is not', null)
    .executeTakeFirst()
  return row !== undefined
}

/**
 * A new booking's hold chosen inside its INSERT by the customer's phone at that moment: `verified`
 * when user `userId` has a verified phone, else `unverified` (both computed by holdUntil). The
 * booking INSERT of a customer's own booking writes this instead of a value (bookings/repository.ts),
 * so reading the phone costs no statement of its own.
 */
export function holdByPhone(userId: number, verified: unknown, unverified: unknown): RawBuilder<Date> {
  return sql<Date>`CASE WHEN EXISTS (SELECT 1 FROM users AS hold_user
      WHERE hold_user.id = ${userId} AND hold_user.phone_verified_at IS NOT NULL)
    THEN ${verified}::timestamptz ELSE ${unverified}::timestamptz END`
}

/** A pending booking of the customer's own whose hold a verified phone may extend. */
export interface ExtendableHold {
  kind: BookingKind
  /** The court or game. */
  resource: number
  id: number
  payment_method: string | null
  /** A week of a series after its first (held until its start when the customer is verified). */
  later_week: boolean
}

/**
 * The customer's own pending online bookings (court and indoor) still held at `now` that a verified
 * customer holds until their start: paying cash, or a later week of a series. A waitlist offer
 * keeps its window and is left out. Read without locks: the caller locks each and checks again,
 * in this order (court before indoor, by court or game, then booking), so two customers verifying
 * at once take the courts' locks in one order.
 */
export async function extendableHolds(db: Executor, userId: number, now: Date): Promise<ExtendableHold[]> {
  const own = sql`b.user_id = ${userId} AND b.created_by = ${userId} AND b.type = 'online'
    AND b.status = 'pending' AND b.hold_expires_at > ${now}`
  const { rows } = await sql<ExtendableHold>`
    SELECT 'court' AS kind, b.court_id AS resource, b.id, b.payment_method,
           (s.id IS NOT NULL AND b.date > s.start_date) AS later_week
      FROM bookings b
      LEFT JOIN booking_series s ON s.id = b.series_id
     WHERE ${own}
       AND (b.payment_method = 'cash' OR (s.id IS NOT NULL AND b.date > s.start_date))
       AND NOT EXISTS (SELECT 1 FROM waitlist_entries w WHERE w.offer_booking_id = b.id AND w.status = 'offered')
    UNION ALL
    SELECT 'indoor' AS kind, b.indoor_game_id AS resource, b.id, b.payment_method, false AS later_week
      FROM indoor_game_bookings b
     WHERE ${own} AND b.payment_method = 'cash'
     ORDER BY kind, resource, id`.execute(db)
  return rows
}

/** Sets a pending booking's hold. */
export async function setHold(trx: Executor, kind: BookingKind, id: number, hold: Date, now: Date): Promise<void> {
  await trx
    .updateTable(bookingTable(kind))
    .set({ hold_expires_at: hold, updated_at: now })
    .where('id', '=', id)
    .execute()
}
