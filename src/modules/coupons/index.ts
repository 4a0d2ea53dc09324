// What other modules may use of coupons: the checks and usage bookkeeping bookings run inside
// their transaction, and the {venue} key of the staff routes.

export { resolveVenueId } from './repository.ts'
export { checkCoupon, redeemCoupon, releaseCoupon } from './service.ts'
