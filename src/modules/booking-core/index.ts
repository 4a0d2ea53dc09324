// The booking stack of both kinds (courts, indoor games), parameterised by kind, offered to
// bookings, indoor-bookings and payments: kinds, the state machine, payable bookings, who may act on
// a booking and its route hooks, the customer's cancel and the cancel-reason rule, the desk steps
// (deskStep), bookers, cancellation, hold expiry, booking numbers, payment methods and the payment
// rows of bookings. It imports no booking module nor payments (docs/architecture.md, "Booking core
// and money direction").

export { deskBookingId, deskVenueId, ownedBookingId } from './access.ts'
export { type Booker, deskBooker, onlineBooker } from './booker.ts'
export {
  assertCustomerMayCancel,
  CancelAnswer,
  CancellationPreviewSchema,
  cancelledMessage,
  hasStarted,
  previewCancellation,
} from './cancellation.ts'
export {
  approveCashBack,
  type CashBack,
  type CashBackActor,
  cashBackResource,
  cashBacksOf,
  payCashBack,
} from './cash-backs.ts'
export { isOverlapViolation } from './conflicts.ts'
export { CANCELLED_BY_CUSTOMER, cancelAsCustomer, previewAsCustomer } from './customer.ts'
export {
  chargeAtDesk,
  type DeskPaymentInput,
  deskStep,
  openGatewayPaymentAtDesk,
  payAtDesk,
  type Reload,
  setStatusAtDesk,
  venueBookingIds,
} from './desk.ts'
export { applyCoupon } from './discounts.ts'
export {
  BookingKindEnum,
  BookingStatusChangeEnum,
  BookingStatusEnum,
  BookingTypeEnum,
  DeskBookingTypeEnum,
  DeskPaymentMethodEnum,
  GatewayMethodEnum,
  PaymentMethodEnum,
  PaymentStatusEnum,
} from './enums.ts'
export { expireDueHolds, holdSweep, insertPastLapsedHolds } from './expiry.ts'
export {
  completeGatewayRefund,
  GATEWAY_REFUND_JOB,
  type GatewayRefund,
  gatewayRefundResource,
  gatewayRefundsOf,
  isCounterGateway,
  REFUND_REFERENCE_TAKEN,
} from './gateway-refunds.ts'
export {
  bookingHeldAsVerified,
  extendHoldsOfVerified,
  type HoldOf,
  holdsAsVerified,
  holdUntil,
  shortenHoldsOfUnverified,
} from './holds.ts'
export { bookingAccessHooks } from './hooks.ts'
export {
  DESK_PAYMENT_METHODS,
  GATEWAY_METHODS,
  type GatewayMethod,
  PAYMENT_METHODS,
  type PaymentMethod,
} from './methods.ts'
export {
  addCharge,
  assertNotOwnBooking,
  assertPositiveAmount,
  changeStatus,
  deskAmount,
  OWN_BOOKING_PAYMENT,
  recordDeskPayment,
} from './operations.ts'
export {
  type BookingKind,
  bookingTable,
  type LockedBooking,
  lockBooking,
  setPaymentIntent,
} from './payable.ts'
export {
  ledgerReferenceType,
  newPayment,
  type PaymentRecord,
  paymentsFor,
  returnPayment,
  toPaymentRecord,
  VENUE_BALANCE_SHORT,
} from './payment-records.ts'
export {
  completionEvent,
  PAYMENT_EVENTS,
  PAYMENT_STATUSES,
  PAYMENT_TRANSITIONS,
  type PaymentEvent,
  type PaymentStatus,
  paymentMayMove,
} from './payment-state.ts'
export { type Arrival, type Received, receivePayment } from './receive.ts'
export { REMINDER_LEAD_HOURS, reminderSweep, sendReminders } from './reminders.ts'
export { type CashBackDetailRow, cashBacksOfPeriod } from './repository/cash-backs.ts'
export { lockGatewayRefund, markGatewayRefundSent, noteGatewayRefundError } from './repository/gateway-refunds.ts'
export { holdByPhone, setHold } from './repository/holds.ts'
export { type BookingListFilter, bookingIdPage } from './repository/lists.ts'
export {
  allocatedNumber,
  allocatedNumberAfterHold,
  allocatedNumberWithPrefix,
  bookedResourceLock,
  numberPrefix,
} from './repository/numbers.ts'
export {
  completeGatewayPayment,
  type GatewayConfirmation,
  movePayment,
  type PaymentColumns,
  type PaymentMove,
  type PaymentRow,
} from './repository/payments.ts'
export { lockCustomerHolds, type UnpaidHold, unpaidHoldRefused } from './repository/unpaid.ts'
export { checkBookingRules, clearNoShows, NO_SHOW_DAYS, type NoShowStanding, noShowStanding } from './rules.ts'
export {
  CancelBody,
  type CancelInput,
  ChargeBody,
  type ChargeInput,
  cancelReason,
  DeskPaymentBody,
  StatusBody,
  type StatusChange,
} from './schemas.ts'
export {
  bookingErrors,
  bookingMoney,
  bookingMoneyFields,
  type Charge,
  ChargeSchema,
  CouponUsageSchema,
  chargesOf,
  durationHours,
  loadBookingExtras,
  PaymentRecordSchema,
  STATUS_CHANGE_DOC,
} from './shared.ts'
export { BOOKING_EVENTS, BOOKING_STATUSES, type BookingEvent, type BookingStatus, STAFF_TARGETS } from './state.ts'
export { HOLD_EXPIRED_REASON, type TransitionOutcome, transition } from './transitions.ts'
export {
  assertMayHoldUnpaid,
  capsApply,
  offerWithinCap,
  tooManyUnpaid,
  type UnpaidCapCheck,
  unpaidHoldOf,
} from './unpaid-caps.ts'
