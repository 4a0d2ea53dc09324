import type { Insertable, Updateable } from 'kysely'
import type { DB } from '../../../db/types.ts'
import type { Executor } from '../../../lib/db.ts'

// Rows of a court's weekly schedule, pricing rules and maintenance blocks.

export const scheduleRows = (db: Executor, courtId: number) =>
  db.selectFrom('court_schedules').selectAll().where('court_id', '=', courtId).orderBy('day_of_week').execute()

/** Replaces the court's weekly schedule with `values`. */
export async function replaceSchedule(db: Executor, courtId: number, values: Insertable<DB['court_schedules']>[]) {
  await db.deleteFrom('court_schedules').where('court_id', '=', courtId).execute()
  if (values.length) await db.insertInto('court_schedules').values(values).execute()
}

export const pricingRows = (db: Executor, courtId: number) =>
  db
    .selectFrom('pricing_rules')
    .selectAll()
    .where('court_id', '=', courtId)
    .orderBy('day_of_week', (ob) => ob.nullsFirst())
    .orderBy('start_time')
    .orderBy('id')
    .execute()

export const insertPricingRule = (db: Executor, values: Insertable<DB['pricing_rules']>) =>
  db.insertInto('pricing_rules').values(values).returningAll().executeTakeFirstOrThrow()

/** The court's rule with that id. */
export const findPricingRule = (db: Executor, courtId: number, ruleId: number) =>
  db.selectFrom('pricing_rules').selectAll().where('id', '=', ruleId).where('court_id', '=', courtId).executeTakeFirst()

export const updatePricingRuleRow = (db: Executor, ruleId: number, set: Updateable<DB['pricing_rules']>) =>
  db.updateTable('pricing_rules').set(set).where('id', '=', ruleId).returningAll().executeTakeFirstOrThrow()

/** Deletes the court's rule; false when there was none. */
export async function deletePricingRuleRow(db: Executor, courtId: number, ruleId: number): Promise<boolean> {
  const res = await db
    .deleteFrom('pricing_rules')
    .where('id', '=', ruleId)
    .where('court_id', '=', courtId)
    .executeTakeFirst()
  return Number(res.numDeletedRows) !== 0
}

/** The court's blocks on `on.date`, or from `on.from` on. */
export async function blockRows(db: Executor, courtId: number, on: { date: string } | { from: string }) {
  let q = db.selectFrom('court_blocks').selectAll().where('court_id', '=', courtId)
  q = 'date' in on ? q.where('date', '=', on.date) : q.where('date', '>=', on.from)
  return q.orderBy('date').orderBy('start_time').orderBy('id').execute()
}

export const insertBlock = (db: Executor, values: Insertable<DB['court_blocks']>) =>
  db.insertInto('court_blocks').values(values).returningAll().executeTakeFirstOrThrow()

/** Deletes the court's block; false when there was none. */
export async function deleteBlockRow(db: Executor, courtId: number, blockId: number): Promise<boolean> {
  const res = await db
    .deleteFrom('court_blocks')
    .where('id', '=', blockId)
    .where('court_id', '=', courtId)
    .executeTakeFirst()
  return Number(res.numDeletedRows) !== 0
}
