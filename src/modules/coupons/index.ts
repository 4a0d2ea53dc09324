// What other modules may use of coupons (the coupons owner keeps the full list).
export { resolveVenueId } from './repository.ts'
export { checkCoupon, redeemCoupon, releaseCoupon } from './service.ts'
