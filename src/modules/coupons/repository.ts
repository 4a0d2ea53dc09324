import type { Insertable, Selectable, Updateable } from 'kysely'
import type { Coupons } from '../../db/types.ts'
import type { Executor } from '../../lib/db.ts'
import { formatMoney } from '../../lib/money.ts'
import { formatDateTime } from '../../lib/time.ts'
import { resolveVenue } from '../venues/index.ts'

export type CouponRecord = Selectable<Coupons>

export function couponResource(c: CouponRecord) {
  return {
    id: c.id,
    venue_id: c.venue_id,
    code: c.code,
    type: c.type,
    value: formatMoney(c.value),
    max_discount: c.max_discount === null ? null : formatMoney(c.max_discount),
    min_amount: c.min_amount === null ? null : formatMoney(c.min_amount),
    starts_at: formatDateTime(c.starts_at),
    expires_at: formatDateTime(c.expires_at),
    usage_limit: c.usage_limit,
    per_user_limit: c.per_user_limit,
    used_count: c.used_count,
    is_active: c.is_active,
    created_at: formatDateTime(c.created_at)!,
  }
}

/**
 * A {venue} path value (a slug or an id, read as every venue route reads it). Undefined when no
 * live venue matches; text that can be neither (a NUL byte, `0x10`) never reaches the database.
 */
export async function resolveVenueId(db: Executor, param: string): Promise<number | undefined> {
  return (await resolveVenue(db, param))?.id
}

export async function listCoupons(db: Executor, venueId: number | null | 'all') {
  let q = db.selectFrom('coupons').selectAll().orderBy('id', 'desc')
  if (venueId === null) q = q.where('venue_id', 'is', null)
  else if (venueId !== 'all') q = q.where('venue_id', '=', venueId)
  return q.execute()
}

export async function findCoupon(db: Executor, id: number) {
  return db.selectFrom('coupons').selectAll().where('id', '=', id).executeTakeFirst()
}

export async function codeTaken(db: Executor, code: string, exceptId?: number) {
  let q = db.selectFrom('coupons').select('id').where('code', '=', code)
  if (exceptId) q = q.where('id', '!=', exceptId)
  return !!(await q.executeTakeFirst())
}

export async function insertCoupon(db: Executor, values: Insertable<Coupons>) {
  return db.insertInto('coupons').values(values).returningAll().executeTakeFirstOrThrow()
}

export async function updateCoupon(db: Executor, id: number, values: Updateable<Coupons>) {
  return db
    .updateTable('coupons')
    .set({ ...values, updated_at: new Date() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow()
}

export async function deleteCoupon(db: Executor, id: number) {
  await db.deleteFrom('coupons').where('id', '=', id).execute()
}
