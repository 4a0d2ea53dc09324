import type { AppContext } from '../../lib/context.ts'
import { cell, header, line } from '../../lib/csv.ts'
import { type Locale, t } from '../../lib/i18n/index.ts'
import { formatMoney } from '../../lib/money.ts'
import * as q from './queries/books.ts'
import { METHOD_LABEL } from './resource.ts'

// The books an auditor and the monthly VAT return read (docs/payments.md, "Receipts and IRD"):
// the sales book (invoices) and the sales-return book (credit notes) of one Nepali month, in IRD's
// columns, and the e-billing directive's invoice register.

/** A BS month of a fiscal year: "2083/84" month 8 is Mangsir 2083, month 2 is Jestha 2084. */
export function bsMonthOf(fiscalYear: string, month: number): string {
  const start = Number(fiscalYear.slice(0, 4))
  const year = month >= 4 ? start : start + 1
  return `${year}-${String(month).padStart(2, '0')}`
}

export interface BookRow {
  date_bs: string
  date_ad: string
  number: string
  buyer_name: string
  buyer_pan: string | null
  /** For the sales-return book: the invoice the credit note reverses. */
  ref_number: string | null
  total: string
  non_taxable: string
  taxable: string
  vat: string
}

export interface Book {
  fiscal_year: string
  month: number
  bs_month: string
  rows: BookRow[]
  totals: { total: string; non_taxable: string; taxable: string; vat: string }
}

/** The sales book (`receipt`) or sales-return book (`credit_note`) of a venue's BS month. */
export async function salesBook(
  ctx: AppContext,
  venueId: number,
  type: 'receipt' | 'credit_note',
  fiscalYear: string,
  month: number,
): Promise<Book> {
  const bsMonth = bsMonthOf(fiscalYear, month)
  const rows = await q.bookRows(ctx.db, venueId, type, fiscalYear, bsMonth)
  const sums = { total: 0, non_taxable: 0, taxable: 0, vat: 0 }
  const out = rows.map((r) => {
    const total = Number(r.total)
    const taxable = r.taxable_amount === null ? 0 : Number(r.taxable_amount)
    const vat = r.vat_amount === null ? 0 : Number(r.vat_amount)
    const nonTaxable = total - taxable - vat
    sums.total += total
    sums.non_taxable += nonTaxable
    sums.taxable += taxable
    sums.vat += vat
    return {
      date_bs: r.issued_on_bs,
      date_ad: String(r.issued_on),
      number: r.receipt_number,
      buyer_name: r.customer_name,
      buyer_pan: r.desk_buyer === null ? r.buyer_pan : r.desk_pan,
      ref_number: r.ref_number,
      total: formatMoney(total),
      non_taxable: formatMoney(nonTaxable),
      taxable: formatMoney(taxable),
      vat: formatMoney(vat),
    }
  })
  return {
    fiscal_year: fiscalYear,
    month,
    bs_month: bsMonth,
    rows: out,
    totals: {
      total: formatMoney(sums.total),
      non_taxable: formatMoney(sums.non_taxable),
      taxable: formatMoney(sums.taxable),
      vat: formatMoney(sums.vat),
    },
  }
}

/**
 * The book as CSV, written like every export (src/lib/csv.ts: UTF-8 with a byte-order mark, CRLF,
 * a buyer's name that a spreadsheet would run as a formula kept as text): a header row, a row per
 * document, a totals row. For a Nepali reader the header row and the totals row's word are Nepali
 * (docs/languages.md); the rows' values are the same.
 */
export function bookCsv(book: Book, type: 'receipt' | 'credit_note', locale: Locale = 'en'): string {
  const columns = [
    'date_bs',
    'number',
    ...(type === 'credit_note' ? ['ref_invoice_number'] : []),
    'buyer_name',
    'buyer_pan',
    'total',
    'non_taxable',
    'taxable',
    'vat',
  ]
  const row = (r: BookRow) =>
    line([
      cell(r.date_bs),
      cell(r.number),
      ...(type === 'credit_note' ? [cell(r.ref_number)] : []),
      cell(r.buyer_name, true),
      cell(r.buyer_pan, true),
      cell(r.total),
      cell(r.non_taxable),
      cell(r.taxable),
      cell(r.vat),
    ])
  const blanks = type === 'credit_note' ? ['', '', '', '', ''] : ['', '', '', '']
  const totals = [
    locale === 'en' ? 'Total' : t(locale, 'csv.totals_row'),
    ...blanks.slice(1),
    book.totals.total,
    book.totals.non_taxable,
    book.totals.taxable,
    book.totals.vat,
  ]
  return header(columns, locale) + book.rows.map(row).join('') + line(totals.map((c) => cell(c)))
}

export interface RegisterRow {
  fiscal_year: string
  number: string
  type: string
  customer: string
  pan: string | null
  date_bs: string
  date_ad: string
  amount: string
  discount: string
  taxable: string
  tax: string
  total: string
  synced_with_ird: boolean
  ird_sync: string
  printed: boolean
  print_count: number
  active: boolean
  printed_time: string | null
  entered_by: string
  printed_by: string | null
  realtime: boolean
  payment_method: string
  transaction_id: string | null
}

/**
 * The invoice register (e-billing directive): every invoice and credit note of a fiscal year (and
 * month), in number order. An invoice is `active` until credit notes reverse its whole total.
 */
export async function invoiceRegister(
  ctx: AppContext,
  venueId: number,
  fiscalYear: string,
  month: number | undefined,
): Promise<RegisterRow[]> {
  const rows = await q.registerRows(
    ctx.db,
    venueId,
    fiscalYear,
    month === undefined ? undefined : bsMonthOf(fiscalYear, month),
  )
  return rows.map((r) => {
    const total = Number(r.total)
    const discount = Number(r.discount_amount)
    const prints = Number(r.prints ?? 0)
    return {
      fiscal_year: r.fiscal_year,
      number: r.receipt_number,
      type: r.type,
      customer: r.customer_name,
      pan: r.desk_buyer === null ? r.buyer_pan : r.desk_pan,
      date_bs: r.issued_on_bs,
      date_ad: String(r.issued_on),
      amount: formatMoney(total + discount),
      discount: formatMoney(discount),
      taxable: formatMoney(r.taxable_amount ?? 0),
      tax: formatMoney(r.vat_amount ?? 0),
      total: formatMoney(total),
      synced_with_ird: r.sync_status === 'synced',
      ird_sync: r.sync_status ?? 'not_required',
      printed: prints > 0,
      print_count: prints,
      active: r.type === 'receipt' ? Number(r.credited ?? 0) < total : true,
      printed_time: r.printed_at ? ctx.zone.format(r.printed_at) : null,
      entered_by: r.entered_name ?? 'Online (system)',
      printed_by: r.printed_name,
      realtime: r.realtime ?? false,
      payment_method: METHOD_LABEL[r.method] ?? r.method,
      transaction_id: r.transaction_id,
    }
  })
}
