import type { Insertable } from 'kysely'
import type { Payments } from '../../db/types.ts'
import type { AppContext } from '../../lib/context.ts'
import type { Executor } from '../../lib/db.ts'
import { Invalid, Unprocessable } from '../../lib/errors.ts'
import { formatMoney, formatRupees } from '../../lib/money.ts'
import type { Zone } from '../../lib/zone.ts'
import {
  account,
  accountSum,
  type Line,
  lockVenueBalance,
  normalBalance,
  post,
  returnCommission,
  syncPlatformDiscount,
  transfer,
} from '../ledger/index.ts'
import { notify } from '../notifications/index.ts'
import { issueCreditNote } from '../receipts/index.ts'
import { creditWallet } from '../wallet/index.ts'
import { emitPaymentEvent } from '../webhooks/index.ts'
import { cashBackFellDue } from './cash-backs.ts'
import { customerShare } from './customer-share.ts'
import { isCounterGateway, refundAtGateway } from './gateway-refunds.ts'
import { paymentRowsOf } from './queries.ts'
import { type BookingKind, lowerPaidAmount } from './repository/bookings.ts'
import { insertCashBack } from './repository/cash-backs.ts'
import { insertPayment, lockRefundablePayments, movePayment, newReference } from './repository/payments.ts'

// The payment rows of bookings as both booking kinds show and refund them. Payments reads the same
// rows for its own steps through this module (docs/architecture.md, "Booking core and money direction").

export interface PaymentRecord {
  id: number
  method: string
  amount: string
  refunded_amount: string
  status: string
  reference: string | null
  paid_at: string | null
  created_at: string | null
  unverified: boolean
}

/** Wallet ledger reference_type of a booking kind ("booking" for courts, "indoor" for indoor games). */
export const ledgerReferenceType = (kind: BookingKind) => (kind === 'court' ? 'booking' : 'indoor')

export function toPaymentRecord(
  p: {
    id: number
    method: string
    amount: number
    refunded_amount: number
    status: string
    reference: string | null
    completed_at: Date | string | null
    created_at: Date | string | null
    unverified: boolean
  },
  zone: Zone,
): PaymentRecord {
  return {
    id: p.id,
    method: p.method,
    amount: formatMoney(p.amount),
    refunded_amount: formatMoney(p.refunded_amount),
    status: p.status,
    reference: p.reference,
    paid_at: zone.format(p.completed_at),
    created_at: zone.format(p.created_at),
    unverified: p.unverified,
  }
}

/** Payment history of bookings, keyed by booking id (for the `payments` field). */
export async function paymentsFor(
  db: Executor,
  kind: BookingKind,
  bookingIds: number[],
  zone: Zone,
): Promise<Map<number, PaymentRecord[]>> {
  const out = new Map<number, PaymentRecord[]>()
  if (bookingIds.length === 0) return out
  const rows = await paymentRowsOf(db, kind, bookingIds)
  for (const row of rows) {
    const list = out.get(row.payable_id) ?? []
    list.push(toPaymentRecord(row, zone))
    out.set(row.payable_id, list)
  }
  return out
}

/** A payment as refunds read it. */
export interface RefundablePayment {
  id: number
  method: string
  amount: number
  refunded_amount: number
  paid_amount: number | null
  recorded_by: number | null
  /** A desk payment whose gateway money nobody verified (a reference typed before desk QR payments). */
  unverified: boolean
  /** Who paid it (a share of a split booking is paid by whoever took it); the booking's customer when absent. */
  user_id?: number | null
  gateway_transaction_id?: string | null
}

/** The booking a refund belongs to. */
export interface RefundTarget {
  id: number
  venue_id: number
  user_id: number | null
  /** Named in what a payer other than the customer (a split booking's share) is told. */
  booking_number?: string
}

