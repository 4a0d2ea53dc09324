// What other modules may use of coupons: the checks and usage bookkeeping bookings run inside
// their transaction.

export { CouponTypeEnum } from './schemas.ts'
export { checkCoupon, redeemCoupon, releaseCoupon, retakeCoupon } from './service.ts'
