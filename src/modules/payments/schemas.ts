import { Type } from 'typebox'
import { DateTime, Enum, IdParam, Money, MoneyInput, Nullable, named } from '../../lib/schemas.ts'
import { GATEWAY_METHODS, PAYMENT_METHODS, PaymentRecordSchema } from '../booking-core/index.ts'
import { WalletTransactionSchema } from '../wallet/index.ts'

const { id: _id, ...recordFields } = PaymentRecordSchema.properties

/** A payment: a booking's payment record (PaymentRecordSchema) plus what it pays for. */
export const PaymentSchema = named(
  'Payment',
  Type.Object({
    id: Type.Integer(),
    booking_type: Enum(['court', 'indoor', 'topup']),
    booking_id: Type.Integer({ description: 'Booking id (or wallet transaction id of a top-up)' }),
    ...recordFields,
  }),
)

export const BookingPaymentState = Type.Object({
  id: Type.Integer(),
  booking_type: Enum(['court', 'indoor']),
  booking_number: Type.String(),
  status: Type.String(),
  total_amount: Money,
  paid_amount: Money,
  balance_due: Money,
  is_paid: Type.Boolean(),
})

export const InitiateBody = Type.Object({
  booking_type: Type.Optional(Type.Union([Type.Literal('court'), Type.Literal('indoor')], { default: 'court' })),
  booking_id: IdParam,
  method: Type.Union(PAYMENT_METHODS.map((m) => Type.Literal(m))),
  return_url: Type.Optional(
    Type.String({ maxLength: 2048, description: 'Deep link the callback redirects to with status and payment_id' }),
  ),
})

export const WalletPaid = Type.Object({
  message: Type.String(),
  data: Type.Object({ payment: PaymentSchema, booking: BookingPaymentState }),
})

export const CashChosen = Type.Object({
  message: Type.String(),
  data: Type.Object({ payment: Type.Null(), booking: BookingPaymentState }),
})

export const GatewayStarted = Type.Object({
  data: Type.Object({
    payment: Type.Object({
      id: Type.Integer(),
      method: Type.String(),
      amount: Money,
      status: Type.Literal('initiated'),
    }),
    payment_url: Type.String({ description: 'Open in the browser; the gateway returns to the callback' }),
  }),
})

export const CallbackAnswer = Type.Object({
  message: Type.String(),
  data: Type.Object({
    status: Enum(['completed', 'failed', 'pending']),
    payment: PaymentSchema,
  }),
})

export const RefundBody = Type.Object({
  amount: Type.Optional(MoneyInput),
  reason: Type.Optional(Type.String({ maxLength: 255 })),
})

export const RefundAnswer = Type.Object({ message: Type.String(), data: PaymentSchema })

/** 422 here is either a validation failure (with errors) or a rule ("Insufficient wallet balance."). */
export const Refused = Type.Object({
  message: Type.String(),
  errors: Type.Optional(Type.Record(Type.String(), Type.Array(Type.String()))),
})

export const PaymentDetail = Type.Object({
  data: Type.Object({
    ...PaymentSchema.properties,
    booking: Nullable(BookingPaymentState),
    topup: Nullable(
      Type.Object({
        id: Type.Integer({ description: 'Wallet transaction id' }),
        status: Enum(['pending', 'completed', 'failed']),
        amount: Money,
        balance_after: Nullable(Money),
        created_at: Nullable(DateTime),
      }),
    ),
  }),
})

// A wallet top-up through a gateway (POST /wallet/topup; payments owns it, see topup.ts).
export const TopupBody = Type.Object({
  amount: MoneyInput,
  method: Type.Union(GATEWAY_METHODS.map((m) => Type.Literal(m))),
  return_url: Type.Optional(Type.String({ maxLength: 2048 })),
})

export const TopupAnswer = Type.Object({
  data: WalletTransactionSchema,
  status: Type.String({ description: 'pending until the gateway confirms' }),
  payment_url: Type.String(),
})