/**
 * Refunds a booking's completed payments by the way the money came (refundQuote): `toWallet` paisa of
 * its online payments to the wallet of whoever paid each (the customer, or a share's payer), charged to the venue's balance; `atDesk` paisa of its
 * desk payments as cash-backs due at the venue's desk (cash) or gateway refunds due at the gateway
 * (gateway money taken at the desk; never wallet money). The payments are marked
 * refunded / partially_refunded and the booking's paid_amount lowered by both (it is net of
 * refunds). Runs in the caller's transaction. `by`: who cancelled or refunded (null: the system).
 * `toOthers`: of what was credited, what went to payers other than the customer (a split's shares).
 */
export async function refundBooking(
  ctx: AppContext,
  trx: Executor,
  kind: BookingKind,
  booking: RefundTarget,
  amounts: { toWallet: number; atDesk: number },
  reason: string,
  by: number | null = null,
): Promise<{ credited: number; toOthers: number }> {
  if (amounts.toWallet + amounts.atDesk <= 0) return { credited: 0, toOthers: 0 }
  const payments = await lockRefundablePayments(trx, kind, booking.id)
  const left = { online: amounts.toWallet, desk: amounts.atDesk }
  const online: Array<{ payment: RefundablePayment; take: number }> = []
  for (const p of payments) {
    const way = p.recorded_by === null ? 'online' : 'desk'
    const take = Math.min(left[way], p.amount - p.refunded_amount)
    if (take <= 0) continue
    if (way === 'online') online.push({ payment: p, take })
    else if (isCounterGateway(p)) await refundAtGateway(ctx, trx, kind, booking, p, take, reason)
    else await refundAtDesk(ctx, trx, kind, booking, p, take, reason, by)
    await paymentRefunded(ctx, trx, kind, booking, p, take, reason)
    left[way] -= take
  }
  if (left.online > 0 || left.desk > 0) throw new Unprocessable('The refund is more than was paid for this booking.')
  await lowerPaid(ctx, trx, kind, booking.id, amounts.toWallet + amounts.atDesk)
  // Online money goes back to whoever paid it: each payer of a split booking's shares their own.
  const byPayer = new Map<number | null, Array<{ payment: RefundablePayment; take: number }>>()
  for (const part of online) {
    const payer = part.payment.user_id ?? booking.user_id
    byPayer.set(payer, [...(byPayer.get(payer) ?? []), part])
  }
  let credited = 0
  let toOthers = 0
  for (const [payer, parts] of byPayer) {
    const given = await refundOnline(ctx, trx, kind, booking, payer, parts, reason)
    credited += given
    if (payer !== booking.user_id) toOthers += given
    // The customer is told by the caller (BookingCancelled); another payer of a share, here.
    if (payer !== null && payer !== booking.user_id && given > 0) {
      await notify(
        ctx,
        payer,
        'BookingRefunded',
        {
          message: `${formatRupees(given)} of your payment for booking ${booking.booking_number ?? booking.id} was refunded to your wallet.`,
          booking_id: booking.id,
          booking_type: kind,
          booking_number: booking.booking_number ?? null,
          venue_id: booking.venue_id,
          payment_id: parts[0].payment.id,
          refund_amount: formatMoney(given),
          refunded_to: 'wallet',
        },
        trx,
      )
    }
  }
  return { credited, toOthers }
}

/**
 * Returns `amountPaisa` of one completed payment the way it came: an online payment to the
 * customer's wallet (charged to the venue's balance), a desk cash payment as a cash-back due at the
 * venue's desk, gateway money taken at the desk as a gateway refund due at its gateway (whatever
 * `to` says: the caller refuses other choices), or, when an owner or manager chooses `to: 'wallet'`
 * for desk cash, to the wallet
 * from the venue's own balance with the platform (422 when that balance does not cover it);
 * `to: 'source'` records a refund the gateway has made (Khalti's refund API). Used for
 * the venue's manual refund (`applied`: the money was part of the booking's paid_amount, which is
 * lowered by it), or money a booking could not take (an overpayment, a payment for a booking no
 * longer active: never applied). The caller holds the booking's and the payment's row locks and
 * has checked the amount against what is refundable.
 */
