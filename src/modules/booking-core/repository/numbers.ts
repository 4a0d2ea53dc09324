import { type RawBuilder, sql } from 'kysely'
import { type Executor, LOCK_CLASS } from '../../../lib/db.ts'
import { type UnpaidHold, unpaidHold } from './unpaid.ts'

export type NumberKind = 'BK' | 'IG'

const SEQUENCE = { BK: 'booking_number_bk', IG: 'booking_number_ig' } as const
/** Advisory lock class of each kind's resource (courts, indoor games); the object is its id. */
const RESOURCE_LOCK = { BK: LOCK_CLASS.courtBooking, IG: LOCK_CLASS.indoorBooking } as const

/**
 * The booked court's (or game's) transaction-scoped advisory lock, taken before the new row
 * reaches the exclusion constraint: bookings of one court (or game) commit one after another, while
 * other courts go on in parallel. Without it, two transactions inserting overlapping rows at the
 * same moment can each wait for the other inside the constraint check, a deadlock PostgreSQL breaks
 * only after deadlock_timeout (1 s) by failing one of them (docs/architecture.md, "Double booking").
 * allocatedNumber evaluates it in the INSERT; an INSERT that stops using allocatedNumber must take it.
 */
export function bookedResourceLock(kind: NumberKind, resourceId: number): RawBuilder<void> {
  return sql<void>`pg_advisory_xact_lock(${sql.lit(RESOURCE_LOCK[kind])}, ${resourceId}::int)`
}

/**
 * The SQL expression of the next booking number of a kind: `BK-2026-000123` (courts) or
 * `IG-2026-000123` (indoor games), the year being the venue-local year of creation.
 *
 * The sequence part comes from a PostgreSQL sequence (migrations/004), so numbers are unique and
 * increasing under any concurrency, across instances, without a lock held until commit. A booking
 * refused by the exclusion constraint burns its number: numbers are unique and increasing, not
 * gap-free (docs/architecture.md, "Booking numbers": a gap-free counter serialised every commit).
 *
 * Evaluating it also takes bookedResourceLock in the same statement.
 */
export function allocatedNumber(kind: NumberKind, year: number, resourceId: number): RawBuilder<string> {
  return allocatedNumberWithPrefix(kind, numberPrefix(kind, year), resourceId)
}

/** A number's prefix: `BK-2026-`. */
export const numberPrefix = (kind: NumberKind, year: number) => `${kind}-${year}-`

/**
 * allocatedNumber with its prefix given as a value (the same SQL), for a statement reused with its
 * arguments (ReusedStatements): the prefix is then one of them.
 */
export function allocatedNumberWithPrefix(kind: NumberKind, prefix: string, resourceId: number): RawBuilder<string> {
  return sql<string>`(SELECT ${prefix} || lpad(n::text, greatest(6, length(n::text)), '0')
    FROM (SELECT nextval(${sql.lit(SEQUENCE[kind])}) AS n, ${bookedResourceLock(kind, resourceId)}) AS next_number)`
}

/**
 * allocatedNumberWithPrefix for a customer's own booking, counted against their unpaid cap first:
 * the number's subquery reads FROM unpaidHold (the customer's lock, the count, CSU01 at the cap),
 * so the customer's lock is taken before the court's, as every other path takes them, and a refused
 * booking uses no number. The whole cap check is then part of the INSERT: no round trip of its own.
 */
export function allocatedNumberAfterHold(
  kind: NumberKind,
  prefix: string,
  resourceId: number,
  hold: UnpaidHold,
): RawBuilder<string> {
  return sql<string>`(SELECT ${prefix} || lpad(n::text, greatest(6, length(n::text)), '0')
    FROM (SELECT nextval(${sql.lit(SEQUENCE[kind])}) AS n, ${bookedResourceLock(kind, resourceId)}
      FROM ${unpaidHold(hold)} AS held) AS next_number)`
}

/**
 * Takes the advisory lock of the court (or game) booking `bookingId` is on, before its row lock
 * (lockBooking, lockExpiredHold). A transaction that frees a slot may then book it for the
 * waitlist; with the lock taken first, two transactions changing bookings of one court run one
 * after the other, so neither's INSERT waits inside the constraint check for a row the other
 * changed while holding the lock the other needs (a deadlock).
 */
export async function lockBookedResourceOf(trx: Executor, kind: NumberKind, bookingId: number): Promise<void> {
  await sql`SELECT ${resourceLockOf('pg_advisory_xact_lock', kind, bookingId)}`.execute(trx)
}

/**
 * lockBookedResourceOf without waiting: false when another transaction holds the court's (game's)
 * lock, so a sweep skips that booking this round instead of queueing behind a long insert.
 */
export async function tryLockBookedResourceOf(trx: Executor, kind: NumberKind, bookingId: number): Promise<boolean> {
  const { rows } = await sql<{
    locked: boolean
  }>`SELECT ${resourceLockOf('pg_try_advisory_xact_lock', kind, bookingId)} AS locked`.execute(trx)
  return rows[0]?.locked === true
}

/** `fn(class, court or game id)` for booking `bookingId`, read from its row. */
function resourceLockOf(
  fn: 'pg_advisory_xact_lock' | 'pg_try_advisory_xact_lock',
  kind: NumberKind,
  bookingId: number,
) {
  const table = kind === 'BK' ? 'bookings' : 'indoor_game_bookings'
  const column = kind === 'BK' ? 'court_id' : 'indoor_game_id'
  return sql`${sql.raw(fn)}(${sql.lit(RESOURCE_LOCK[kind])}, (SELECT ${sql.ref(column)} FROM ${sql.table(table)} WHERE id = ${bookingId})::int)`
}
