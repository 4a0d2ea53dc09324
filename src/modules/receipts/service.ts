import type { AuthUser } from '../../lib/auth.ts'
import type { AppContext } from '../../lib/context.ts'
import type { Executor } from '../../lib/db.ts'
import { Conflict, Forbidden, NotFound } from '../../lib/errors.ts'
import { fiscalYearOf, toBs } from '../../lib/nepali-date.ts'
import { DESK_ROLES, venueRoleOf } from '../venues/index.ts'
import { queueCbms } from './cbms.ts'
import * as repo from './repository.ts'
import { type Receipt, type ReceiptLine, receiptResource } from './resource.ts'

// Receipts for money received for a booking and credit notes for money refunded, issued in the
// transaction that moves the money (docs/payments.md, "Receipts and IRD"). Booking-core and
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

const minutesOf = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3, 5))

/**
 * The platform coupon's share of a payment of `amount` (paisa) onto a booking with `paidBefore`
 * paid: the same proportion the ledger credits the venue (ledger/discounts.ts), as a difference.
 */
export function platformShareOf(
  f: Pick<repo.PaymentFacts, 'platform_discount' | 'total_amount'>,
  paidBefore: number,
  amount: number,
) {
  if (f.platform_discount === 0 || f.total_amount <= 0) return 0
  const upTo = (paid: number) =>
    Math.floor((f.platform_discount * Math.max(0, Math.min(paid, f.total_amount))) / f.total_amount)
  return upTo(paidBefore + amount) - upTo(paidBefore)
}

/**
 * The lines of a sale of `total` paisa (what the customer paid plus the platform's share). A payment
 * of the whole booking is itemised: hours × hourly rate, the extras, a venue coupon as its own
 * negative line (a platform coupon is no discount to the venue: its share is in the total). A part
 * payment (an advance, the rest at the desk) is one line towards the booking.
 */
export function saleLines(f: repo.PaymentFacts, total: number): { lines: ReceiptLine[]; discount: number } {
  const venueDiscount = f.discount_amount - f.platform_discount
  const whole = f.base_amount + f.extras_total - venueDiscount
  if (f.booking_paid === 0 && whole === total && f.base_amount > 0) {
    const minutes = minutesOf(f.end_time) - minutesOf(f.start_time)
    const hours = Math.round((minutes / 60) * 100) / 100
    const lines: ReceiptLine[] = [
      {
        description: bookingLine(f),
        quantity: hours,
        unit: 'hour',
        rate: hours > 0 ? Math.round(f.base_amount / hours) : f.base_amount,
        amount: f.base_amount,
      },
    ]
    if (f.extras_total > 0) {
      lines.push({ description: 'Extras', quantity: 1, unit: 'item', rate: f.extras_total, amount: f.extras_total })
    }
    if (venueDiscount > 0) {
      lines.push({
        description: 'Discount (coupon)',
        quantity: 1,
        unit: 'discount',
        rate: -venueDiscount,
        amount: -venueDiscount,
      })
    }
    return { lines, discount: Math.max(0, venueDiscount) }
  }
  const description = `Payment towards ${bookingLine(f)}`
  return { lines: [{ description, quantity: 1, unit: 'payment', rate: total, amount: total }], discount: 0 }
}

interface IssueExtra {
  credit_of: repo.ReceiptRow | undefined
  reason: string | null
  discount: number
  platform_share: number
  refunded: { amount: number; to: string } | null
}

