import { type Static, Type } from 'typebox'
import { formatMoney } from '../../lib/money.ts'
import { DateOnly, DateTime, Money, Nullable, named, namedEnum } from '../../lib/schemas.ts'
import type { Zone } from '../../lib/zone.ts'
import type { PrintFacts, ReceiptRow } from './repository.ts'
import { amountInWords } from './words.ts'

// The invoice (receipt) and credit note as the API shows them (docs/payments.md, "Receipts and IRD").

export const ReceiptTypeEnum = namedEnum('ReceiptType', ['receipt', 'credit_note'])
export const IrdSyncEnum = namedEnum('IrdSync', ['synced', 'pending', 'failed', 'not_required'])

export const METHOD_LABEL: Record<string, string> = {
  gateway_1: 'eSewa',
  gateway_2: 'Khalti',
  gateway_3: 'Fonepay',
  wallet: 'Courtside wallet',
  cash: 'Cash',
}

const ReceiptLineSchema = Type.Object({
  description: Type.String(),
  quantity: Type.Number({ description: 'Hours for court or game hire, else 1', examples: [2] }),
  unit: Type.String({ description: 'hour, item, discount, payment or refund', examples: ['hour'] }),
  rate: { ...Money, description: 'Price of one unit (negative for a discount)' },
  amount: { ...Money, description: 'quantity × rate (negative for a discount)' },
})

export const ReceiptSchema = named(
  'Receipt',
  Type.Object({
    id: Type.Integer(),
    receipt_number: Type.String({
      description:
        'Sequential per venue, fiscal year and series, without gaps: R-2082/83-000001 for invoices, ' +
        'CN-2082/83-000001 for credit notes',
      examples: ['R-2082/83-000001'],
    }),
    type: ReceiptTypeEnum.response,
    title: Type.String({
      description: '"Tax Invoice" (VAT registered venue), "Invoice" (PAN only or none), "Credit Note"',
      examples: ['Tax Invoice'],
    }),
    fiscal_year: Type.String({
      description: 'Nepali fiscal year of issue; it starts on Shrawan 1 (mid-July)',
      examples: ['2082/83'],
    }),
    issued_at: DateTime,
    issued_on: { ...DateOnly, description: 'Date of issue, AD (YYYY-MM-DD, venue time zone)' },
    issued_on_bs: Type.String({ description: 'Date of issue in Bikram Sambat (YYYY-MM-DD)', examples: ['2082-04-01'] }),
    venue: Type.Object(
      {
        id: Type.Integer(),
        legal_name: Type.String({ description: "The venue's legal name (its name when none is set)" }),
        address: Type.String(),
        pan_number: Nullable(Type.String({ description: 'Permanent Account Number (the VAT number when registered)' })),
      },
      { description: 'The seller' },
    ),
    customer_name: Type.String({ description: "The buyer's name" }),
    buyer_pan: Nullable(Type.String({ description: "The buyer's PAN (their profile's, or added by the desk)" })),
    buyer_address: Nullable(Type.String({ description: "The buyer's address (the same)" })),
    booking: Type.Object({
      type: Type.String({ description: 'court or indoor' }),
      id: Type.Integer(),
      booking_number: Type.String(),
    }),
    lines: Type.Array(ReceiptLineSchema),
    discount_amount: { ...Money, description: 'The discount lines together (a venue coupon), positive' },
    platform_share: {
      ...Money,
      description: 'What a platform coupon paid the venue for this sale: part of the taxable consideration',
    },
    customer_paid: { ...Money, description: 'What the customer paid (total − platform_share)' },
    total: { ...Money, description: 'VAT-inclusive total of the sale (or of the credit note)' },
    vat_registered: Type.Boolean({ description: 'Whether the venue was VAT registered when this was issued' }),
    taxable_amount: Nullable({ ...Money, description: 'total / 1.13, rounded to paisa; null unless VAT registered' }),
    vat: Nullable({ ...Money, description: 'total − taxable_amount (13% VAT); null unless VAT registered' }),
    vat_amount: Nullable({ ...Money, description: 'The same as vat (kept for older clients)' }),
    amount_in_words: Type.String({ examples: ['One Thousand Five Hundred Rupees Only'] }),
    payment_id: Type.Integer(),
    method: Type.String({
      description: 'How the money came: gateway_1|gateway_2|gateway_3 (eSewa, Khalti, Fonepay), wallet, cash…',
    }),
    method_label: Type.String({ examples: ['eSewa'] }),
    original_receipt: Nullable(
      Type.Object(
        {
          id: Type.Integer(),
          receipt_number: Type.String(),
          issued_on: DateOnly,
          issued_on_bs: Type.String(),
        },
        { description: "A credit note: the invoice it reverses, and that invoice's date" },
      ),
    ),
    reason: Nullable(Type.String({ description: 'A credit note: why the money was refunded' })),
    refunded_amount: Nullable({
      ...Money,
      description:
        'A credit note: what actually went back to the customer (less than total when a gateway promotion paid part)',
    }),
    refunded_to: Nullable(Type.String({ description: 'A credit note: wallet, source, desk or gateway' })),
    print_count: Type.Integer({ description: 'Prints so far: the first is the original, later ones copies' }),
    ird_sync: IrdSyncEnum.response,
  }),
)

