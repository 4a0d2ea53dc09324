import { type Static, Type } from 'typebox'
import { MoneyInput, Nullable } from '../../lib/schemas.ts'
import { BookingStatusChangeEnum, DeskPaymentMethodEnum } from './enums.ts'

// Request bodies court and indoor bookings share, so both kinds take the same fields the same way.

const Reason = (description: string) => Type.Optional(Nullable(Type.String({ maxLength: 500, description })))

/** The two names a cancel reason may come under, on every cancel of either kind. */
const reasonFields = {
  cancel_reason: Reason('Stored as the booking’s cancel_reason; wins over reason when both carry text'),
  reason: Reason('Alias of cancel_reason'),
}

/** PATCH …/cancel (the booking's customer), for court and indoor bookings alike. */
export const CancelBody = Type.Object(reasonFields)
export type CancelInput = Static<typeof CancelBody>

/** PATCH …/status (venue staff), for court and indoor bookings alike. */
export const StatusBody = Type.Object({
  status: {
    ...BookingStatusChangeEnum.request,
    description: 'playing, completed, no_show or cancelled (only the state machine’s transitions)',
  },
  ...reasonFields,
})
export type StatusChange = Static<typeof StatusBody>

/** POST …/charges (venue staff): an extra session charge. */
export const ChargeBody = Type.Object({
  description: Type.String({ minLength: 1, maxLength: 255 }),
  amount: MoneyInput,
})
export type ChargeInput = Static<typeof ChargeBody>

/**
 * The one cancel-reason rule (docs/bookings.md, "Cancel reason"), for both kinds and both callers
 * (the customer's cancel, the staff's status change): `cancel_reason` (the Booking and
 * IndoorGameBooking field, and the indoor cancel body of the contract), else its alias `reason` (the
 * court cancel body of the contract). Each is trimmed and a blank one counts as not sent; null when
 * neither carries text.
 */
export const cancelReason = (body: CancelInput | undefined): string | null =>
  body?.cancel_reason?.trim() || body?.reason?.trim() || null

/**
 * POST …/payments (venue staff), for court and indoor bookings alike: cash is recorded at once; a
 * gateway method starts a desk payment intent the gateway must confirm (docs/payments.md).
 */
export const DeskPaymentBody = Type.Object({
  amount: MoneyInput,
  method: Type.Optional({
    ...DeskPaymentMethodEnum.request,
    description:
      'cash (default): recorded at once. gateway_1/2/3: a desk payment intent (201 with payment_url and qr_svg) ' +
      'that counts only when the gateway confirms it',
  }),
  reference: Type.Optional(
    Nullable(
      Type.String({
        maxLength: 100,
        description: 'Accepted for older clients and not used: a typed reference never records money',
      }),
    ),
  ),
})
