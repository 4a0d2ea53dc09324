import type { Insertable, Selectable } from 'kysely'
import type { CashUps } from '../../db/types.ts'
import type { Executor } from '../../lib/db.ts'

// Closed cash-ups: one row per venue and venue-local day, never changed once written.

export type CashUpRow = Selectable<CashUps> & { closed_by_name: string | null }

/** The day's closing, if it has been closed. */
export async function findCashUp(db: Executor, venueId: number, date: string): Promise<CashUpRow | undefined> {
  return db
    .selectFrom('cash_ups as c')
    .leftJoin('users as u', 'u.id', 'c.closed_by')
    .selectAll('c')
    .select('u.name as closed_by_name')
    .where('c.venue_id', '=', venueId)
    .where('c.date', '=', date)
    .executeTakeFirst()
}

/**
 * Closes a day: the row, or undefined when the day was already closed. The unique (venue_id, date)
 * constraint decides between two closes at once: the second inserts nothing.
 */
export async function insertCashUp(db: Executor, values: Insertable<CashUps>): Promise<{ id: number } | undefined> {
  return db
    .insertInto('cash_ups')
    .values(values)
    .onConflict((oc) => oc.columns(['venue_id', 'date']).doNothing())
    .returning('id')
    .executeTakeFirst()
}
