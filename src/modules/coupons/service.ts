import { sql } from 'kysely'
import type { Executor } from '../../lib/db.ts'
import { Invalid } from '../../lib/errors.ts'
import { formatMoney } from '../../lib/money.ts'
import { formatDateTime } from '../../lib/time.ts'

// INTERFACE (implemented by the coupons work). Bookings call these inside their transaction.

export type BookingKind = 'court' | 'indoor'

export interface RedeemInput {
  code: string
  userId: number | null
  venueId: number
  amount: number // base amount in paisa
  bookingKind: BookingKind
  bookingId: number
}

export interface CouponRow {
  id: number
  venue_id: number | null
  code: string
  type: string
  value: number
  max_discount: number | null
  min_amount: number | null
  starts_at: Date | null
  expires_at: Date | null
  usage_limit: number | null
  per_user_limit: number | null
  used_count: number
  is_active: boolean
}

export const COUPON_MESSAGES = {
  invalid: 'The coupon code is invalid.',
  notStarted: 'This coupon is not valid yet.',
  expired: 'This coupon has expired.',
  otherVenue: 'This coupon cannot be used at this venue.',
  usedUp: 'This coupon has reached its usage limit.',
  perUser: 'You have already used this coupon the maximum number of times.',
  minAmount: (min: number) => `This coupon needs a booking amount of at least ${formatMoney(min)}.`,
} as const

/**
 * The discount a coupon gives on `amount` paisa. `value` is stored in hundredths: paisa for a
 * fixed coupon, hundredths of a percent for a percent coupon (1250 = 12.50 %). Never more than the
 * amount itself.
 */
export function discountFor(coupon: Pick<CouponRow, 'type' | 'value' | 'max_discount'>, amount: number): number {
  let discount = coupon.type === 'percent' ? Math.floor((amount * coupon.value) / 10000) : coupon.value
  if (coupon.max_discount !== null && coupon.max_discount !== undefined)
    discount = Math.min(discount, coupon.max_discount)
  return Math.max(0, Math.min(discount, amount))
}

/**
 * Checks every rule of a coupon for one booking amount and returns the discount, or throws
 * Invalid(field, message). With `lock`, the coupon row is locked FOR UPDATE so that the per-user
 * count read here stays true until the caller's transaction ends.
 */
export async function checkCoupon(
  db: Executor,
  input: { code: string; userId: number | null; venueId: number; amount: number },
  field: string,
  lock = false,
): Promise<{ coupon: CouponRow; discount: number }> {
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
    .where('code', '=', input.code.trim())
  if (lock) q = q.forUpdate()
  const coupon = (await q.executeTakeFirst()) as CouponRow | undefined
  if (!coupon?.is_active) throw new Invalid(field, COUPON_MESSAGES.invalid)
  const now = Date.now()
  if (coupon.starts_at && new Date(coupon.starts_at).getTime() > now)
    throw new Invalid(field, COUPON_MESSAGES.notStarted)
  if (coupon.expires_at && new Date(coupon.expires_at).getTime() <= now)
    throw new Invalid(field, COUPON_MESSAGES.expired)
  if (coupon.venue_id !== null && coupon.venue_id !== input.venueId)
    throw new Invalid(field, COUPON_MESSAGES.otherVenue)
  if (coupon.min_amount !== null && input.amount < coupon.min_amount) {
    throw new Invalid(field, COUPON_MESSAGES.minAmount(coupon.min_amount))
  }
  if (coupon.usage_limit !== null && coupon.used_count >= coupon.usage_limit)
    throw new Invalid(field, COUPON_MESSAGES.usedUp)
  if (coupon.per_user_limit !== null && input.userId !== null) {
    const used = await db
      .selectFrom('coupon_usages')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('coupon_id', '=', coupon.id)
      .where('user_id', '=', input.userId)
      .executeTakeFirstOrThrow()
    if (Number(used.n) >= coupon.per_user_limit) throw new Invalid(field, COUPON_MESSAGES.perUser)
  }
  return { coupon, discount: discountFor(coupon, input.amount) }
}

/**
 * Validates the coupon for this booking, records its usage (limits hold under concurrency) and
 * returns the discount in paisa. Throws Invalid('coupon_code', message) when it cannot be used.
 */
export async function redeemCoupon(trx: Executor, input: RedeemInput): Promise<{ couponId: number; discount: number }> {
  // The row lock serialises redemptions of one coupon, so the per-user count cannot be raced.
  const { coupon, discount } = await checkCoupon(trx, input, 'coupon_code', true)
  // The conditional UPDATE is what makes usage_limit hold even without the lock.
  const bumped = await trx
    .updateTable('coupons')
    .set({ used_count: sql`used_count + 1`, updated_at: new Date() })
    .where('id', '=', coupon.id)
    .where((eb) => eb.or([eb('usage_limit', 'is', null), eb('used_count', '<', eb.ref('usage_limit'))]))
    .returning('id')
    .executeTakeFirst()
  if (!bumped) throw new Invalid('coupon_code', COUPON_MESSAGES.usedUp)
  await trx
    .insertInto('coupon_usages')
    .values({
      coupon_id: coupon.id,
      user_id: input.userId,
      booking_type: input.bookingKind,
      booking_id: input.bookingId,
      discount_amount: discount,
    })
    .execute()
  return { couponId: coupon.id, discount }
}

/** Gives the usage back (a booking cancelled before payment). No-op when none was used. */
export async function releaseCoupon(trx: Executor, kind: BookingKind, bookingId: number): Promise<void> {
  const usage = await trx
    .deleteFrom('coupon_usages')
    .where('booking_type', '=', kind)
    .where('booking_id', '=', bookingId)
    .returning('coupon_id')
    .executeTakeFirst()
  if (!usage) return
  await trx
    .updateTable('coupons')
    .set({ used_count: sql`greatest(used_count - 1, 0)`, updated_at: new Date() })
    .where('id', '=', usage.coupon_id)
    .execute()
}

/** The coupon_usage object of a booking resource, or null. */
export async function couponUsageFor(
  db: Executor,
  kind: BookingKind,
  bookingId: number,
): Promise<{ id: number; code: string; type: string; discount_amount: string; created_at: string | null } | null> {
  const row = await db
    .selectFrom('coupon_usages as u')
    .innerJoin('coupons as c', 'c.id', 'u.coupon_id')
    .select(['u.id', 'c.code', 'c.type', 'u.discount_amount', 'u.created_at'])
    .where('u.booking_type', '=', kind)
    .where('u.booking_id', '=', bookingId)
    .executeTakeFirst()
  if (!row) return null
  return {
    id: row.id,
    code: row.code,
    type: row.type,
    discount_amount: formatMoney(row.discount_amount),
    created_at: formatDateTime(row.created_at),
  }
}
