import type { Executor } from '../../../lib/db.ts'

// The rows of the sales books and the invoice register (receipts/books.ts shapes them).

/** A venue's invoices (`receipt`) or credit notes of a BS month ("2083-08"), in number order. */
export async function bookRows(
  db: Executor,
  venueId: number,
  type: 'receipt' | 'credit_note',
  fiscalYear: string,
  bsMonth: string,
) {
  return db
    .selectFrom('receipts as r')
    .leftJoin('receipt_buyers as b', 'b.receipt_id', 'r.id')
    .leftJoin('receipts as o', 'o.id', 'r.credit_of')
    .select([
      'r.issued_on_bs',
      'r.issued_on',
      'r.receipt_number',
      'r.customer_name',
      'r.buyer_pan',
      'b.receipt_id as desk_buyer',
      'b.buyer_pan as desk_pan',
      'o.receipt_number as ref_number',
      'r.total',
      'r.taxable_amount',
      'r.vat_amount',
    ])
    .where('r.venue_id', '=', venueId)
    .where('r.type', '=', type)
    .where('r.fiscal_year', '=', fiscalYear)
    .where('r.issued_on_bs', 'like', `${bsMonth}-%`)
    .orderBy('r.sequence')
    .execute()
}

/** A venue's invoices and credit notes of a fiscal year (and BS month) with their prints, sync and credits. */
export async function registerRows(db: Executor, venueId: number, fiscalYear: string, bsMonth: string | undefined) {
  let q = db
    .selectFrom('receipts as r')
    .leftJoin('receipt_buyers as b', 'b.receipt_id', 'r.id')
    .leftJoin('receipt_ird_sync as s', 's.receipt_id', 'r.id')
    .leftJoin('users as e', 'e.id', 'r.entered_by')
    .leftJoin('receipt_prints as p', (j) => j.onRef('p.receipt_id', '=', 'r.id').on('p.copy_number', '=', 0))
    .leftJoin('users as pu', 'pu.id', 'p.printed_by')
    .select([
      'r.id',
      'r.fiscal_year',
      'r.receipt_number',
      'r.type',
      'r.customer_name',
      'r.buyer_pan',
      'b.receipt_id as desk_buyer',
      'b.buyer_pan as desk_pan',
      'r.issued_on_bs',
      'r.issued_on',
      'r.total',
      'r.discount_amount',
      'r.taxable_amount',
      'r.vat_amount',
      's.status as sync_status',
      's.realtime',
      'e.name as entered_name',
      'p.printed_at',
      'pu.name as printed_name',
      'r.method',
      'r.transaction_id',
      (eb) =>
        eb
          .selectFrom('receipt_prints as c')
          .select((e2) => e2.fn.countAll<string>().as('n'))
          .whereRef('c.receipt_id', '=', 'r.id')
          .as('prints'),
      (eb) =>
        eb
          .selectFrom('receipts as cn')
          .select((e2) => e2.fn.sum<string>('cn.total').as('s'))
          .whereRef('cn.credit_of', '=', 'r.id')
          .as('credited'),
    ])
    .where('r.venue_id', '=', venueId)
    .where('r.fiscal_year', '=', fiscalYear)
  if (bsMonth !== undefined) q = q.where('r.issued_on_bs', 'like', `${bsMonth}-%`)
  return q.orderBy('r.type', 'desc').orderBy('r.sequence').execute()
}
