import { type Insertable, type Selectable, sql } from 'kysely'
import type { CommissionInvoices } from '../../../db/types.ts'
import { type Executor, LOCK_CLASS, xactLock } from '../../../lib/db.ts'

// The platform's commission invoices (migrations/041_platform_vat.sql) and the ledger's commission
// of a month that they state.

export type CommissionInvoiceRow = Selectable<CommissionInvoices>

/** Orders two runs that issue a month's invoices (held until the transaction ends). */
export const lockIssuing = (trx: Executor) => xactLock(trx, LOCK_CLASS.commissionInvoices, 0)

/**
 * Per venue without an invoice for `bsMonth`: the commission its balance was charged in [start, end)
 * net of commission given back (VAT included), and the VAT in it (the entries' vat:payable lines).
 */
export async function uninvoicedCommission(trx: Executor, bsMonth: string, start: Date, end: Date) {
  const { rows } = await sql<{ venue_id: string; total: string; vat: string }>`
    SELECT e.venue_id,
      sum(CASE WHEN l.account LIKE 'venue:%:balance' THEN l.amount ELSE 0 END) AS total,
      -sum(CASE WHEN l.account = 'vat:payable' THEN l.amount ELSE 0 END) AS vat
    FROM ledger_entries e JOIN ledger_lines l ON l.entry_id = e.id
    WHERE e.kind IN ('commission', 'commission_refund') AND e.occurred_at >= ${start} AND e.occurred_at < ${end}
      AND e.venue_id IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM commission_invoices ci WHERE ci.venue_id = e.venue_id AND ci.bs_month = ${bsMonth})
    GROUP BY e.venue_id
    ORDER BY e.venue_id`.execute(trx)
  return rows.map((r) => ({ venueId: Number(r.venue_id), total: Number(r.total), vat: Number(r.vat) }))
}

export async function venueIdentity(trx: Executor, venueId: number) {
  return trx
    .selectFrom('venues')
    .select(['name', 'legal_name', 'pan_number'])
    .where('id', '=', venueId)
    .executeTakeFirstOrThrow()
}

/** The next number of the platform's series in a fiscal year (the counter row locked until commit: no gaps). */
export async function nextInvoiceNumber(trx: Executor, fiscalYear: string): Promise<number> {
  const counter = await trx
    .insertInto('commission_invoice_counters')
    .values({ fiscal_year: fiscalYear, last_number: 1 })
    .onConflict((oc) =>
      oc
        .column('fiscal_year')
        .doUpdateSet((eb) => ({ last_number: eb('commission_invoice_counters.last_number', '+', 1) })),
    )
    .returning('last_number')
    .executeTakeFirstOrThrow()
  return counter.last_number
}

export async function insertInvoice(
  trx: Executor,
  values: Insertable<CommissionInvoices>,
): Promise<CommissionInvoiceRow> {
  return trx.insertInto('commission_invoices').values(values).returningAll().executeTakeFirstOrThrow()
}

/** A venue's invoices, oldest first; with a range, those issued between two AD days (inclusive). */
export async function invoicesOf(db: Executor, venueId: number, range?: { from: string; to: string }) {
  let q = db.selectFrom('commission_invoices').selectAll().where('venue_id', '=', venueId)
  if (range) q = q.where('issued_on', '>=', range.from).where('issued_on', '<=', range.to)
  return q.orderBy('id').execute()
}
