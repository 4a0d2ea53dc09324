import type { AppContext } from '../../lib/context.ts'
import { type Executor, savepoint } from '../../lib/db.ts'
import { Unprocessable } from '../../lib/errors.ts'
import { formatMoney, formatRupees } from '../../lib/money.ts'
import { toHHmm } from '../../lib/time.ts'
import { releaseCoupon, retakeCoupon } from '../coupons/index.ts'
import { syncPlatformDiscount } from '../ledger/index.ts'
import { notify } from '../notifications/index.ts'
import { emitBookingEvent } from '../webhooks/index.ts'
import { type CancelledBy, hasStarted, refundQuote } from './cancellation.ts'
import { isOverlapViolation } from './conflicts.ts'
import { refundBooking } from './payment-records.ts'
import {
  type BookingKind,
  cancelReasonOf,
  type LockedBooking,
  markCancelled,
  reinstateRow,
  setStatus,
} from './repository/bookings.ts'
import { type BookingEvent, nextStatus } from './state.ts'

// The one place a booking's status changes (court and indoor alike). `transition` checks the event
// against the table in state.ts, writes the row, and runs what follows in the caller's transaction:
// - confirm: booking.confirmed webhook, BookingConfirmed / IndoorGameBookingConfirmed;
// - cancel, expire: refund by policy, coupon usage released when nothing stays paid, booking.cancelled
//   webhook, BookingCancelled, then the freed slot (ctx.steps.slotFreed: the waitlist's offer);
// - reinstate: the coupon taken again (or the reinstatement refused when it has been used up);
// - playing, completed, no_show: the row, completed's webhook, no_show's freed slot.
// Money columns change only through booking-core too (payable.ts: paid_amount; operations.ts:
// charges; discounts.ts: the coupon at creation). docs/architecture.md, "Who owns booking state".

/** The hold sweep's cancel reason; only a booking cancelled with it may be reinstated. */
export const HOLD_EXPIRED_REASON = 'Payment not received'

/** An event the table refuses for the booking's status: a bug in the caller, or a race it lost. */
export class TransitionRefused extends Unprocessable {
  constructor(
    readonly from: string,
    readonly event: BookingEvent,
  ) {
    super(`A ${from.replace('_', '-')} booking cannot be ${event === 'cancel' ? 'cancelled' : `moved by ${event}`}.`)
  }
}

export interface TransitionOptions {
  /** cancel: the cancel_reason stored and told. expire always uses HOLD_EXPIRED_REASON. */
  reason?: string | null
  /** cancel: who cancels (the refund policy: the customer only inside the free-cancellation window). */
  by?: CancelledBy
  /** cancel: a sentence telling the customer why, after "Your booking … was cancelled." (a maintenance block's reason). */
  why?: string
  /** cancel: the user who cancels (kept on a cash-back the cancel makes); none for the system. */
  actor?: number | null
}

export interface TransitionOutcome {
  /** Whether the booking moved (only reinstate can decline: slot taken, coupon used up, not a lapsed hold). */
  moved: boolean
  /** cancel, expire: paisa refunded (toWallet + atDesk). */
  refund: number
  /** cancel, expire: of it, online money credited to the wallet. */
  toWallet: number
  /** cancel, expire: of it, desk money refunded at the venue's desk. */
  atDesk: number
  /** cancel, expire: what of `refund` reaches the customer (less after a gateway promotion). */
  given: number
  /** cancel, expire: of `given`, what reaches the wallet. */
  givenToWallet: number
  /** cancel, expire: the words the customer is told about money; null when nothing was paid. */
  note: string | null
  /** reinstate declined: why the booking stays cancelled. */
  declined?: ReinstateRefusal
}

/** Why a reinstatement is declined: the slot was booked meanwhile, the coupon used up, or the booking was not a lapsed hold. */
export type ReinstateRefusal = 'slot_taken' | 'coupon_used_up' | 'not_lapsed'

