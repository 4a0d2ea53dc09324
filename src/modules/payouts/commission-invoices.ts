import type { AuthUser } from '../../lib/auth.ts'
import type { AppContext } from '../../lib/context.ts'
import { Invalid, NotFound } from '../../lib/errors.ts'
import { formatMoney } from '../../lib/money.ts'
import { BS_MAX_YEAR, BS_MIN_YEAR, fiscalYearOf, fromBs, toBs } from '../../lib/nepali-date.ts'
import { addDays } from '../../lib/time.ts'
import type { CommissionInvoicePrint } from '../receipts/index.ts'
import { MANAGER_ROLES, venueForStaff } from '../venues/index.ts'
import * as repo from './repository/commission-invoices.ts'

// The platform's monthly invoice to each venue for its commission (docs/payments.md, "The
// platform's VAT on commission"). The commission entries carry the VAT in them (ledger/commission.ts:
// the rate is VAT-inclusive, the VAT posted to vat:payable); a month's invoice states the commission
// the venue was charged that Nepali month net of what was given back on refunds, its taxable part
// and the VAT, from the ledger. Numbered by the platform: PC-2082/83-000001, one series per fiscal
// year for all venues, without gaps.

export type CommissionInvoiceRow = repo.CommissionInvoiceRow

/** The AD days of a BS month: its first day and its last. */
export function bsMonthDays(fiscalYear: string, month: number): { bsMonth: string; from: string; to: string } {
  const start = Number(fiscalYear.slice(0, 4))
  const year = month >= 4 ? start : start + 1
  const bsMonth = `${year}-${String(month).padStart(2, '0')}`
  const next = month === 12 ? `${year + 1}-01` : `${year}-${String(month + 1).padStart(2, '0')}`
  return { bsMonth, from: fromBs(`${bsMonth}-01`), to: addDays(fromBs(`${next}-01`), -1) }
}

/** The last BS month that has ended by `today` (AD): its fiscal year and month number. */
export function lastEndedMonth(today: string): { fiscalYear: string; month: number } {
  const [y, m] = toBs(today).split('-').map(Number)
  const prev = m === 1 ? { y: y - 1, m: 12 } : { y, m: m - 1 }
  const firstDay = fromBs(`${prev.y}-${String(prev.m).padStart(2, '0')}-01`)
  return { fiscalYear: fiscalYearOf(firstDay), month: prev.m }
}

/**
 * Issues the commission invoices of a BS month for every venue charged commission in it (net of
 * commission given back, above zero) that has none yet; returns those issued now. Idempotent: one
 * invoice per venue and month, whoever runs it and however often (the lock orders two runs).
 */
export async function issueCommissionInvoices(
  ctx: AppContext,
  fiscalYear: string,
  month: number,
): Promise<CommissionInvoiceRow[]> {
  const startYear = Number(fiscalYear.slice(0, 4))
  if (startYear < BS_MIN_YEAR || startYear >= BS_MAX_YEAR)
    throw new Invalid('fiscal_year', 'The fiscal year is out of range.')
  const { bsMonth, from, to } = bsMonthDays(fiscalYear, month)
  const now = ctx.clock.now()
  if (ctx.zone.today(now) <= to) throw new Invalid('month', 'The month has not ended yet.')
  const start = ctx.zone.instant(from, '00:00')
  const end = ctx.zone.instant(addDays(to, 1), '00:00')
  return ctx.db.transaction().execute(async (trx) => {
    await repo.lockIssuing(trx)
    const rows = await repo.uninvoicedCommission(trx, bsMonth, start, end)
    const issuedOn = ctx.zone.today(now)
    const issueYear = fiscalYearOf(issuedOn)
    const out: CommissionInvoiceRow[] = []
    for (const r of rows) {
      const { total, vat } = r
      if (total <= 0) continue
      const venue = await repo.venueIdentity(trx, r.venueId)
      const n = await repo.nextInvoiceNumber(trx, issueYear)
      out.push(
        await repo.insertInvoice(trx, {
          venue_id: r.venueId,
          fiscal_year: issueYear,
          sequence: n,
          invoice_number: `PC-${issueYear}-${String(n).padStart(6, '0')}`,
          bs_month: bsMonth,
          period_from: from,
          period_to: to,
          total,
          taxable_amount: total - vat,
          vat_amount: vat,
          issued_at: now,
          issued_on: issuedOn,
          issued_on_bs: toBs(issuedOn),
          platform_name: ctx.config.platform.legalName,
          platform_pan: ctx.config.platform.pan ?? null,
          venue_legal_name: venue.legal_name?.trim() || venue.name,
          venue_pan: venue.pan_number,
        }),
      )
    }
    return out
  })
}