export async function returnPayment(
  ctx: AppContext,
  trx: Executor,
  kind: BookingKind,
  booking: RefundTarget,
  payment: RefundablePayment,
  userId: number | null,
  amountPaisa: number,
  opts: { description: string; applied: boolean; to?: 'wallet' | 'desk' | 'source' | 'gateway'; by?: number | null },
): Promise<{ credited: number }> {
  const desk = payment.recorded_by !== null
  const to = opts.to ?? (desk ? 'desk' : 'wallet')
  let credited = 0
  if (isCounterGateway(payment)) {
    await refundAtGateway(ctx, trx, kind, booking, payment, amountPaisa, opts.description)
  } else if (to === 'source') {
    // The gateway has already sent it back (payments asked it): the venue's balance pays the gateway.
    await post(trx, {
      kind: 'refund_to_source',
      occurredAt: ctx.clock.now(),
      description: opts.description,
      paymentId: payment.id,
      booking: { kind, id: booking.id },
      venueId: booking.venue_id,
      userId,
      createdBy: opts.by ?? null,
      lines: transfer(account.venueBalance(booking.venue_id), account.gatewayClearing(payment.method), amountPaisa),
    })
  } else if (to === 'desk' && desk) {
    await refundAtDesk(ctx, trx, kind, booking, payment, amountPaisa, opts.description, opts.by ?? null)
  } else {
    if (userId === null) throw new Unprocessable('This payment has no customer wallet to refund to.')
    if (desk) {
      await creditFromVenueBalance(ctx, trx, kind, booking, payment, userId, amountPaisa, opts)
      credited = amountPaisa
    } else {
      credited = await refundOnline(ctx, trx, kind, booking, userId, [{ payment, take: amountPaisa }], opts.description)
    }
  }
  await paymentRefunded(ctx, trx, kind, booking, payment, amountPaisa, opts.description)
  if (opts.applied) await lowerPaid(ctx, trx, kind, booking.id, amountPaisa)
  return { credited }
}

/** paid_amount down by a refund (it is net of refunds), and the platform's part of a discount with it. */
async function lowerPaid(ctx: AppContext, trx: Executor, kind: BookingKind, bookingId: number, refunded: number) {
  const b = await lowerPaidAmount(trx, kind, bookingId, refunded, ctx.clock.now())
  await syncPlatformDiscount(
    trx,
    { kind, id: bookingId, venueId: b.venue_id, paid: b.paid_amount, total: b.total_amount },
    ctx.clock.now(),
  )
}

/**
 * What follows every refund of `take` paisa of one payment once its money has gone back (to the
 * wallet, as a cash-back, or at the gateway), in one fixed order: the commission on it back to the
 * venue in proportion (read before the payment moves), the payment's status (state machine event
 * `refund`), its credit note, the payment.refunded webhook. The refund side's one step, as
 * receivePayment is the arriving side's.
 */
async function paymentRefunded(
  ctx: AppContext,
  trx: Executor,
  kind: BookingKind,
  booking: RefundTarget,
  payment: RefundablePayment,
  take: number,
  reason: string,
) {
  const now = ctx.clock.now()
  await returnCommission(
    trx,
    { paymentId: payment.id, venueId: booking.venue_id, booking: { kind, id: booking.id }, occurredAt: now },
    { amount: payment.amount, refundedBefore: payment.refunded_amount, take },
  )
  const moved = await movePayment(trx, payment.id, { event: 'refund', amount: take }, now)
  if (!moved) throw new Error(`payment ${payment.id}: refund of a payment that is not completed`)
  await issueCreditNote(ctx, trx, payment.id, take, reason)
  await emitPaymentEvent(ctx, trx, payment.id, 'refunded')
}

/**
 * Online money back to the wallet: one credit, charged to the venue's balance (less any gateway
 * promotion the customer did not pay). Returns the paisa credited.
 */
