// What other modules may use of payments: court bookings' reminder/hold sweep asks a gateway about
// a held booking before expiring it. Payments depends on booking-core and wallet, never on bookings
// (docs/architecture.md, "Booking core and money direction").

export { DeskPaymentIntent, startDeskGatewayPayment } from './desk-gateway.ts'
export type { Gateways } from './gateways/index.ts'
export { checkBookingAtGateway } from './reconcile.ts'
export { bookingSummary, paymentResource } from './resource.ts'
export { checkReturnUrl } from './return-url.ts'
export { GatewayStarted, Refused, WalletPaid } from './schemas.ts'
export { startAtGateway } from './service.ts'
