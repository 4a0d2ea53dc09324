import { sql } from 'kysely'
import type { Executor } from '../../../lib/db.ts'

// What a customer holds unpaid (docs/bookings.md, "Unpaid bookings and series"): their own pending
// online bookings of both kinds that have not started and whose payment hold has not run out. Of a
// weekly series only its next unpaid week counts, so a series counts once.

/** Advisory lock class of a customer's unpaid bookings; the object is the user id. */
const CUSTOMER_LOCK_CLASS = 1003

/**
 * The customer's transaction-scoped advisory lock: every transaction that may add an unpaid booking
 * for them (court, indoor, a series) takes it before counting, so two parallel requests at the cap
 * count one after the other and the second sees the first's booking. It is taken before any court
 * or game lock (the INSERT's), never after one, so it cannot deadlock with them.
 */
export async function lockCustomerHolds(trx: Executor, userId: number): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(${sql.lit(CUSTOMER_LOCK_CLASS)}, ${userId}::int)`.execute(trx)
}

/** How much a customer holds unpaid at `now`: bookings (a series counted once) and series with unpaid weeks. */
export interface UnpaidHeld {
  bookings: number
  series: number
}

/**
 * Counts what the customer holds unpaid at `now` (`wall`: now on the venue wall clock,
 * "YYYY-MM-DD HH:mm:ss"). Bookings staff made (offline, walk-in, or anyone's but the customer's own)
 * are not counted.
 */
export async function unpaidHeld(db: Executor, userId: number, now: Date, wall: string): Promise<UnpaidHeld> {
  const live = (alias: string) =>
    sql`${sql.ref(`${alias}.user_id`)} = ${userId} AND ${sql.ref(`${alias}.status`)} = 'pending'
      AND ${sql.ref(`${alias}.type`)} = 'online' AND ${sql.ref(`${alias}.created_by`)} = ${sql.ref(`${alias}.user_id`)}
      AND (${sql.ref(`${alias}.hold_expires_at`)} IS NULL OR ${sql.ref(`${alias}.hold_expires_at`)} > ${now})
      AND ${sql.ref(`${alias}.date`)} >= ${wall.slice(0, 10)}::date
      AND (${sql.ref(`${alias}.date`)} + ${sql.ref(`${alias}.start_time`)}) > ${wall}::timestamp`
  const { rows } = await sql<{ single: string | number; series: string | number; indoor: string | number }>`
    WITH court AS (SELECT b.series_id FROM bookings b WHERE ${live('b')})
    SELECT
      (SELECT count(*) FROM court WHERE series_id IS NULL) AS single,
      (SELECT count(DISTINCT series_id) FROM court) AS series,
      (SELECT count(*) FROM indoor_game_bookings i WHERE ${live('i')}) AS indoor`.execute(db)
  const r = rows[0]
  const series = Number(r.series)
  return { bookings: Number(r.single) + series + Number(r.indoor), series }
}