async function issue(
  ctx: AppContext,
  trx: Executor,
  f: repo.PaymentFacts,
  series: repo.Series,
  total: number,
  lines: ReceiptLine[],
  extra: IssueExtra,
): Promise<repo.ReceiptRow> {
  const now = ctx.clock.now()
  const issuedOn = ctx.zone.today(now)
  const fiscalYear = fiscalYearOf(issuedOn)
  const n = await repo.nextNumber(trx, f.venue_id, fiscalYear, series)
  const vat = f.vat_registered ? vatSplit(total) : null
  const buyer = f.user_id === null ? undefined : await repo.customerDetails(trx, f.user_id)
  const row = await repo.insertReceipt(trx, {
    venue_id: f.venue_id,
    type: series,
    fiscal_year: fiscalYear,
    sequence: n,
    receipt_number: receiptNumber(series, fiscalYear, n),
    payment_id: f.payment_id,
    booking_type: f.booking_type,
    booking_id: f.booking_id,
    booking_number: f.booking_number,
    credit_of: extra.credit_of?.id ?? null,
    original_issued_on: extra.credit_of ? String(extra.credit_of.issued_on) : null,
    method: f.method,
    issued_at: now,
    issued_on: issuedOn,
    issued_on_bs: toBs(issuedOn),
    customer_name: f.customer_name,
    user_id: f.user_id,
    buyer_pan: buyer?.buyer_pan ?? null,
    buyer_address: buyer?.buyer_address ?? null,
    venue_legal_name: f.legal_name?.trim() || f.venue_name,
    venue_address: [f.address, f.city].filter((s) => s && s.trim() !== '').join(', '),
    venue_pan: f.pan_number,
    vat_registered: f.vat_registered,
    lines: JSON.stringify(lines),
    total,
    discount_amount: extra.discount,
    platform_share: extra.platform_share,
    taxable_amount: vat?.taxable ?? null,
    vat_amount: vat?.vat ?? null,
    reason: extra.reason,
    refunded_amount: extra.refunded?.amount ?? null,
    refunded_to: extra.refunded?.to ?? null,
    entered_by: f.recorded_by,
    transaction_id: f.transaction_id,
  })
  await queueCbms(ctx, trx, row, now)
  return row
}

/**
 * The invoice of a completed booking payment (gateway, wallet or desk), in the caller's transaction
 * (the one that moved the money, before the booking's paid_amount is raised). Its total is the sale:
 * what the customer paid plus what a platform coupon pays the venue for it. A payment that is not a
 * booking's (a wallet top-up) gets none: undefined.
 */
export async function issueReceipt(
  ctx: AppContext,
  trx: Executor,
  paymentId: number,
): Promise<repo.ReceiptRow | undefined> {
  const f = await repo.paymentFacts(trx, paymentId)
  if (!f) return undefined
  const share = platformShareOf(f, f.booking_paid, f.amount)
  const total = f.amount + share
  const { lines, discount } = saleLines(f, total)
  return issue(ctx, trx, f, 'receipt', total, lines, {
    credit_of: undefined,
    reason: null,
    discount,
    platform_share: share,
    refunded: null,
  })
}

/**
 * The credit note of `amount` paisa of a booking payment refunded (however it goes back: wallet,
 * source, desk cash-back, gateway), in the caller's transaction, referring to the payment's invoice.
 * It reverses the sale: the amount plus the invoice's platform share in proportion. `refunded` is
 * what actually reached the customer and where (less than `amount` when a Fonepay promotion paid
 * part of the payment); by default the amount.
 */
export async function issueCreditNote(
  ctx: AppContext,
  trx: Executor,
  paymentId: number,
  amount: number,
  reason: string | null,
  refunded?: { amount: number; to: string },
): Promise<repo.ReceiptRow | undefined> {
  if (amount <= 0) return undefined
  const f = await repo.paymentFacts(trx, paymentId)
  if (!f) return undefined
  const original = await repo.receiptOfPayment(trx, paymentId)
  const share = original ? Math.floor((Number(original.platform_share) * amount) / f.amount) : 0
  const total = amount + share
  const of = original ? `invoice ${original.receipt_number}, ` : ''
  const description = `Refund (${of}booking ${f.booking_number})`
  return issue(
    ctx,
    trx,
    f,
    'credit_note',
    total,
    [{ description, quantity: 1, unit: 'refund', rate: total, amount: total }],
    {
      credit_of: original,
      reason: reason?.trim() || null,
      discount: 0,
      platform_share: share,
      refunded: refunded ?? { amount, to: f.recorded_by === null ? 'wallet' : 'desk' },
    },
  )
}

/** The booking's customer, and the venue's owner, managers and staff (and any super_admin); else 403. */
async function assertMayRead(ctx: AppContext, user: AuthUser, parties: { user_id: number | null; venue_id: number }) {
  if (parties.user_id !== null && parties.user_id === user.id) return
  const role = await venueRoleOf(ctx.db, user, parties.venue_id)
  if (role === 'admin' || (role !== null && DESK_ROLES.includes(role))) return
  throw new Forbidden()
}