export type Receipt = Static<typeof ReceiptSchema>

/** A line as stored (paisa). Lines of receipts issued before issue 49 have description and amount only. */
export interface ReceiptLine {
  description: string
  quantity?: number
  unit?: string
  rate?: number
  amount: number
}

/** What is known about a receipt besides its row: the desk's buyer details, prints, CBMS sync. */
export interface ReceiptAnnex {
  original?: Pick<ReceiptRow, 'id' | 'receipt_number' | 'issued_on' | 'issued_on_bs'>
  buyer?: { buyer_pan: string | null; buyer_address: string | null }
  prints?: PrintFacts
  sync?: { status: string }
}

/** "Tax Invoice", "Invoice" or "Credit Note". */
export function titleOf(r: Pick<ReceiptRow, 'type' | 'vat_registered'>): string {
  if (r.type === 'credit_note') return 'Credit Note'
  return r.vat_registered ? 'Tax Invoice' : 'Invoice'
}

/** The contract shape of a receipt row with what is known about it besides. */
export function receiptResource(r: ReceiptRow, zone: Zone, annex: ReceiptAnnex = {}): Receipt {
  const lines = r.lines as unknown as ReceiptLine[]
  const original = annex.original
  const total = Number(r.total)
  const share = Number(r.platform_share)
  return {
    id: r.id,
    receipt_number: r.receipt_number,
    type: r.type,
    title: titleOf(r),
    fiscal_year: r.fiscal_year,
    issued_at: zone.format(r.issued_at),
    issued_on: String(r.issued_on),
    issued_on_bs: r.issued_on_bs,
    venue: { id: r.venue_id, legal_name: r.venue_legal_name, address: r.venue_address, pan_number: r.venue_pan },
    customer_name: r.customer_name,
    buyer_pan: annex.buyer ? annex.buyer.buyer_pan : r.buyer_pan,
    buyer_address: annex.buyer ? annex.buyer.buyer_address : r.buyer_address,
    booking: { type: r.booking_type, id: r.booking_id, booking_number: r.booking_number },
    lines: lines.map((l) => ({
      description: l.description,
      quantity: l.quantity ?? 1,
      unit: l.unit ?? 'item',
      rate: formatMoney(l.rate ?? l.amount),
      amount: formatMoney(l.amount),
    })),
    discount_amount: formatMoney(r.discount_amount),
    platform_share: formatMoney(share),
    customer_paid: formatMoney(total - share),
    total: formatMoney(total),
    vat_registered: r.vat_registered,
    taxable_amount: r.taxable_amount === null ? null : formatMoney(r.taxable_amount),
    vat: r.vat_amount === null ? null : formatMoney(r.vat_amount),
    vat_amount: r.vat_amount === null ? null : formatMoney(r.vat_amount),
    amount_in_words: amountInWords(total, 'en'),
    payment_id: r.payment_id,
    method: r.method,
    method_label: METHOD_LABEL[r.method] ?? r.method,
    original_receipt: original
      ? {
          id: original.id,
          receipt_number: original.receipt_number,
          issued_on: String(original.issued_on),
          issued_on_bs: original.issued_on_bs,
        }
      : null,
    reason: r.reason,
    refunded_amount: r.refunded_amount === null ? null : formatMoney(r.refunded_amount),
    refunded_to: r.refunded_to,
    print_count: annex.prints?.count ?? 0,
    ird_sync: (annex.sync?.status ?? 'not_required') as Receipt['ird_sync'],
  }
}