async function refundOnline(
  ctx: AppContext,
  trx: Executor,
  kind: BookingKind,
  booking: RefundTarget,
  userId: number | null,
  parts: Array<{ payment: RefundablePayment; take: number }>,
  description: string,
): Promise<number> {
  if (userId === null) throw new Unprocessable('This booking has no customer wallet to refund to.')
  let taken = 0
  let given = 0
  const promotion: Line[] = []
  for (const { payment, take } of parts) {
    const give = customerShare(payment, take)
    taken += take
    given += give
    if (take > give) promotion.push([account.gatewayPromotion(payment.method), give - take])
  }
  const booked = { kind, id: booking.id }
  const contra: Line[] = [[account.venueBalance(booking.venue_id), taken], ...promotion]
  const occurredAt = ctx.clock.now()
  if (given === 0) {
    // Nothing the customer paid is left to return: the venue's part goes back to the promotion.
    await post(trx, {
      kind: 'refund_to_wallet',
      occurredAt,
      description,
      paymentId: parts[0].payment.id,
      booking: booked,
      venueId: booking.venue_id,
      userId,
      lines: contra,
    })
    return 0
  }
  await creditWallet(
    trx,
    userId,
    given,
    { referenceType: ledgerReferenceType(kind), referenceId: booking.id, description, paymentId: parts[0].payment.id },
    { kind: 'refund_to_wallet', occurredAt, contra, venueId: booking.venue_id, booking: booked },
  )
  return given
}

/**
 * Desk money refunded: a cash-back due at the venue's desk until staff record handing it over, `by`
 * (who cancelled or refunded) kept on it; the venue's owner is told.
 */
async function refundAtDesk(
  ctx: AppContext,
  trx: Executor,
  kind: BookingKind,
  booking: RefundTarget,
  payment: RefundablePayment,
  amount: number,
  reason: string,
  by: number | null,
) {
  const now = ctx.clock.now()
  const cashBack = await insertCashBack(trx, {
    venue_id: booking.venue_id,
    booking_type: kind,
    booking_id: booking.id,
    payment_id: payment.id,
    user_id: booking.user_id,
    amount,
    reason,
    cancelled_by: by,
    created_at: now,
  })
  await post(trx, {
    kind: 'desk_refund',
    occurredAt: now,
    description: `${reason} (cash-back ${cashBack.id} due at the desk)`,
    paymentId: payment.id,
    booking: { kind, id: booking.id },
    venueId: booking.venue_id,
    userId: booking.user_id,
    lines: transfer(account.venueDeskSales(booking.venue_id), account.cashBackDue(booking.venue_id), amount),
  })
  await cashBackFellDue(ctx, trx, booking.venue_id, cashBack.id)
}

export const VENUE_BALANCE_SHORT = "The venue's balance with the platform does not cover this refund."

/**
 * Desk money refunded to the wallet at an owner's or manager's choice: only from the venue's own
 * positive balance with the platform. An advisory lock per venue orders concurrent credits, so two
 * cannot both spend the same balance.
 */
async function creditFromVenueBalance(
  ctx: AppContext,
  trx: Executor,
  kind: BookingKind,
  booking: RefundTarget,
  payment: RefundablePayment,
  userId: number,
  amount: number,
  opts: { description: string; by?: number | null },
) {
  await lockVenueBalance(trx, booking.venue_id)
  const balance = normalBalance(
    account.venueBalance(booking.venue_id),
    await accountSum(trx, account.venueBalance(booking.venue_id)),
  )
  if (balance < amount) throw new Invalid('to', VENUE_BALANCE_SHORT)
  await creditWallet(
    trx,
    userId,
    amount,
    {
      referenceType: ledgerReferenceType(kind),
      referenceId: booking.id,
      description: opts.description,
      paymentId: payment.id,
    },
    {
      kind: 'venue_credit',
      occurredAt: ctx.clock.now(),
      contra: account.venueBalance(booking.venue_id),
      venueId: booking.venue_id,
      booking: { kind, id: booking.id },
      createdBy: opts.by ?? null,
    },
  )
}

/** A new payment row (a booking's or a top-up's) with a fresh reference for its gateway. */
export function newPayment(
  ctx: AppContext,
  trx: Executor,
  values: Omit<Insertable<Payments>, 'reference'> & { status: 'initiated' | 'completed' },
) {
  return insertPayment(trx, { ...values, reference: newReference(ctx.clock.now()) })
}
