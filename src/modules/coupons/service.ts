import type { Executor } from '../../lib/db.ts'
import { Invalid } from '../../lib/errors.ts'
import { formatMoney } from '../../lib/money.ts'
import * as repo from './repository.ts'
import type { BookingKind, CouponRow, RedeemInput } from './types.ts'

// The coupon rules bookings run inside their transaction: check, redeem, release.

export type { BookingKind, CouponRow, RedeemInput } from './types.ts'

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
  input: { code: string; userId: number | null; venueId: number; amount: number; now: Date },
  field: string,
  lock = false,
): Promise<{ coupon: CouponRow; discount: number }> {
  const coupon = await repo.findCouponByCode(db, input.code.trim(), lock)
  if (!coupon?.is_active) throw new Invalid(field, COUPON_MESSAGES.invalid)
  // "Now" comes from the caller's clock (ctx.clock).
  const now = input.now.getTime()
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
    const used = await repo.usesByUser(db, coupon.id, input.userId)
    if (used >= coupon.per_user_limit) throw new Invalid(field, COUPON_MESSAGES.perUser)
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
  if (!(await repo.bumpUsage(trx, coupon.id))) throw new Invalid('coupon_code', COUPON_MESSAGES.usedUp)
  await repo.insertUsage(trx, {
    coupon_id: coupon.id,
    user_id: input.userId,
    booking_type: input.bookingKind,
    booking_id: input.bookingId,
    discount_amount: discount,
  })
  return { couponId: coupon.id, discount }
}

/** Gives the usage back (a booking cancelled before payment). No-op when none was used. */
export async function releaseCoupon(trx: Executor, kind: BookingKind, bookingId: number, now: Date): Promise<void> {
  await repo.releaseUsage(trx, kind, bookingId, now)
}

/**
 * A cancelled booking comes back (a late gateway payment): the coupon it had is used again. 'none'
 * when it had no coupon; 'refused' when the coupon has since been used up (usage_limit), by this
 * customer elsewhere (per_user_limit) or deleted, and then nothing changed.
 */
export async function retakeCoupon(
  trx: Executor,
  kind: BookingKind,
  bookingId: number,
): Promise<'none' | 'retaken' | 'refused'> {
  const usage = await repo.releasedUsage(trx, kind, bookingId)
  if (!usage) return 'none'
  // The row lock serialises this with redemptions of the same coupon, as redeemCoupon does.
  const coupon = await repo.lockCoupon(trx, usage.coupon_id)
  if (!coupon) return 'refused'
  if (coupon.per_user_limit !== null && usage.user_id !== null) {
    if ((await repo.usesByUser(trx, coupon.id, usage.user_id)) >= coupon.per_user_limit) return 'refused'
  }
  if (!(await repo.bumpUsage(trx, coupon.id))) return 'refused'
  await repo.unreleaseUsage(trx, usage.id)
  return 'retaken'
}
