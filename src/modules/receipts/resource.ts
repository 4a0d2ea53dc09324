import { type Static, Type } from 'typebox'
import { formatMoney } from '../../lib/money.ts'
import { DateOnly, DateTime, Money, Nullable, named, namedEnum } from '../../lib/schemas.ts'
import type { Zone } from '../../lib/zone.ts'
import type { ReceiptRow } from './repository.ts'

// The receipt and credit note as the API shows them (docs/payments.md, "Receipts and VAT").

export const ReceiptTypeEnum = namedEnum('ReceiptType', ['receipt', 'credit_note'])

const ReceiptLineSchema = Type.Object({ description: Type.String(), amount: Money })

export const ReceiptSchema = named(
  'Receipt',
  Type.Object({
    id: Type.Integer(),
    receipt_number: Type.String({
      description:
        'Sequential per venue, fiscal year and series, without gaps: R-2082/83-000001 for receipts, ' +
        'CN-2082/83-000001 for credit notes',
      examples: ['R-2082/83-000001'],
    }),
    type: ReceiptTypeEnum.response,
    fiscal_year: Type.String({
      description: 'Nepali fiscal year of issue; it starts on Shrawan 1 (mid-July)',
      examples: ['2082/83'],
    }),
    issued_at: DateTime,
    issued_on: { ...DateOnly, description: 'Date of issue, AD (YYYY-MM-DD, venue time zone)' },
    issued_on_bs: Type.String({ description: 'Date of issue in Bikram Sambat (YYYY-MM-DD)', examples: ['2082-04-01'] }),
    venue: Type.Object({
      id: Type.Integer(),
      legal_name: Type.String({ description: "The venue's legal name (its name when none is set)" }),
      address: Type.String(),
      pan_number: Nullable(Type.String({ description: 'Permanent Account Number, 9 digits' })),
    }),
    customer_name: Type.String(),
    booking: Type.Object({
      type: Type.String({ description: 'court or indoor' }),
      id: Type.Integer(),
      booking_number: Type.String(),
    }),
    lines: Type.Array(ReceiptLineSchema),
    total: { ...Money, description: 'VAT-inclusive total' },
    vat_registered: Type.Boolean({ description: 'Whether the venue was VAT registered when this was issued' }),
    taxable_amount: Nullable({ ...Money, description: 'total / 1.13, rounded to paisa; null unless VAT registered' }),
    vat_amount: Nullable({ ...Money, description: 'total − taxable_amount (13% VAT); null unless VAT registered' }),
    payment_id: Type.Integer(),
    method: Type.String({
      description: 'How the money came: gateway_1|gateway_2|gateway_3 (eSewa, Khalti, Fonepay), wallet, cash…',
    }),
    original_receipt: Nullable(
      Type.Object(
        { id: Type.Integer(), receipt_number: Type.String() },
        { description: 'A credit note: the receipt of the payment it refunds' },
      ),
    ),
    reason: Nullable(Type.String({ description: 'A credit note: why the money was refunded' })),
  }),
)

export type Receipt = Static<typeof ReceiptSchema>

export interface ReceiptLine {
  description: string
  amount: number
}

/** The contract shape of a receipt row; `original` is the receipt a credit note refers to. */
export function receiptResource(
  r: ReceiptRow,
  zone: Zone,
  original?: Pick<ReceiptRow, 'id' | 'receipt_number'>,
): Receipt {
  const lines = r.lines as unknown as ReceiptLine[]
  return {
    id: r.id,
    receipt_number: r.receipt_number,
    type: r.type,
    fiscal_year: r.fiscal_year,
    issued_at: zone.format(r.issued_at),
    issued_on: String(r.issued_on),
    issued_on_bs: r.issued_on_bs,
    venue: { id: r.venue_id, legal_name: r.venue_legal_name, address: r.venue_address, pan_number: r.venue_pan },
    customer_name: r.customer_name,
    booking: { type: r.booking_type, id: r.booking_id, booking_number: r.booking_number },
    lines: lines.map((l) => ({ description: l.description, amount: formatMoney(l.amount) })),
    total: formatMoney(r.total),
    vat_registered: r.vat_registered,
    taxable_amount: r.taxable_amount === null ? null : formatMoney(r.taxable_amount),
    vat_amount: r.vat_amount === null ? null : formatMoney(r.vat_amount),
    payment_id: r.payment_id,
    method: r.method,
    original_receipt: original ? { id: original.id, receipt_number: original.receipt_number } : null,
    reason: r.reason,
  }
}
