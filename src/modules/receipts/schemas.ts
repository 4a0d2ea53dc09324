import { Type } from 'typebox'
import { DateOnly, Money, Nullable, named } from '../../lib/schemas.ts'
import { LocaleEnum } from '../accounts/index.ts'

// Request and answer shapes of the receipt routes (path keys; the booking keys are named as the
// booking routes name them).

export const BookingReceiptsParams = Type.Object({ booking: Type.String({ description: 'Court booking id' }) })
export const IndoorReceiptsParams = Type.Object({
  indoorGameBooking: Type.String({ description: 'Indoor game booking id' }),
})
export const ReceiptParams = Type.Object({ receipt: Type.String({ description: 'Receipt (or credit note) id' }) })
export const VenueParams = Type.Object({ venue: Type.String({ description: 'Venue id or slug' }) })

export const ReceiptPdfQuery = Type.Object({
  lang: Type.Optional(
    Type.Unsafe<(typeof LocaleEnum.values)[number]>({
      ...LocaleEnum.request,
      description: "Language of the PDF; without it the signed-in user's language (else Accept-Language) decides",
    }),
  ),
})

const Pan = Type.String({ pattern: '^[0-9]{9}$', description: 'Permanent Account Number, 9 digits' })

export const BuyerDetailsBody = Type.Object(
  {
    buyer_pan: Nullable(Pan),
    buyer_address: Nullable(Type.String({ maxLength: 255 })),
  },
  { additionalProperties: false },
)
export const BuyerDetailsSchema = named(
  'InvoiceBuyerDetails',
  Type.Object({ buyer_pan: Nullable(Type.String()), buyer_address: Nullable(Type.String()) }),
)

export const IrdSettingsBody = Type.Object(
  {
    enabled: Type.Boolean(),
    username: Type.String({ minLength: 1, maxLength: 100 }),
    password: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'Required the first time; kept when left out later' }),
    ),
    seller_pan: Pan,
  },
  { additionalProperties: false },
)

export const IrdStatusSchema = named(
  'IrdSettings',
  Type.Object({
    configured: Type.Boolean(),
    enabled: Type.Boolean(),
    username: Nullable(Type.String()),
    seller_pan: Nullable(Type.String()),
    password_set: Type.Boolean({ description: 'The password itself is never returned' }),
    pending: Type.Integer({ description: 'Invoices waiting to be reported' }),
    failed: Type.Integer({ description: 'Invoices CBMS refused or could not take after the retries' }),
    failures: Type.Array(
      Type.Object({
        receipt_id: Type.Integer(),
        receipt_number: Type.String(),
        issued_on_bs: Type.String(),
        code: Nullable(Type.Integer({ description: "CBMS's answer (100–104), null when it gave none" })),
        error: Nullable(Type.String()),
      }),
    ),
  }),
)

export const BookQuery = Type.Object({
  fiscal_year: Type.String({
    pattern: '^[0-9]{4}/[0-9]{2}$',
    description: 'Nepali fiscal year',
    examples: ['2083/84'],
  }),
  month: Type.Integer({
    minimum: 1,
    maximum: 12,
    description: 'BS month (4 Shrawan … 12 Chaitra, 1 Baishakh … 3 Asar)',
  }),
})

export const RegisterQuery = Type.Object({
  fiscal_year: BookQuery.properties.fiscal_year,
  month: Type.Optional(BookQuery.properties.month),
})

const BookRowSchema = Type.Object({
  date_bs: Type.String(),
  date_ad: DateOnly,
  number: Type.String(),
  buyer_name: Type.String(),
  buyer_pan: Nullable(Type.String()),
  ref_number: Nullable(Type.String({ description: 'Sales-return book: the invoice the credit note reverses' })),
  total: Money,
  non_taxable: Money,
  taxable: Money,
  vat: Money,
})

export const BookSchema = named(
  'SalesBook',
  Type.Object({
    fiscal_year: Type.String(),
    month: Type.Integer(),
    bs_month: Type.String({ examples: ['2083-08'] }),
    rows: Type.Array(BookRowSchema),
    totals: Type.Object({ total: Money, non_taxable: Money, taxable: Money, vat: Money }),
  }),
)

export const RegisterRowSchema = named(
  'InvoiceRegisterRow',
  Type.Object({
    fiscal_year: Type.String(),
    number: Type.String(),
    type: Type.String({ description: 'receipt (an invoice) or credit_note' }),
    customer: Type.String(),
    pan: Nullable(Type.String()),
    date_bs: Type.String(),
    date_ad: DateOnly,
    amount: { ...Money, description: 'Before discount' },
    discount: Money,
    taxable: Money,
    tax: Money,
    total: Money,
    synced_with_ird: Type.Boolean(),
    ird_sync: Type.String(),
    printed: Type.Boolean(),
    print_count: Type.Integer(),
    active: Type.Boolean({ description: 'An invoice stays active until credit notes reverse its whole total' }),
    printed_time: Nullable(Type.String({ description: "The original's print, venue time" })),
    entered_by: Type.String({ description: 'Staff who took the money, or Online (system)' }),
    printed_by: Nullable(Type.String()),
    realtime: Type.Boolean({ description: 'Reported to CBMS within 24 hours of issue' }),
    payment_method: Type.String(),
    transaction_id: Nullable(Type.String()),
  }),
)
