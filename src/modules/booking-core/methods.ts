// The ways a booking is paid, spelled out once: schemas, the gateway drivers and the rules read
// them from here.

/** Online gateways: eSewa, Khalti, Fonepay. */
export const GATEWAY_METHODS = ['gateway_1', 'gateway_2', 'gateway_3'] as const
export type GatewayMethod = (typeof GATEWAY_METHODS)[number]

/** How a customer may pay a booking (POST /bookings, POST /payments/initiate). */
export const PAYMENT_METHODS = [...GATEWAY_METHODS, 'wallet', 'cash'] as const
export type PaymentMethod = (typeof PAYMENT_METHODS)[number]

/** What venue staff record at the desk: cash, or a gateway payment made outside the app. */
export const DESK_PAYMENT_METHODS = ['cash', ...GATEWAY_METHODS] as const
export type DeskPaymentMethod = (typeof DESK_PAYMENT_METHODS)[number]
