import { formatMoney } from '../../lib/money.ts'
import type { Zone } from '../../lib/zone.ts'
import type { CouponRecord } from './repository.ts'

// The Coupon resource and the coupon_usage object of a booking: pure mapping, times on the venue
// wall clock.

export function couponResource(c: CouponRecord, zone: Zone) {
  return {
    id: c.id,
    venue_id: c.venue_id,
    code: c.code,
    type: c.type,
    value: formatMoney(c.value),
    max_discount: c.max_discount === null ? null : formatMoney(c.max_discount),
    min_amount: c.min_amount === null ? null : formatMoney(c.min_amount),
    starts_at: zone.format(c.starts_at),
    expires_at: zone.format(c.expires_at),
    usage_limit: c.usage_limit,
    per_user_limit: c.per_user_limit,
    used_count: c.used_count,
    is_active: c.is_active,
    created_at: zone.format(c.created_at)!,
  }
}

/** The coupon_usage object of a booking resource. */
export function couponUsage(
  row: { id: number; code: string; type: string; discount_amount: number; created_at: Date },
  zone: Zone,
): { id: number; code: string; type: string; discount_amount: string; created_at: string | null } {
  return {
    id: row.id,
    code: row.code,
    type: row.type,
    discount_amount: formatMoney(row.discount_amount),
    created_at: zone.format(row.created_at),
  }
}