/** The rows with what is known about them besides: originals, the desk's buyer, prints, CBMS sync. */
async function withAnnex(ctx: AppContext, rows: repo.ReceiptRow[]): Promise<Receipt[]> {
  const known = new Map(rows.map((r) => [r.id, r]))
  const missing = rows.map((r) => r.credit_of).filter((id): id is number => id !== null && !known.has(id))
  for (const r of await repo.findReceipts(ctx.db, [...new Set(missing)])) known.set(r.id, r)
  const ids = rows.map((r) => r.id)
  const [buyers, prints, syncs] = await Promise.all([
    repo.buyersOf(ctx.db, ids),
    repo.printsOf(ctx.db, ids),
    repo.syncsOf(ctx.db, ids),
  ])
  return rows.map((r) =>
    receiptResource(r, ctx.zone, {
      original: r.credit_of === null ? undefined : known.get(r.credit_of),
      buyer: buyers.get(r.id),
      prints: prints.get(r.id),
      sync: syncs.get(r.id),
    }),
  )
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
  return withAnnex(ctx, await repo.receiptsOfBooking(ctx.db, kind, bookingId))
}

/** GET /receipts/{receipt}: one receipt or credit note, to the same people as its booking's list. */
export async function showReceipt(ctx: AppContext, user: AuthUser, id: number): Promise<Receipt> {
  const row = await repo.findReceipt(ctx.db, id)
  if (!row) throw new NotFound()
  const parties = await repo.bookingParties(ctx.db, row.booking_type as repo.BookingKind, row.booking_id)
  await assertMayRead(ctx, user, parties ?? { user_id: null, venue_id: row.venue_id })
  const [receipt] = await withAnnex(ctx, [row])
  return receipt
}

/**
 * GET /receipts/{receipt} as a PDF: one print, recorded (who, when) in the transaction that renders
 * it, so a PDF that fails to render uses up no copy number. The first print is the original (copy
 * 0); every later one is "Copy of Original (n)".
 */
export async function printReceipt(
  ctx: AppContext,
  user: AuthUser,
  id: number,
  render: (receipt: Receipt, copy: number) => Promise<Buffer>,
): Promise<{ receipt: Receipt; pdf: Buffer }> {
  const receipt = await showReceipt(ctx, user, id)
  const pdf = await ctx.db.transaction().execute(async (trx) => {
    const copy = await repo.recordPrint(trx, id, user.id, ctx.clock.now())
    return render(receipt, copy)
  })
  return { receipt, pdf }
}

export interface BuyerDetails {
  buyer_pan: string | null
  buyer_address: string | null
}

const clean = (d: BuyerDetails): BuyerDetails => ({
  buyer_pan: d.buyer_pan?.trim() || null,
  buyer_address: d.buyer_address?.trim() || null,
})

/**
 * PUT /receipts/{receipt}/buyer: the desk adds the buyer's PAN and address before the first print
 * (the venue's owner, managers, staff, super_admin); 409 once printed: an original is never changed.
 */
export async function setReceiptBuyer(ctx: AppContext, user: AuthUser, id: number, body: BuyerDetails) {
  const row = await repo.findReceipt(ctx.db, id)
  if (!row) throw new NotFound()
  const role = await venueRoleOf(ctx.db, user, row.venue_id)
  if (!(role === 'admin' || (role !== null && DESK_ROLES.includes(role)))) throw new Forbidden()
  const set = await ctx.db.transaction().execute((trx) => repo.setBuyer(trx, id, clean(body), user.id, ctx.clock.now()))
  if (!set) throw new Conflict('This invoice has been printed: its buyer details can no longer change.')
  return showReceipt(ctx, user, id)
}

/** GET /profile/invoice-details: what the caller's invoices print about them as a buyer. */
export async function myInvoiceDetails(ctx: AppContext, user: AuthUser): Promise<BuyerDetails> {
  const row = await repo.customerDetails(ctx.db, user.id)
  return { buyer_pan: row?.buyer_pan ?? null, buyer_address: row?.buyer_address ?? null }
}

/** PUT /profile/invoice-details: printed on the caller's invoices issued from now on. */
export async function saveMyInvoiceDetails(ctx: AppContext, user: AuthUser, body: BuyerDetails) {
  await repo.saveCustomerDetails(ctx.db, user.id, clean(body), ctx.clock.now())
  return myInvoiceDetails(ctx, user)
}
