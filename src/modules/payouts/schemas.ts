import { Type } from 'typebox'
import { DateInput, DateOnly, DateTime, Money, MoneyInput, Nullable, named } from '../../lib/schemas.ts'
import { LocaleEnum } from '../accounts/index.ts'

export const VenueParams = Type.Object({ venue: Type.String({ description: 'Venue id or slug' }) })
export const CommissionInvoiceParams = Type.Object({
  venue: Type.String({ description: 'Venue id or slug' }),
  id: Type.String({ description: 'Commission invoice id' }),
})
export const CommissionInvoicePdfQuery = Type.Object({
  lang: Type.Optional(
    Type.Unsafe<(typeof LocaleEnum.values)[number]>({
      ...LocaleEnum.request,
      description: "Language of the PDF; without it the signed-in user's language (else Accept-Language) decides",
    }),
  ),
})

const Percent = Type.Number({ minimum: 0, maximum: 100, description: '0–100, at most two decimals' })

export const CommissionBody = Type.Object(
  {
    percent: Nullable({ ...Percent, description: 'Commission on online money; null: the platform default' }),
    desk_percent: Type.Optional(
      Nullable({ ...Percent, description: 'Commission on desk money, owed by the venue; null (default): none' }),
    ),
  },
  { additionalProperties: false },
)

export const CommissionSchema = named(
  'VenueCommission',
  Type.Object({
    venue_id: Type.Integer(),
    percent: Nullable(Type.String({ description: "The venue's own rate; null: the platform default applies" })),
    desk_percent: Nullable(Type.String({ description: 'Rate on desk money; null: none' })),
    effective_percent: Type.String({ description: 'The rate applied to online money now' }),
    platform_default_percent: Type.String(),
  }),
)

export const PayoutBody = Type.Object(
  {
    amount: MoneyInput,
    reference: Type.String({ minLength: 1, maxLength: 255, description: 'The bank or wallet transfer reference' }),
    paid_on: { ...DateInput, description: 'YYYY-MM-DD the money was sent' },
  },
  { additionalProperties: false },
)

export const PayoutSchema = named(
  'Payout',
  Type.Object({
    id: Type.Integer(),
    venue_id: Type.Integer(),
    amount: Money,
    reference: Type.String(),
    paid_on: DateOnly,
    created_by: Nullable(Type.Integer()),
    created_at: DateTime,
  }),
)

export const PayoutAccountSchema = named(
  'PayoutAccount',
  Type.Object(
    {
      type: Type.Union([Type.Literal('bank'), Type.Literal('esewa'), Type.Literal('khalti')]),
      account_name: Type.String({ minLength: 1, maxLength: 255 }),
      bank_name: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
      account_number: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
      merchant_id: Type.Optional(Nullable(Type.String({ maxLength: 64, description: 'eSewa or Khalti merchant id' }))),
    },
    { additionalProperties: false },
  ),
)

export const DueSchema = Type.Object({
  venue: Type.Object({ id: Type.Integer(), name: Type.String(), slug: Type.String() }),
  balance: Type.String({
    description: "The venue's balance with the platform, NPR; negative when the venue owes the platform",
  }),
  reserve: { ...Money, description: 'Of the balance, online money of upcoming bookings that may still be refunded' },
  available: { ...Money, description: 'What may be paid out now: balance less reserve, never below 0.00' },
  owing: Type.Boolean({
    description: 'The venue owes the platform (refunds after a payout); its next online money settles it',
  }),
  payout_account: Nullable(PayoutAccountSchema),
})

export const StatementQuery = Type.Object({
  from: { ...DateInput, description: 'First day, YYYY-MM-DD, venue time' },
  to: { ...DateInput, description: 'Last day (inclusive), YYYY-MM-DD, venue time' },
})

export const StatementLineSchema = Type.Object({
  date: DateOnly,
  booking_number: Nullable(Type.String()),
  kind: Type.String({
    description:
      'gateway_payment, wallet_payment, platform_discount, refund_to_wallet, refund_to_source, venue_credit, commission, commission_refund, payout',
  }),
  description: Type.String(),
  amount: Type.String({ description: "Signed NPR on the venue's balance: positive is owed to the venue" }),
  balance_after: Money,
})

export const CommissionInvoiceSchema = named(
  'CommissionInvoice',
  Type.Object({
    id: Type.Integer(),
    invoice_number: Type.String({ examples: ['PC-2082/83-000001'] }),
    fiscal_year: Type.String(),
    bs_month: Type.String({ description: 'The Nepali month invoiced', examples: ['2082-10'] }),
    period_from: DateOnly,
    period_to: DateOnly,
    issued_on: DateOnly,
    issued_on_bs: Type.String(),
    seller: Type.Object({ name: Type.String(), pan_number: Nullable(Type.String()) }, { description: 'The platform' }),
    buyer: Type.Object({ venue_id: Type.Integer(), legal_name: Type.String(), pan_number: Nullable(Type.String()) }),
    total: { ...Money, description: 'Commission charged that month net of commission given back, VAT included' },
    taxable_amount: Money,
    vat: { ...Money, description: "The platform's 13% VAT in it" },
  }),
)

export const IssueCommissionInvoicesBody = Type.Object(
  {
    fiscal_year: Type.String({ pattern: '^[0-9]{4}/[0-9]{2}$', examples: ['2082/83'] }),
    month: Type.Integer({ minimum: 1, maximum: 12, description: 'BS month of the fiscal year' }),
  },
  { additionalProperties: false },
)

export const StatementSchema = named(
  'VenueStatement',
  Type.Object({
    venue: Type.Object({ id: Type.Integer(), name: Type.String(), slug: Type.String() }),
    from: DateOnly,
    to: DateOnly,
    currency: Type.Literal('NPR'),
    opening_balance: Money,
    online_gross: Money,
    refunds: Money,
    commission: Money,
    payouts: Money,
    closing_balance: Money,
    desk_gross: Money,
    desk_refunds: Money,
    lines: Type.Array(StatementLineSchema),
    commission_invoices: Type.Array(CommissionInvoiceSchema, {
      description: "The platform's commission invoices to the venue issued in the range",
    }),
  }),
)
