import { type Static, Type } from 'typebox'
import { Nullable } from '../../lib/schemas.ts'
import { BookingStatusChangeEnum } from './enums.ts'

// Request bodies court and indoor bookings share, so both kinds take the same fields.

const Reason = (description: string) => Type.Optional(Nullable(Type.String({ maxLength: 500, description })))

/** PATCH …/status (venue staff), for court and indoor bookings alike. */
export const StatusBody = Type.Object({
  status: {
    ...BookingStatusChangeEnum.request,
    description: 'playing, completed, no_show or cancelled (only the state machine’s transitions)',
  },
  cancel_reason: Reason('Stored as the booking’s cancel_reason when cancelling'),
  reason: Reason('Alias of cancel_reason'),
})
export type StatusChange = Static<typeof StatusBody>

/** The cancel reason a status body carries: cancel_reason, or its alias reason; null when blank. */
export const statusReason = (body: StatusChange): string | null => (body.cancel_reason ?? body.reason)?.trim() || null
