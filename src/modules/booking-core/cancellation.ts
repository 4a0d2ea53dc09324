import { type TSchema, Type } from 'typebox'
import type { Executor } from '../../lib/db.ts'
import { Forbidden, Unprocessable } from '../../lib/errors.ts'
import { formatMoney, formatRupees } from '../../lib/money.ts'
import { Money, named } from '../../lib/schemas.ts'
import type { Zone } from '../../lib/zone.ts'
import { type BookingKind, cancellableBooking, freeCancellationHours } from './repository/bookings.ts'
import { receivedFor, refundableOf } from './repository/payments.ts'
import type { BookingStatus } from './state.ts'

// What cancelling a booking refunds, and why: one answer for the preview route
// (GET …/cancellation), the cancel itself, its response message and the BookingCancelled
// notification. A booking is refunded what is still refundable on its payments (paid − refunded),
// never more, so a partial refund made earlier by the venue never makes a cancel fail.

export type CancelledBy = 'customer' | 'venue' | 'system'

export interface CancellableBooking {
  id: number
  user_id: number | null
  venue_id: number
  status: BookingStatus
  date: string
  start_time: string
  paid_amount: number
}

export interface RefundQuote {
  /** Paisa that cancelling now refunds: toWallet + atDesk. */
  refund: number
  /** Of it, paid online: credited to the customer's wallet. */
  toWallet: number
  /** Of it, paid at the desk: handed back at the venue's desk, never wallet money. */
  atDesk: number
  /**
   * What of `refund` reaches the customer: less than it when a gateway promotion (Fonepay P_AMT)
   * paid part of a payment; the promotion's part goes back to the gateway's promotion account.
   */
  given: number
  /** Of `given`, what reaches the wallet. */
  givenToWallet: number
  /** Why, for the preview: "Cancelled at least 24 hours before the start: Rs 1,200.00 …". */
  reason: string
  /** What the customer is told after cancelling; null when nothing was paid (nothing to say). */
  note: string | null
}

export const CancellationPreviewSchema = named(
  'CancellationPreview',
  Type.Object({
    data: Type.Object({
      cancellable: Type.Boolean({ description: 'Whether the caller may cancel the booking now' }),
      refund_amount: Type.String({
        description:
          'NPR that cancelling now refunds ("0.00" when none): online money to the wallet, desk money at the desk',
      }),
      reason: Type.String({ description: 'Why: the refund window, an earlier refund, or why it cannot be cancelled' }),
    }),
  }),
)

/** The cancel answer: the booking, plus what was credited in figures and in words. */
export const CancelAnswer = (booking: TSchema) =>
  Type.Object({
    message: Type.String({ description: '"Booking cancelled. Rs 1,200.00 refunded to your wallet." or why no refund' }),
    refund_amount: Money,
    data: booking,
  })

/** The preview's data: {cancellable, refund_amount, reason}. */
export interface CancellationPreview {
  cancellable: boolean
  refund_amount: string
  reason: string
}

/** Whether the booking's venue-local start time has passed. */
export function hasStarted(b: { date: string; start_time: string }, now: Date, zone: Zone): boolean {
  return zone.instant(b.date, b.start_time).getTime() <= now.getTime()
}

/**
 * Why the customer may not cancel, or null when they may. Cancelling a completed booking is 403
 * (the contract); other final or running states and a booking that has started are 422.
 */
export function customerCancelRefusal(
  b: { status: BookingStatus; date: string; start_time: string },
  now: Date,
  zone: Zone,
): { forbidden: boolean; reason: string } | null {
  if (b.status === 'completed') return { forbidden: true, reason: 'A completed booking cannot be cancelled.' }
  if (b.status !== 'pending' && b.status !== 'confirmed') {
    return { forbidden: false, reason: `A ${b.status.replace('_', '-')} booking cannot be cancelled.` }
  }
  if (hasStarted(b, now, zone)) return { forbidden: false, reason: 'A booking that has started cannot be cancelled.' }
  return null
}

/** Throws the cancel route's answer when the customer may not cancel `b`. */
export function assertCustomerMayCancel(
  b: { status: BookingStatus; date: string; start_time: string },
  now: Date,
  zone: Zone,
): void {
  const refusal = customerCancelRefusal(b, now, zone)
  if (!refusal) return
  throw refusal.forbidden ? new Forbidden() : new Unprocessable(refusal.reason)
}

