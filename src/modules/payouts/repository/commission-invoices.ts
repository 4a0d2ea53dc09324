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

/** One commission invoice of a venue, or undefined (unknown, or another venue's). */
export function invoiceOf(db: Executor, venueId: number, id: number): Promise<CommissionInvoiceRow | undefined> {
  return db
    .selectFrom('commission_invoices')
    .selectAll()
    .where('venue_id', '=', venueId)
    .where('id', '=', id)
    .executeTakeFirst()
}

/** The venue's address as its invoice prints it (today's: the invoice row keeps name and PAN as issued). */
export async function venueAddress(db: Executor, venueId: number): Promise<string> {
  const v = await db
    .selectFrom('venues')
    .select(['address', 'city'])
    .where('id', '=', venueId)
    .executeTakeFirstOrThrow()
  return [v.address, v.city].filter((x) => x && x.trim() !== '').join(', ')
}

/**
 * The commission (VAT included, net of commission given back) the venue's balance was charged in
 * [start, end) on payments taken at the desk (cash): the rest of an invoice's total is commission
 * on online money (gateways and wallets, a QR payment at the desk included, as takeCommission counts it).
 */
export async function deskCommission(db: Executor, venueId: number, start: Date, end: Date): Promise<number> {
  const { rows } = await sql<{ total: string | null }>`
    SELECT sum(l.amount) AS total
    FROM ledger_entries e JOIN ledger_lines l ON l.entry_id = e.id
    JOIN payments p ON p.id = e.payment_id
    WHERE e.kind IN ('commission', 'commission_refund') AND e.occurred_at >= ${start} AND e.occurred_at < ${end}
      AND e.venue_id = ${venueId} AND l.account = ${`venue:${venueId}:balance`} AND p.method = 'cash'`.execute(db)
  return Number(rows[0]?.total ?? 0)
}

/**
 * Records one print of a commission invoice and returns its copy number (0: the original). The
 * invoice's row is locked first, so two prints at once take 0 and 1, never the same number.
 */
export async function recordInvoicePrint(trx: Executor, invoiceId: number, userId: number, now: Date): Promise<number> {
  await trx
    .selectFrom('commission_invoices')
    .select('id')
    .where('id', '=', invoiceId)
    .forUpdate()
    .executeTakeFirstOrThrow()
  const row = await trx
    .selectFrom('commission_invoice_prints')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('invoice_id', '=', invoiceId)
    .executeTakeFirstOrThrow()
  const copy = Number(row.n)
  await trx
    .insertInto('commission_invoice_prints')
    .values({ invoice_id: invoiceId, copy_number: copy, printed_by: userId, printed_at: now })
    .execute()
  return copy
}
