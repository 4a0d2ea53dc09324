import type { Executor } from '../../../lib/db.ts'

// Rows of venue_holidays.

export async function listHolidayRows(db: Executor, venueId: number) {
  return db.selectFrom('venue_holidays').selectAll().where('venue_id', '=', venueId).orderBy('date').execute()
}

/** The new holiday, or undefined when the venue already has one on that date. */
export async function insertHoliday(db: Executor, values: { venue_id: number; date: string; name: string }) {
  return db
    .insertInto('venue_holidays')
    .values(values)
    .onConflict((oc) => oc.columns(['venue_id', 'date']).doNothing())
    .returningAll()
    .executeTakeFirst()
}

/** Whether a holiday of the venue was deleted. */
export async function deleteHolidayRow(db: Executor, venueId: number, id: number): Promise<boolean> {
  const res = await db
    .deleteFrom('venue_holidays')
    .where('id', '=', id)
    .where('venue_id', '=', venueId)
    .executeTakeFirst()
  return Number(res.numDeletedRows) > 0
}
