import type { Selectable } from 'kysely'
import { type Static, Type } from 'typebox'
import type { IndoorGameBookings } from '../../db/types.ts'
import { formatMoney, moneyNumber } from '../../lib/money.ts'
import { DateOnly, DateTime, Money, Nullable, named } from '../../lib/schemas.ts'
import { toHHmm } from '../../lib/time.ts'
import type { Zone } from '../../lib/zone.ts'
import { UserSchema } from '../accounts/index.ts'
import {
  BookingStatusEnum,
  BookingTypeEnum,
  type Charge,
  ChargeSchema,
  durationHours,
  PaymentMethodEnum,
  type PaymentRecord,
  PaymentRecordSchema,
} from '../booking-core/index.ts'
import { IndoorGameSchema } from '../indoor-games/index.ts'

// The contract's IndoorGameBookingResource: its schema and row mapping (the loaders are in queries.ts).

export type IndoorBookingRow = Selectable<IndoorGameBookings>

export const IndoorGameBookingSchema = named(
  'IndoorGameBooking',
  Type.Object({
    id: Type.Integer(),
    booking_number: Type.String({ description: 'IG-<year>-<6-digit sequence>' }),
    tenant_id: Type.Integer({ description: 'The venue owner' }),
    indoor_game_id: Type.Integer(),
    user_id: Nullable(Type.Integer({ description: 'null for an offline or walk-in booking without an account' })),
    type: BookingTypeEnum.response,
    customer_name: Type.String(),
    customer_phone: Nullable(Type.String()),
    date: DateOnly,
    start_time: Type.String({ description: 'HH:mm' }),
    end_time: Type.String({ description: 'HH:mm' }),
    duration_hours: Type.String({ description: 'Decimal string, e.g. "1.50"' }),
    players_count: Nullable(Type.Integer()),
    base_amount: Money,
    discount_amount: Money,
    total_amount: Money,
    paid_amount: Type.String({ description: 'Paid and kept, net of refunds, NPR' }),
    refunded_amount: Type.String({ description: 'Returned of what was paid (to the wallet or at the desk), NPR' }),
    balance_due: Type.Number({ description: 'Decimal number (NPR): total_amount minus paid_amount' }),
    is_paid: Type.Boolean(),
    payment_method: Nullable(PaymentMethodEnum.response),
    hold_expires_at: Nullable(
      Type.String({
        description:
          "YYYY-MM-DD HH:mm:ss, venue time zone: a pending booking's payment deadline (unpaid by then, it is " +
          'cancelled and its slot freed); null otherwise',
      }),
    ),
    status: BookingStatusEnum.response,
    cancel_reason: Nullable(Type.String()),
    notes: Nullable(Type.String()),
    indoor_game: Nullable(IndoorGameSchema),
    user: Nullable(UserSchema),
    charges: Type.Array(ChargeSchema),
    payments: Type.Array(PaymentRecordSchema),
    created_at: DateTime,
  }),
)

export type IndoorGameBooking = Static<typeof IndoorGameBookingSchema>

/** Balance still due, in paisa (never negative). */
export const balanceDue = (b: { total_amount: number; paid_amount: number }) =>
  Math.max(b.total_amount - b.paid_amount, 0)

/** One booking row and its loaded relations as the contract's IndoorGameBookingResource. */
export function toIndoorBooking(
  b: IndoorBookingRow,
  parts: {
    game: IndoorGameBooking['indoor_game']
    user: IndoorGameBooking['user']
    charges: Charge[]
    payments: PaymentRecord[]
  },
  zone: Zone,
): IndoorGameBooking {
  return {
    id: b.id,
    booking_number: b.booking_number,
    tenant_id: b.tenant_id,
    indoor_game_id: b.indoor_game_id,
    user_id: b.user_id,
    type: b.type,
    customer_name: b.customer_name,
    customer_phone: b.customer_phone,
    date: b.date,
    start_time: toHHmm(b.start_time),
    end_time: toHHmm(b.end_time),
    duration_hours: durationHours(b.start_time, b.end_time),
    players_count: b.players_count,
    base_amount: formatMoney(b.base_amount),
    discount_amount: formatMoney(b.discount_amount),
    total_amount: formatMoney(b.total_amount),
    paid_amount: formatMoney(b.paid_amount),
    refunded_amount: formatMoney(b.refunded_amount),
    balance_due: moneyNumber(balanceDue(b)),
    is_paid: balanceDue(b) === 0,
    payment_method: b.payment_method,
    hold_expires_at: b.status === 'pending' ? zone.format(b.hold_expires_at) : null,
    status: b.status,
    cancel_reason: b.cancel_reason,
    notes: b.notes,
    indoor_game: parts.game,
    user: parts.user,
    charges: parts.charges,
    payments: parts.payments,
    created_at: zone.format(b.created_at),
  }
}
