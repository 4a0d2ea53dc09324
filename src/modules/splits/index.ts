// Split payment (docs/payments.md, "Split payment"): what other modules (open matches) may use.
// Every function that changes shares runs in the caller's transaction and takes the booking's lock
// (booking-core's lockBooking) before the shares' row locks.

export { type PayAnswer, payShare, settleSplit, sharePage, splitAsOrganizer } from './pay.ts'
export { shareCounts } from './repository.ts'
export { ShareSchema, SplitSchema, shareStatus } from './resource.ts'
export { SharePaymentMethodEnum } from './schemas.ts'
export {
  equalShares,
  lockShares,
  MAX_SHARES,
  MIN_SHARES,
  paymentArriving,
  payTakenShares,
  releaseShare,
  type ShareMethod,
  type SharePaymentStart,
  type SplitView,
  sharesOf,
  splitBooking,
  type TakenShares,
} from './service.ts'