const MOVED: TransitionOutcome = {
  moved: true,
  refund: 0,
  toWallet: 0,
  atDesk: 0,
  given: 0,
  givenToWallet: 0,
  note: null,
}

/**
 * Moves a booking the caller has locked (lockBooking) by `event`, in the caller's transaction.
 * Throws TransitionRefused when the table does not allow it from the booking's status.
 */
export async function transition(
  ctx: AppContext,
  trx: Executor,
  booking: LockedBooking,
  event: BookingEvent,
  opts: TransitionOptions = {},
): Promise<TransitionOutcome> {
  const to = nextStatus(booking.status, event)
  if (to === null) throw new TransitionRefused(booking.status, event)
  const now = ctx.clock.now()
  switch (event) {
    case 'confirm':
      await setStatus(trx, booking.kind, booking.id, to, now)
      if (booking.total_amount === 0) await syncFreeBooking(trx, booking, true, now)
      await emitBookingEvent(ctx, trx, booking.kind, booking.id, 'confirmed')
      await notifyConfirmed(ctx, trx, booking)
      return MOVED
    case 'cancel':
    case 'expire':
      return cancel(ctx, trx, booking, {
        reason: event === 'expire' ? HOLD_EXPIRED_REASON : (opts.reason ?? null),
        by: event === 'expire' ? 'system' : (opts.by ?? 'venue'),
        why: event === 'expire' ? undefined : opts.why,
        actor: event === 'expire' ? null : (opts.actor ?? null),
      })
    case 'reinstate': {
      const declined = await reinstate(ctx, trx, booking, now)
      return declined ? { ...MOVED, moved: false, declined } : MOVED
    }
    case 'no_show':
      await setStatus(trx, booking.kind, booking.id, to, now)
      await emitBookingEvent(ctx, trx, booking.kind, booking.id, 'no_show')
      await ctx.steps.slotFreed(trx, booking.kind, booking.id)
      return MOVED
    case 'completed':
      await setStatus(trx, booking.kind, booking.id, to, now)
      await emitBookingEvent(ctx, trx, booking.kind, booking.id, 'completed')
      return MOVED
    case 'playing':
      await setStatus(trx, booking.kind, booking.id, to, now)
      return MOVED
  }
}

/**
 * cancel and expire: status, reason and time, the hold cleared; the coupon given back when nothing
 * stays paid (unpaid, or refunded in full now); what the policy allows refunded to the wallet (never more than is still refundable on its
 * payments); BookingCancelled stating the amount or why none; then the slot is offered on.
 */
async function cancel(
  ctx: AppContext,
  trx: Executor,
  booking: LockedBooking,
  opts: { reason: string | null; by: CancelledBy; why?: string; actor: number | null },
): Promise<TransitionOutcome> {
  const { kind } = booking
  const now = ctx.clock.now()
  const quote = await refundQuote(trx, kind, booking, opts.by, now, ctx.zone)
  await markCancelled(trx, kind, booking.id, opts.reason, now)
  if (booking.total_amount === 0) await syncFreeBooking(trx, booking, false, now)
  await emitBookingEvent(ctx, trx, kind, booking.id, 'cancelled')
  // The coupon's use is given back when nothing stays paid: never paid, or all of it refunded now.
  if (booking.paid_amount - quote.refund === 0) await releaseCoupon(trx, kind, booking.id, now)
  const refunded = await refundBooking(
    ctx,
    trx,
    kind,
    booking,
    quote,
    `Refund for cancelled booking ${booking.booking_number}`,
    opts.actor,
  )
  // A split booking's shares went back to their payers, not to the customer's wallet: say so.
  const note =
    refunded.toOthers > 0 && quote.note
      ? splitRefundNote(quote.note, quote.givenToWallet, refunded.toOthers)
      : quote.note
  if (booking.user_id !== null) {
    const when = `${booking.date} at ${toHHmm(booking.start_time)}`
    await notify(
      ctx,
      booking.user_id,
      'BookingCancelled',
      {
        message: `Your booking ${booking.booking_number} on ${when} was cancelled.${opts.why ? ` ${opts.why}` : ''}${note ? ` ${note}` : ''}`,
        booking_id: booking.id,
        booking_type: kind,
        booking_number: booking.booking_number,
        venue_id: booking.venue_id,
        cancel_reason: opts.reason,
        refund_amount: formatMoney(quote.given),
      },
      trx,
    )
  }
  await ctx.steps.slotFreed(trx, kind, booking.id)
  return {
    moved: true,
    refund: quote.refund,
    toWallet: quote.toWallet,
    atDesk: quote.atDesk,
    given: quote.given,
    givenToWallet: quote.givenToWallet,
    note,
  }
}

