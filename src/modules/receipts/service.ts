import type { AuthUser } from '../../lib/auth.ts'
import type { AppContext } from '../../lib/context.ts'
import type { Executor } from '../../lib/db.ts'
import { Forbidden, NotFound } from '../../lib/errors.ts'
import { fiscalYearOf, toBs } from '../../lib/nepali-date.ts'
import { DESK_ROLES, venueRoleOf } from '../venues/index.ts'
import * as repo from './repository.ts'
import { type Receipt, type ReceiptLine, receiptResource } from './resource.ts'

// Receipts for money received for a booking and credit notes for money refunded, issued in the
// transaction that moves the money (docs/payments.md, "Receipts and VAT"). Booking-core and
// payments call issueReceipt / issueCreditNote; this module imports neither of them.

/** VAT in Nepal: 13%, included in the price. */
export const VAT_PERCENT = 13

const PREFIX: Record<repo.Series, string> = { receipt: 'R', credit_note: 'CN' }

/**
 * The taxable amount and VAT of a VAT-inclusive total (paisa): taxable = total / 1.13 rounded to
 * the paisa (half up), VAT = total − taxable, so the two always add up to the total.
 * 150000 (1500.00) → 132743 + 17257.
 */
export function vatSplit(total: number): { taxable: number; vat: number } {
  // Integer arithmetic: round(total × 100 / 113) = floor((200 × total + 113) / 226).
  const taxable = Math.floor((200 * total + 100 + VAT_PERCENT) / (2 * (100 + VAT_PERCENT)))
  return { taxable, vat: total - taxable }
}

/** "R-2082/83-000042": the series' prefix, the fiscal year and the number (at least 6 digits). */
export const receiptNumber = (series: repo.Series, fiscalYear: string, n: number) =>
  `${PREFIX[series]}-${fiscalYear}-${String(n).padStart(6, '0')}`

function bookingLine(f: repo.PaymentFacts): string {
  const what = f.booking_type === 'court' ? 'Court booking' : 'Indoor game booking'
  return `${what} ${f.booking_number}: ${f.item}, ${f.date} ${f.start_time.slice(0, 5)}-${f.end_time.slice(0, 5)}`
}

async function issue(
  ctx: AppContext,
  trx: Executor,
  f: repo.PaymentFacts,
  series: repo.Series,
  total: number,
  lines: ReceiptLine[],
  extra: { credit_of: number | null; reason: string | null },
): Promise<repo.ReceiptRow> {
  const now = ctx.clock.now()
  const issuedOn = ctx.zone.today(now)
  const fiscalYear = fiscalYearOf(issuedOn)
  const n = await repo.nextNumber(trx, f.venue_id, fiscalYear, series)
  const vat = f.vat_registered ? vatSplit(total) : null
  return repo.insertReceipt(trx, {
    venue_id: f.venue_id,
    type: series,
    fiscal_year: fiscalYear,
    sequence: n,
    receipt_number: receiptNumber(series, fiscalYear, n),
    payment_id: f.payment_id,
    booking_type: f.booking_type,
    booking_id: f.booking_id,
    booking_number: f.booking_number,
    credit_of: extra.credit_of,
    method: f.method,
    issued_at: now,
    issued_on: issuedOn,
    issued_on_bs: toBs(issuedOn),
    customer_name: f.customer_name,
    venue_legal_name: f.legal_name?.trim() || f.venue_name,
    venue_address: [f.address, f.city].filter((s) => s && s.trim() !== '').join(', '),
    venue_pan: f.pan_number,
    vat_registered: f.vat_registered,
    lines: JSON.stringify(lines),
    total,
    taxable_amount: vat?.taxable ?? null,
    vat_amount: vat?.vat ?? null,
    reason: extra.reason,
  })
}

/**
 * The receipt of a completed booking payment (gateway, wallet or desk) for its whole amount, in
 * the caller's transaction (the one that moved the money). A payment that is not a booking's (a
 * wallet top-up) gets none: undefined.
 */
export async function issueReceipt(
  ctx: AppContext,
  trx: Executor,
  paymentId: number,
): Promise<repo.ReceiptRow | undefined> {
  const f = await repo.paymentFacts(trx, paymentId)
  if (!f) return undefined
  return issue(ctx, trx, f, 'receipt', f.amount, [{ description: bookingLine(f), amount: f.amount }], {
    credit_of: null,
    reason: null,
  })
}

/**
 * The credit note of `amount` paisa refunded of a booking payment (however it goes back: wallet,
 * source, desk cash-back), in the caller's transaction, referring to the payment's receipt.
 */
export async function issueCreditNote(
  ctx: AppContext,
  trx: Executor,
  paymentId: number,
  amount: number,
  reason: string | null,
): Promise<repo.ReceiptRow | undefined> {
  if (amount <= 0) return undefined
  const f = await repo.paymentFacts(trx, paymentId)
  if (!f) return undefined
  const original = await repo.receiptOfPayment(trx, paymentId)
  const of = original ? `receipt ${original.receipt_number}, ` : ''
  const description = `Refund (${of}booking ${f.booking_number})`
  return issue(ctx, trx, f, 'credit_note', amount, [{ description, amount }], {
    credit_of: original?.id ?? null,
    reason: reason?.trim() || null,
  })
}

/** The booking's customer, and the venue's owner, managers and staff (and any super_admin); else 403. */
async function assertMayRead(ctx: AppContext, user: AuthUser, parties: { user_id: number | null; venue_id: number }) {
  if (parties.user_id !== null && parties.user_id === user.id) return
  const role = await venueRoleOf(ctx.db, user, parties.venue_id)
  if (role === 'admin' || (role !== null && DESK_ROLES.includes(role))) return
  throw new Forbidden()
}

async function withOriginals(ctx: AppContext, rows: repo.ReceiptRow[]): Promise<Receipt[]> {
  const known = new Map(rows.map((r) => [r.id, r]))
  const missing = rows.map((r) => r.credit_of).filter((id): id is number => id !== null && !known.has(id))
  for (const r of await repo.findReceipts(ctx.db, [...new Set(missing)])) known.set(r.id, r)
  return rows.map((r) => receiptResource(r, ctx.zone, r.credit_of === null ? undefined : known.get(r.credit_of)))
}

/** GET /bookings/{booking}/receipts and its indoor twin: the booking's receipts and credit notes, oldest first. */
export async function bookingReceipts(
  ctx: AppContext,
  user: AuthUser,
  kind: repo.BookingKind,
  bookingId: number,
): Promise<Receipt[]> {
  const parties = await repo.bookingParties(ctx.db, kind, bookingId)
  if (!parties) throw new NotFound()
  await assertMayRead(ctx, user, parties)
  return withOriginals(ctx, await repo.receiptsOfBooking(ctx.db, kind, bookingId))
}

/** GET /receipts/{receipt}: one receipt or credit note, to the same people as its booking's list. */
export async function showReceipt(ctx: AppContext, user: AuthUser, id: number): Promise<Receipt> {
  const row = await repo.findReceipt(ctx.db, id)
  if (!row) throw new NotFound()
  const parties = await repo.bookingParties(ctx.db, row.booking_type as repo.BookingKind, row.booking_id)
  await assertMayRead(ctx, user, parties ?? { user_id: null, venue_id: row.venue_id })
  const [receipt] = await withOriginals(ctx, [row])
  return receipt
}
