import { Type } from 'typebox'
import { DateTime, IdParam, Money, MoneyInput, Nullable, named, namedEnum } from '../../lib/schemas.ts'
import {
  BookingKindEnum,
  BookingStatusEnum,
  GatewayMethodEnum,
  PaymentMethodEnum,
  PaymentRecordSchema,
} from '../booking-core/index.ts'
import { WalletTransactionSchema, WalletTransactionStatusEnum } from '../wallet/index.ts'

/** What a payment is for: a court booking, an indoor game booking or a wallet top-up. */
const PaymentBookingTypeEnum = namedEnum('PaymentBookingType', ['court', 'indoor', 'topup'])
/** Where a payment stands after a gateway callback: completed, failed, or still pending at the gateway. */
const PaymentOutcomeEnum = namedEnum('PaymentOutcome', ['completed', 'failed', 'pending'])

const { id: _id, ...recordFields } = PaymentRecordSchema.properties

/** A payment: a booking's payment record (PaymentRecordSchema) plus what it pays for. */
export const PaymentSchema = named(
  'Payment',
  Type.Object({
    id: Type.Integer(),
    booking_type: PaymentBookingTypeEnum.response,
    booking_id: Type.Integer({ description: 'Booking id (or wallet transaction id of a top-up)' }),
    ...recordFields,
  }),
)

export const BookingPaymentState = Type.Object({
  id: Type.Integer(),
  booking_type: BookingKindEnum.response,
  booking_number: Type.String(),
  status: BookingStatusEnum.response,
  total_amount: Money,
  paid_amount: Money,
  balance_due: Money,
  is_paid: Type.Boolean(),
})

export const InitiateBody = Type.Object({
  booking_type: Type.Optional({ ...BookingKindEnum.request, default: 'court' }),
  booking_id: IdParam,
  method: PaymentMethodEnum.request,
  return_url: Type.Optional(
    Type.String({
      maxLength: 2048,
      description:
        'Where the callback redirects with status and payment_id: a URL under APP_URL or a prefix of ' +
        'RETURN_URL_ALLOWLIST (an app deep link such as courtside://…); anything else is 422 on return_url',
    }),
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
      method: GatewayMethodEnum.response,
      amount: Money,
      status: Type.Literal('initiated'),
    }),
    payment_url: Type.String({ description: 'Open in the browser; the gateway returns to the callback' }),
  }),
})

export const CallbackAnswer = Type.Object({
  message: Type.String(),
  data: Type.Object({
    status: PaymentOutcomeEnum.response,
    payment: PaymentSchema,
  }),
})

export const RefundBody = Type.Object({
  amount: Type.Optional(MoneyInput),
  reason: Type.Optional(Type.String({ maxLength: 255 })),
  to: Type.Optional(
    Type.Union([Type.Literal('wallet'), Type.Literal('desk'), Type.Literal('source')], {
      description:
        'Where the money goes. Default: the way it came (online money to the wallet, desk money as a cash-back ' +
        "at the desk). `wallet` for desk money credits the customer's wallet from the venue's own balance with " +
        'the platform (owner or manager; 422 when the balance does not cover it). `source` refunds a Khalti ' +
        'payment through Khalti (the wallet when Khalti refuses or is unreachable).',
    }),
  ),
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
        status: WalletTransactionStatusEnum.response,
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
  method: GatewayMethodEnum.request,
  return_url: Type.Optional(
    Type.String({
      maxLength: 2048,
      description:
        'Where the callback redirects with status and payment_id: under APP_URL or a prefix of RETURN_URL_ALLOWLIST; ' +
        'anything else is 422 on return_url',
    }),
  ),
})

export const TopupAnswer = Type.Object({
  data: WalletTransactionSchema,
  status: { ...WalletTransactionStatusEnum.response, description: 'pending until the gateway confirms' },
  payment_url: Type.String(),
})

/** A gateway payment failed here that its gateway reports as paid (GET /admin/payments/mismatched). */
export const MismatchedPaymentSchema = named(
  'MismatchedPayment',
  Type.Object({
    id: Type.Integer(),
    method: GatewayMethodEnum.response,
    reference: Type.String({ description: 'Our id of the payment at the gateway' }),
    gateway_transaction_id: Nullable(
      Type.String({ description: "The gateway's id of the transaction, when it gave one" }),
    ),
    booking_type: PaymentBookingTypeEnum.response,
    booking_id: Type.Integer({ description: 'Booking id (or wallet transaction id of a top-up)' }),
    amount: { ...Money, description: 'What the payment asked for' },
    gateway_amount: Nullable({ ...Money, description: 'What the gateway reports as paid' }),
    status: Type.Literal('failed'),
    user: Nullable(Type.Object({ id: Type.Integer(), name: Type.String(), email: Nullable(Type.String()) })),
    created_at: DateTime,
    failed_at: { ...DateTime, description: 'When the payment was failed here (its last change)' },
    checked_at: { ...DateTime, description: 'When the gateway last said it holds the money' },
    recheck_until: {
      ...DateTime,
      description: 'End of the re-check window (created_at + PAYMENT_RECHECK_HOURS); asked again until then',
    },
    rechecking: Type.Boolean({ description: 'Whether the gateway is still asked about it (the window has not ended)' }),
  }),
)

export const MismatchedQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1 })),
  per_page: Type.Optional(Type.Integer({ minimum: 1 })),
})