const hours = (n: number) => `${n} hour${n === 1 ? '' : 's'}`

/**
 * What cancelling `b` now, by `by`, would refund and why (read in the caller's transaction). Money
 * goes back the way it came: what was paid online (gateway, wallet) to the customer's wallet, what
 * was paid at the desk (cash, or a gateway payment staff took at the counter) back at the venue's
 * desk; desk money never becomes platform wallet money.
 */
export async function refundQuote(
  db: Executor,
  kind: BookingKind,
  b: CancellableBooking,
  by: CancelledBy,
  now: Date,
  zone: Zone,
): Promise<RefundQuote> {
  const none = (reason: string, note: string | null = reason): RefundQuote => ({
    refund: 0,
    toWallet: 0,
    atDesk: 0,
    given: 0,
    givenToWallet: 0,
    reason,
    note,
  })
  // paid_amount is net of refunds; what was ever received tells "already refunded" from "never paid".
  const left =
    b.paid_amount > 0
      ? await refundableOf(db, kind, b.id)
      : { online: 0, desk: 0, deskGateway: 0, onlineGiven: 0, deskGatewayGiven: 0 }
  const refundable = left.online + left.desk
  const received = refundable > 0 || b.paid_amount > 0 ? b.paid_amount : await receivedFor(db, kind, b.id)
  if (received === 0 && refundable === 0) {
    return none('Nothing has been paid for this booking, so there is nothing to refund.', null)
  }
  if (refundable === 0) return none('No refund: what was paid for this booking has already been refunded.')
  // A booking without a customer account has no wallet: only desk money can go back.
  const toWallet = b.user_id === null ? 0 : left.online
  const givenToWallet = b.user_id === null ? 0 : left.onlineGiven
  const atDesk = left.desk
  const cashAtDesk = atDesk - left.deskGateway
  if (toWallet + atDesk === 0) return none('No refund: a booking made at the desk has no wallet to refund to.')
  const parts = [
    toWallet > 0 ? `${formatRupees(givenToWallet)} refunded to your wallet.` : '',
    cashAtDesk > 0 ? `${formatRupees(cashAtDesk)} paid at the venue is refunded at its desk.` : '',
    left.deskGateway > 0
      ? `${formatRupees(left.deskGatewayGiven)} paid by eSewa, Khalti or Fonepay at the venue goes back through that gateway.`
      : '',
  ]
  const said = parts.filter(Boolean).join(' ')
  const refundedBefore = (await receivedFor(db, kind, b.id)) - refundable
  const earlier = refundedBefore > 0 ? ` ${formatRupees(refundedBefore)} was refunded earlier.` : ''
  const given = givenToWallet + cashAtDesk + left.deskGatewayGiven
  const refund = { refund: toWallet + atDesk, toWallet, atDesk, given, givenToWallet, note: said }
  if (by !== 'customer') return { ...refund, reason: `Cancelled by the venue: ${said}${earlier}` }
  const window = await freeCancellationHours(db, b.venue_id)
  const hoursLeft = (zone.instant(b.date, b.start_time).getTime() - now.getTime()) / 3_600_000
  if (hoursLeft < window) return none(`No refund: less than ${hours(window)} before the start.`)
  return { ...refund, reason: `At least ${hours(window)} before the start: ${said}${earlier}` }
}

/** GET …/cancellation: what cancelling the caller's booking now would do (no lock, no change). */
export async function previewCancellation(
  db: Executor,
  kind: BookingKind,
  bookingId: number,
  now: Date,
  zone: Zone,
): Promise<CancellationPreview> {
  const b = await cancellableBooking(db, kind, bookingId)
  const refusal = customerCancelRefusal(b, now, zone)
  if (refusal) return { cancellable: false, refund_amount: formatMoney(0), reason: refusal.reason }
  const quote = await refundQuote(db, kind, b, 'customer', now, zone)
  return { cancellable: true, refund_amount: formatMoney(quote.given), reason: quote.reason }
}

/** The cancel response's message: "Booking cancelled. Rs 1,200.00 refunded to your wallet." */
export function cancelledMessage(note: string | null): string {
  return note ? `Booking cancelled. ${note}` : 'Booking cancelled.'
}
