import { sql } from 'kysely'
import { type Executor, LOCK_CLASS, xactLock } from '../../../lib/db.ts'

// What a customer holds unpaid (docs/bookings.md, "Unpaid bookings and series"): their own pending
// online bookings of both kinds that have not started and whose payment hold has not run out. Of a
// weekly series only its next unpaid week counts, so a series counts once.

/**
 * The customer's transaction-scoped advisory lock: every transaction that may add an unpaid booking
 * for them (court, indoor, a series) takes it before counting, so two parallel requests at the cap
 * count one after the other and the second sees the first's booking. It is taken before any court
 * or game lock (the INSERT's), never after one, so it cannot deadlock with them.
 */
export async function lockCustomerHolds(trx: Executor, userId: number): Promise<void> {
  // courtside_hold_unpaid (migrations/025) takes the same lock in SQL.
  await xactLock(trx, LOCK_CLASS.customerHolds, userId)
}

/** How much a customer holds unpaid at `now`: bookings (a series counted once) and series with unpaid weeks. */
export interface UnpaidHeld {
  bookings: number
  series: number
}

/**
 * Counts what the customer holds unpaid at `now` (`wall`: now on the venue wall clock,
 * "YYYY-MM-DD HH:mm:ss"): courtside_unpaid_held (migrations/025), the one definition the booking
 * INSERT's cap (unpaidHold below) counts with too. Bookings staff made (offline, walk-in, or
 * anyone's but the customer's own) are not counted.
 */
export async function unpaidHeld(db: Executor, userId: number, now: Date, wall: string): Promise<UnpaidHeld> {
  const { rows } = await sql<{ bookings: string | number; series: string | number }>`
    SELECT bookings, series FROM courtside_unpaid_held(${userId}, ${now}, ${wall}::timestamp)`.execute(db)
  return { bookings: Number(rows[0].bookings), series: Number(rows[0].series) }
}

/** The arguments of unpaidHold: whose cap, its limit, and now (as an instant and on the venue wall clock). */
export interface UnpaidHold {
  userId: number
  max: number
  now: Date
  wall: string
}

/**
 * A FROM item that takes the customer's lock (lockCustomerHolds' class), counts what they hold
 * unpaid, and raises SQLSTATE CSU01 (the count in its detail) when one more would pass `max`
 * (courtside_hold_unpaid, migrations/025). The booking INSERT puts it before the court's lock, so a
 * customer's booking is counted and inserted in one statement (bookings/repository.ts).
 */
export function unpaidHold(hold: UnpaidHold) {
  return sql`courtside_hold_unpaid(${hold.userId}, ${hold.max}::int, ${hold.now}, ${hold.wall}::timestamp)`
}

/** The count in a CSU01 error raised by unpaidHold (one more would pass the cap); undefined for any other error. */
export function unpaidHoldRefused(error: unknown): number | undefined {
  const e = error as { code?: unknown; detail?: unknown } | null
  if (e?.code !== 'CSU01') return undefined
  return Number(e.detail)
}
