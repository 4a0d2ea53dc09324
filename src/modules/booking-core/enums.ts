import { namedEnum } from '../../lib/schemas.ts'
import { DESK_PAYMENT_METHODS, GATEWAY_METHODS, PAYMENT_METHODS } from './methods.ts'
import { BOOKING_STATUSES, STAFF_TARGETS } from './state.ts'

// The values both booking kinds share, as named enums: one component each in the OpenAPI document,
// referred to by every field that holds one (docs/openapi.md). `.response` in response schemas,
// `.request` in request schemas.

export const BookingStatusEnum = namedEnum('BookingStatus', BOOKING_STATUSES)
/** The statuses staff may set through PATCH …/status. */
export const BookingStatusChangeEnum = namedEnum('BookingStatusChange', STAFF_TARGETS)
/** How a booking was made: online (by the customer), offline (by phone, entered at the desk) or walkin. */
export const BookingTypeEnum = namedEnum('BookingType', ['online', 'offline', 'walkin'])
/** The booking types of the desk: offline or walkin. */
export const DeskBookingTypeEnum = namedEnum('DeskBookingType', ['offline', 'walkin'])
/** Which kind of booking a payment is for. */
export const BookingKindEnum = namedEnum('BookingKind', ['court', 'indoor'])
export const PaymentMethodEnum = namedEnum('PaymentMethod', PAYMENT_METHODS)
export const DeskPaymentMethodEnum = namedEnum('DeskPaymentMethod', DESK_PAYMENT_METHODS)
export const GatewayMethodEnum = namedEnum('GatewayMethod', GATEWAY_METHODS)
export const PaymentStatusEnum = namedEnum('PaymentStatus', [
  'initiated',
  'completed',
  'failed',
  'refunded',
  'partially_refunded',
])
