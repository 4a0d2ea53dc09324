// Shapes the coupon rules and the coupons repository share.

export type BookingKind = 'court' | 'indoor'

export interface RedeemInput {
  code: string
  userId: number | null
  venueId: number
  amount: number // base amount in paisa
  bookingKind: BookingKind
  bookingId: number
  /** The caller's clock (ctx.clock.now()). */
  now: Date
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