/**
 * A booking the hold sweep cancelled ("Payment not received"), unpaid and not yet started, comes
 * back to pending when its slot is still free and the coupon it had can be used again. Under a
 * savepoint: a refusal (the exclusion constraint, a used-up coupon) leaves the transaction usable
 * and the booking cancelled, so the payment can go to the wallet instead. Returns why it stays
 * cancelled, or null when it came back.
 */
async function reinstate(
  ctx: AppContext,
  trx: Executor,
  booking: LockedBooking,
  now: Date,
): Promise<ReinstateRefusal | null> {
  if (booking.paid_amount !== 0 || hasStarted(booking, now, ctx.zone)) return 'not_lapsed'
  if ((await cancelReasonOf(trx, booking.kind, booking.id)) !== HOLD_EXPIRED_REASON) return 'not_lapsed'
  const coupon = await retakeCoupon(trx, booking.kind, booking.id)
  if (coupon === 'refused') return 'coupon_used_up'
  try {
    await savepoint(trx, () => reinstateRow(trx, booking.kind, booking.id, now))
    return null
  } catch (err) {
    if (!isOverlapViolation(err)) throw err
    // The slot was taken meanwhile: give the coupon use back.
    if (coupon === 'retaken') await releaseCoupon(trx, booking.kind, booking.id, now)
    return 'slot_taken'
  }
}

/** The customer's money words when `toOthers` of `toWallet` went to the payers of a split's shares. */
function splitRefundNote(note: string, toWallet: number, toOthers: number): string {
  const own = toWallet - toOthers
  const wallet = `${formatRupees(toWallet)} refunded to your wallet.`
  const said = [
    own > 0 ? `${formatRupees(own)} refunded to your wallet.` : '',
    `${formatRupees(toOthers)} refunded to the players who paid their shares.`,
  ]
    .filter(Boolean)
    .join(' ')
  return note.replace(wallet, said)
}

/** A booking a platform coupon made free: the platform pays the venue its discount while it stands. */
function syncFreeBooking(trx: Executor, b: LockedBooking, kept: boolean, now: Date) {
  return syncPlatformDiscount(
    trx,
    { kind: b.kind, id: b.id, venueId: b.venue_id, paid: 0, total: 0, freeKept: kept },
    now,
  )
}

async function notifyConfirmed(ctx: AppContext, trx: Executor, b: LockedBooking) {
  if (b.user_id === null) return
  const court = b.kind === 'court'
  await notify(
    ctx,
    b.user_id,
    court ? 'BookingConfirmed' : 'IndoorGameBookingConfirmed',
    {
      message: `Your ${court ? 'booking' : 'indoor game booking'} ${b.booking_number} on ${b.date} at ${toHHmm(b.start_time)} is confirmed.`,
      booking_id: b.id,
      booking_type: b.kind,
      booking_number: b.booking_number,
      venue_id: b.venue_id,
      date: b.date,
      start_time: toHHmm(b.start_time),
    },
    trx,
  )
}

export type { BookingKind }
