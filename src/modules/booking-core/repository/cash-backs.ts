import type { Insertable, Selectable } from 'kysely'
import type { CashBacks } from '../../../db/types.ts'
import type { Executor } from '../../../lib/db.ts'

// Cash-backs: desk money refunded, due at the venue's desk until staff record handing it over.

export type CashBackRow = Selectable<CashBacks>

export async function insertCashBack(trx: Executor, values: Insertable<CashBacks>): Promise<CashBackRow> {
  return trx.insertInto('cash_backs').values(values).returningAll().executeTakeFirstOrThrow()
}

export async function listCashBacks(db: Executor, venueId: number, status: 'due' | 'paid' | 'all') {
  let q = db.selectFrom('cash_backs').selectAll().where('venue_id', '=', venueId)
  if (status !== 'all') q = q.where('status', '=', status)
  return q.orderBy('created_at', 'desc').orderBy('id', 'desc').execute()
}

/** Marks a due cash-back paid, once: undefined when it is not due (or not this venue's). */
export async function markCashBackPaid(trx: Executor, venueId: number, id: number, by: number, at: Date) {
  return trx
    .updateTable('cash_backs')
    .set({ status: 'paid', paid_by: by, paid_at: at })
    .where('id', '=', id)
    .where('venue_id', '=', venueId)
    .where('status', '=', 'due')
    .returningAll()
    .executeTakeFirst()
}

export async function findCashBack(db: Executor, venueId: number, id: number) {
  return db.selectFrom('cash_backs').selectAll().where('id', '=', id).where('venue_id', '=', venueId).executeTakeFirst()
}
