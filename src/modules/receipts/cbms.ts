import type { AppContext } from '../../lib/context.ts'
import type { Executor } from '../../lib/db.ts'
import * as ird from './repository/ird.ts'
import { findReceipt, type ReceiptRow } from './repository.ts'
import { openSecret } from './secret.ts'

// Every invoice and credit note of a venue with CBMS enabled is reported to IRD's Central Billing
// Monitoring System (IRD_CBMS_URL): invoices to /api/bill, credit notes to /api/billreturn, through
// the job queue (docs/payments.md, "Receipts and IRD"). The sync row is written in the issuing
// transaction, so an invoice that exists always has its report queued.
//
// CBMS answers a number: 200 saved; 100 wrong credentials, 101 the bill already exists (a retry of a
// bill CBMS did save: counted as synced), 102 an exception while saving, 103 an unknown exception,
// 104 the model is invalid. 102, 103, a 5xx or no answer are tried again with the queue's back-off;
// 100 and 104 will not change by retrying: failed at once, for the owner to fix and retry.

export const CBMS_JOB = 'ird.cbms'
/** Tries before an invoice CBMS could not take is marked failed. */
export const CBMS_MAX_ATTEMPTS = 5
/** A bill reported within this long of its issue is reported "in real time" (isrealtime). */
const REALTIME_MS = 24 * 3600_000
const TIMEOUT_MS = 15_000

const RETRYABLE = new Set([102, 103])

/** "2083/84" → "2083.084", CBMS's fiscal year. */
export const cbmsFiscalYear = (fy: string) => {
  const start = Number(fy.slice(0, 4))
  return `${start}.${String(start + 1).slice(1)}`
}

/** "2083-08-13" → "2083.08.13", CBMS's BS date. */
export const cbmsDate = (bs: string) => bs.replaceAll('-', '.')

const rupees = (paisa: number | null) => Number(((paisa ?? 0) / 100).toFixed(2))

/** Queues the report of a just-issued invoice when its venue has CBMS enabled (issuing transaction). */
export async function queueCbms(ctx: AppContext, trx: Executor, row: ReceiptRow, now: Date) {
  if (!(await ird.reportsToCbms(trx, row.venue_id))) return
  await ird.insertSync(trx, row.id, row.venue_id, now)
  await ctx.jobs.enqueue(
    CBMS_JOB,
    { receipt_id: row.id },
    { uniqueKey: `ird:${row.id}`, maxAttempts: CBMS_MAX_ATTEMPTS },
    trx,
  )
}

/** The body CBMS takes for an invoice (/api/bill) or a credit note (/api/billreturn). */
export function cbmsBody(
  row: ReceiptRow,
  auth: { username: string; password: string; seller_pan: string },
  buyer: { buyer_pan: string | null },
  original: ReceiptRow | undefined,
  realtime: boolean,
  clientTime: string,
): Record<string, string | number | boolean> {
  const common = {
    username: auth.username,
    password: auth.password,
    seller_pan: auth.seller_pan,
    buyer_pan: buyer.buyer_pan ?? '',
    buyer_name: row.customer_name,
    fiscal_year: cbmsFiscalYear(row.fiscal_year),
    total_sales: rupees(row.total),
    taxable_sales_vat: rupees(row.taxable_amount),
    vat: rupees(row.vat_amount),
    excisable_amount: 0,
    excise: 0,
    taxable_sales_hst: 0,
    hst: 0,
    amount_for_esf: 0,
    esf: 0,
    export_sales: 0,
    tax_exempted_sales: row.vat_registered ? 0 : rupees(row.total),
    isrealtime: realtime,
    datetimeClient: clientTime,
  }
  if (row.type === 'credit_note') {
    return {
      ...common,
      ref_invoice_number: original?.receipt_number ?? '',
      credit_note_number: row.receipt_number,
      credit_note_date: cbmsDate(row.issued_on_bs),
      reason_for_return: row.reason ?? 'Refund',
    }
  }
  return { ...common, invoice_number: row.receipt_number, invoice_date: cbmsDate(row.issued_on_bs) }
}

/** CBMS's answer as a number (it answers `200`, sometimes quoted); NaN when it is not one. */
function codeOf(text: string): number {
  return Number(text.trim().replace(/^"|"$/g, ''))
}

/** The job: report one invoice to CBMS and record the outcome. Throws to be tried again. */
export async function reportToCbms(ctx: AppContext, receiptId: number): Promise<void> {
  const sync = await ird.syncOf(ctx.db, receiptId)
  if (!sync || sync.status === 'synced') return
  const row = await findReceipt(ctx.db, receiptId)
  if (!row) return
  const settings = await ird.settingsOf(ctx.db, row.venue_id)
  const now = ctx.clock.now()
  const attempts = sync.attempts + 1
  const record = (
    status: 'pending' | 'synced' | 'failed',
    code: number | null,
    error: string | null,
    realtime: boolean,
  ) =>
    ird.recordSync(ctx.db, receiptId, {
      status,
      attempts,
      last_code: code,
      last_error: error,
      realtime,
      synced_at: status === 'synced' ? now : null,
      updated_at: now,
    })
  if (!settings) {
    await record('failed', null, 'CBMS is not set up for this venue.', sync.realtime)
    return
  }
  const realtime = now.getTime() - new Date(row.issued_at).getTime() <= REALTIME_MS
  const buyer = await ird.deskBuyerOf(ctx.db, receiptId)
  const original = row.credit_of === null ? undefined : await findReceipt(ctx.db, row.credit_of)
  const body = cbmsBody(
    row,
    {
      username: settings.username,
      password: openSecret(ctx.config.appKey, settings.password_encrypted),
      seller_pan: settings.seller_pan,
    },
    { buyer_pan: buyer ? buyer.buyer_pan : row.buyer_pan },
    original,
    realtime,
    ctx.zone.format(now),
  )
  const path = row.type === 'credit_note' ? '/api/billreturn' : '/api/bill'
  let code: number
  let error: string
  try {
    const res = await fetch(`${ctx.config.irdCbmsUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    })
    const text = await res.text()
    code = res.ok ? codeOf(text) : Number.NaN
    error = res.ok ? `CBMS answered ${text.slice(0, 200)}` : `CBMS answered HTTP ${res.status}`
  } catch (err) {
    code = Number.NaN
    error = `CBMS could not be reached: ${(err as Error).message}`
  }
  if (code === 200 || code === 101) {
    await record('synced', code, null, realtime)
    return
  }
  const known = Number.isFinite(code) ? code : null
  const retry = (known === null || RETRYABLE.has(known)) && attempts < CBMS_MAX_ATTEMPTS
  await record(retry ? 'pending' : 'failed', known, error, realtime)
  if (retry) throw new Error(error)
}

export function registerReceiptJobs(ctx: AppContext) {
  ctx.jobs.register(CBMS_JOB, (payload) => reportToCbms(ctx, Number(payload.receipt_id)))
}
