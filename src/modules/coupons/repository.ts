import { type Insertable, type Selectable, sql, type Updateable } from 'kysely'
import type { Coupons } from '../../db/types.ts'
import type { Executor } from '../../lib/db.ts'
import { resolveVenue } from '../venues/index.ts'
import type { BookingKind, CouponRow } from './types.ts'

export type CouponRecord = Selectable<Coupons>

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
    .set({ ...values, updated_at: sql`now()` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow()
}

export async function deleteCoupon(db: Executor, id: number) {
  await db.deleteFrom('coupons').where('id', '=', id).execute()
}

/** The live coupon with this code (exact match), locked FOR UPDATE with `lock`. */
export async function findCouponByCode(db: Executor, code: string, lock: boolean): Promise<CouponRow | undefined> {
  let q = db
    .selectFrom('coupons')
    .select([
      'id',
      'venue_id',
      'code',
      'type',
      'value',
      'max_discount',
      'min_amount',
      'starts_at',
      'expires_at',
      'usage_limit',
      'per_user_limit',
      'used_count',
      'is_active',
    ])
    .where('code', '=', code)
  if (lock) q = q.forUpdate()
  return (await q.executeTakeFirst()) as CouponRow | undefined
}

/** How many times the user has used the coupon. */
export async function usesByUser(db: Executor, couponId: number, userId: number): Promise<number> {
  const used = await db
    .selectFrom('coupon_usages')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('coupon_id', '=', couponId)
    .where('user_id', '=', userId)
    .where('released_at', 'is', null)
    .executeTakeFirstOrThrow()
  return Number(used.n)
}

/** One more use, unless usage_limit is reached (the conditional UPDATE holds the limit under concurrency). */
export async function bumpUsage(trx: Executor, couponId: number): Promise<boolean> {
  const bumped = await trx
    .updateTable('coupons')
    .set({ used_count: sql`used_count + 1`, updated_at: sql`now()` })
    .where('id', '=', couponId)
    .where((eb) => eb.or([eb('usage_limit', 'is', null), eb('used_count', '<', eb.ref('usage_limit'))]))
    .returning('id')
    .executeTakeFirst()
  return !!bumped
}

export async function insertUsage(
  trx: Executor,
  values: {
    coupon_id: number
    user_id: number | null
    booking_type: BookingKind
    booking_id: number
    discount_amount: number
  },
): Promise<void> {
  await trx.insertInto('coupon_usages').values(values).execute()
}

/**
 * Releases a booking's live coupon usage and gives the use back; false when it had none. The row
 * stays (released_at set) so a reinstated booking can take the same coupon again (retakeUsage).
 */
export async function releaseUsage(trx: Executor, kind: BookingKind, bookingId: number, now: Date): Promise<boolean> {
  const usage = await trx
    .updateTable('coupon_usages')
    .set({ released_at: now })
    .where('booking_type', '=', kind)
    .where('booking_id', '=', bookingId)
    .where('released_at', 'is', null)
    .returning('coupon_id')
    .executeTakeFirst()
  if (!usage) return false
  await trx
    .updateTable('coupons')
    .set({ used_count: sql`greatest(used_count - 1, 0)`, updated_at: sql`now()` })
    .where('id', '=', usage.coupon_id)
    .execute()
  return true
}

/** A booking's released coupon usage (the coupon it had before it was cancelled), if any. */
export async function releasedUsage(trx: Executor, kind: BookingKind, bookingId: number) {
  return trx
    .selectFrom('coupon_usages')
    .select(['id', 'coupon_id', 'user_id'])
    .where('booking_type', '=', kind)
    .where('booking_id', '=', bookingId)
    .where('released_at', 'is not', null)
    .executeTakeFirst()
}

/** Makes a released usage live again (the caller has counted the use with bumpUsage). */
export async function unreleaseUsage(trx: Executor, usageId: number): Promise<void> {
  await trx.updateTable('coupon_usages').set({ released_at: null }).where('id', '=', usageId).execute()
}

/** Locks a coupon's row (FOR UPDATE) and reads its per-user limit; undefined when it is gone. */
export async function lockCoupon(trx: Executor, couponId: number) {
  return trx
    .selectFrom('coupons')
    .select(['id', 'per_user_limit'])
    .where('id', '=', couponId)
    .forUpdate()
    .executeTakeFirst()
}

/** The coupon usage of a booking with its coupon's code and type. */
export async function findUsage(db: Executor, kind: BookingKind, bookingId: number) {
  return db
    .selectFrom('coupon_usages as u')
    .innerJoin('coupons as c', 'c.id', 'u.coupon_id')
    .select(['u.id', 'c.code', 'c.type', 'u.discount_amount', 'u.created_at'])
    .where('u.booking_type', '=', kind)
    .where('u.booking_id', '=', bookingId)
    .where('u.released_at', 'is', null)
    .executeTakeFirst()
}

/** The venue of a bookable court or indoor game (active, not deleted). */
export async function bookableVenueId(
  db: Executor,
  target: { courtId: number } | { indoorGameId: number },
): Promise<number | undefined> {
  const row =
    'courtId' in target
      ? await db
          .selectFrom('courts')
          .select(['venue_id'])
          .where('id', '=', target.courtId)
          .where('deleted_at', 'is', null)
          .where('is_active', '=', true)
          .executeTakeFirst()
      : await db
          .selectFrom('indoor_games')
          .select(['venue_id'])
          .where('id', '=', target.indoorGameId)
          .where('deleted_at', 'is', null)
          .where('is_active', '=', true)
          .executeTakeFirst()
  return row?.venue_id
}