export interface CommissionInvoice {
  id: number
  invoice_number: string
  fiscal_year: string
  bs_month: string
  period_from: string
  period_to: string
  issued_on: string
  issued_on_bs: string
  seller: { name: string; pan_number: string | null }
  buyer: { venue_id: number; legal_name: string; pan_number: string | null }
  total: string
  taxable_amount: string
  vat: string
}

export function commissionInvoiceResource(r: CommissionInvoiceRow): CommissionInvoice {
  return {
    id: Number(r.id),
    invoice_number: r.invoice_number,
    fiscal_year: r.fiscal_year,
    bs_month: r.bs_month,
    period_from: String(r.period_from),
    period_to: String(r.period_to),
    issued_on: String(r.issued_on),
    issued_on_bs: r.issued_on_bs,
    seller: { name: r.platform_name, pan_number: r.platform_pan },
    buyer: { venue_id: Number(r.venue_id), legal_name: r.venue_legal_name, pan_number: r.venue_pan },
    total: formatMoney(r.total),
    taxable_amount: formatMoney(r.taxable_amount),
    vat: formatMoney(r.vat_amount),
  }
}

/** A venue's commission invoices issued between two AD days (inclusive), oldest first. */
export async function commissionInvoicesOf(ctx: AppContext, venueId: number, range?: { from: string; to: string }) {
  return (await repo.invoicesOf(ctx.db, venueId, range)).map(commissionInvoiceResource)
}

/** The recurring job: the last ended month's invoices, once it has ended (idempotent). */
export async function issueLastMonthsCommissionInvoices(ctx: AppContext): Promise<number> {
  const { fiscalYear, month } = lastEndedMonth(ctx.zone.today(ctx.clock.now()))
  return (await issueCommissionInvoices(ctx, fiscalYear, month)).length
}

/**
 * One print of a commission invoice (its PDF, GET …/commission-invoices/{id}/pdf): what it prints and
 * this print's copy number (0: the original, then "Copy of Original (n)"), each print recorded (who,
 * when). The venue's owner and managers and super_admin (403 anyone else); 404 for an invoice that
 * is not this venue's. The lines split the invoice's taxable amount between commission on online
 * money and on money taken at the desk (cash), in proportion to the commission the ledger charged on
 * each in the invoice's month; the amounts printed are the invoice's as issued.
 */
export async function printCommissionInvoice(
  ctx: AppContext,
  user: AuthUser,
  venueKey: string,
  id: number,
  render: (print: CommissionInvoicePrint, copy: number) => Promise<Buffer>,
): Promise<{ print: CommissionInvoicePrint; pdf: Buffer }> {
  const venue = await venueForStaff(ctx, user, venueKey, MANAGER_ROLES)
  const row = await repo.invoiceOf(ctx.db, venue.id, id)
  if (!row) throw new NotFound()
  const inv = commissionInvoiceResource(row)
  const start = ctx.zone.instant(inv.period_from, '00:00')
  const end = ctx.zone.instant(addDays(inv.period_to, 1), '00:00')
  const total = Number(row.total)
  const taxable = Number(row.taxable_amount)
  const desk = Math.min(Math.max(await repo.deskCommission(ctx.db, venue.id, start, end), 0), total)
  const deskTaxable = total > 0 ? Math.round((desk * taxable) / total) : 0
  const print: CommissionInvoicePrint = {
    invoice_number: inv.invoice_number,
    fiscal_year: inv.fiscal_year,
    bs_month: inv.bs_month,
    period_from: inv.period_from,
    period_to: inv.period_to,
    issued_on: inv.issued_on,
    issued_on_bs: inv.issued_on_bs,
    seller: inv.seller,
    buyer: {
      legal_name: inv.buyer.legal_name,
      address: await repo.venueAddress(ctx.db, venue.id),
      pan_number: inv.buyer.pan_number,
    },
    lines: { online: formatMoney(taxable - deskTaxable), desk: formatMoney(deskTaxable) },
    taxable_amount: inv.taxable_amount,
    vat: inv.vat,
    total: inv.total,
    total_paisa: total,
  }
  // The print is recorded with the PDF it numbers: a PDF that fails to render uses up no copy number.
  const pdf = await ctx.db.transaction().execute(async (trx) => {
    const copy = await repo.recordInvoicePrint(trx, inv.id, user.id, ctx.clock.now())
    return render(print, copy)
  })
  return { print, pdf }
}
