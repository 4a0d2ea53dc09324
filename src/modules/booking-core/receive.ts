import type { AppContext } from '../../lib/context.ts'
import type { Executor } from '../../lib/db.ts'
import { formatMoney } from '../../lib/money.ts'
import { toHHmm } from '../../lib/time.ts'
import { account, post, syncPlatformDiscount, takeCommission, transfer } from '../ledger/index.ts'
import { notify } from '../notifications/index.ts'
import { issueReceipt } from '../receipts/index.ts'
import { debitWallet } from '../wallet/index.ts'
import { emitPaymentEvent } from '../webhooks/index.ts'
import { isCounterGateway } from './gateway-refunds.ts'
import { ledgerReferenceType, newPayment, returnPayment } from './payment-records.ts'
import { type LockedBooking, setPaidAmount } from './repository/bookings.ts'
import { completeGatewayPayment, type GatewayConfirmation, type PaymentRow } from './repository/payments.ts'
import { HOLD_EXPIRED_REASON, transition } from './transitions.ts'

// A payment arriving for a booking, whichever way it came: the one step every path calls (the
// gateway settle, the wallet, the desk; docs/architecture.md, "A payment arriving"). The caller has
// locked the booking (lockBooking) and checked that it may be paid; receivePayment does the rest in
// one fixed order, in the caller's transaction:
//   1. the payment row: an initiated (or failed) gateway payment completed, else a completed row inserted;
//   2. its own ledger entry (the gateway's clearing, the customer's wallet, or the venue's desk);
//   3. its numbered receipt, then the platform's commission on it;
//   4. the payment.completed webhook;
//   5. the booking: reinstated when a late payment covers a lapsed hold, the shares of a split it pays
//      marked paid (ctx.steps.paymentArriving), paid_amount raised (and a platform coupon's share with
//      it), confirmed once fully paid;
//   6. whatever the booking cannot take back to the customer's wallet, and the customer told.

/** A gateway payment its gateway has confirmed (payments/settle.ts). */
export interface GatewayArrival extends GatewayConfirmation {
  way: 'gateway'
  payment: PaymentRow
}

/** The customer's wallet pays `amount` (the balance due). */
export interface WalletArrival {
  way: 'wallet'
  userId: number
  amount: number
  /** The shares of a split booking this payment is for (splits' share payment), else none. */
  forShares?: readonly number[]
}

/**
 * Cash taken at the venue's desk by staff. (Gateway money at the desk arrives as a gateway payment
 * staff started: GatewayArrival with the payment's recorded_by set.)
 */
export interface DeskArrival {
  way: 'desk'
  method: 'cash'
  amount: number
  staffId: number
}

export type Arrival = GatewayArrival | WalletArrival | DeskArrival

export interface Received {
  payment: PaymentRow
  /** The booking after the payment (status and paid_amount as now written). */
  booking: LockedBooking
}

/**
 * Receives a payment for `booking` (locked by the caller). A gateway payment that another racer has
 * settled meanwhile is left alone: undefined. Wallet and desk payments always arrive.
 */
export async function receivePayment(
  ctx: AppContext,
  trx: Executor,
  booking: LockedBooking,
  arrival: GatewayArrival,
): Promise<Received | undefined>
export async function receivePayment(
  ctx: AppContext,
  trx: Executor,
  booking: LockedBooking,
  arrival: WalletArrival | DeskArrival,
): Promise<Received>
export async function receivePayment(
  ctx: AppContext,
  trx: Executor,
  booking: LockedBooking,
  arrival: Arrival,
): Promise<Received | undefined> {
  const payment = await paymentRow(ctx, trx, booking, arrival)
  if (!payment) return undefined
  await postArrival(ctx, trx, booking, payment, arrival)
  const way = arrival.way === 'desk' ? 'desk' : 'online'
  await issueReceipt(ctx, trx, payment.id)
  await takeCommission(
    trx,
    {
      paymentId: payment.id,
      venueId: booking.venue_id,
      booking: { kind: booking.kind, id: booking.id },
      occurredAt: ctx.clock.now(),
    },
    payment.amount,
    way,
    ctx.config.platformCommissionBasisPoints,
  )
  await emitPaymentEvent(ctx, trx, payment.id, 'completed')
  const forShares = arrival.way === 'wallet' ? arrival.forShares : undefined
  return { payment, booking: await applyToBooking(ctx, trx, booking, payment, arrival.way, forShares) }
}

/** Step 1: the completed payment row (for a gateway payment, only if this caller wins it). */
async function paymentRow(
  ctx: AppContext,
  trx: Executor,
  booking: LockedBooking,
  arrival: Arrival,
): Promise<PaymentRow | undefined> {
  const now = ctx.clock.now()
  const base = { payable_type: booking.kind, payable_id: booking.id, status: 'completed' as const, completed_at: now }
  switch (arrival.way) {
    case 'gateway':
      // The booking's lock is held; the payment's is taken second, the order refunds take them in.
      return completeGatewayPayment(trx, arrival.payment.id, arrival, now)
    case 'wallet':
      return newPayment(ctx, trx, { ...base, user_id: arrival.userId, method: 'wallet', amount: arrival.amount })
    case 'desk':
      return newPayment(ctx, trx, {
        ...base,
        user_id: booking.user_id,
        method: arrival.method,
        amount: arrival.amount,
        recorded_by: arrival.staffId,
      })
  }
}

/** Step 2: the payment's own ledger entry: where the money is now, owed to the venue. */
async function postArrival(
  ctx: AppContext,
  trx: Executor,
  booking: LockedBooking,
  payment: PaymentRow,
  arrival: Arrival,
): Promise<void> {
  const occurredAt = ctx.clock.now()
  const booked = { kind: booking.kind, id: booking.id }
  switch (arrival.way) {
    case 'gateway':
      // The gateway has the money: the platform owes it to the venue (what the booking cannot take
      // goes on to the wallet in step 6, charged back to the venue's balance).
      await post(trx, {
        kind: 'gateway_payment',
        occurredAt,
        description: `Payment ${payment.reference} through ${payment.method}`,
        paymentId: payment.id,
        booking: booked,
        venueId: booking.venue_id,
        userId: payment.user_id,
        lines: transfer(
          account.gatewayClearing(payment.method),
          account.venueBalance(booking.venue_id),
          payment.amount,
        ),
      })
      return
    case 'wallet':
      await debitWallet(
        trx,
        arrival.userId,
        payment.amount,
        {
          referenceType: ledgerReferenceType(booking.kind),
          referenceId: booking.id,
          description: `Payment for booking ${booking.booking_number}`,
          paymentId: payment.id,
        },
        {
          kind: 'wallet_payment',
          occurredAt,
          contra: account.venueBalance(booking.venue_id),
          venueId: booking.venue_id,
          booking: booked,
        },
      )
      return
    case 'desk':
      await post(trx, {
        kind: 'desk_payment',
        occurredAt,
        description: `Payment ${payment.reference} taken at the desk`,
        paymentId: payment.id,
        booking: booked,
        venueId: booking.venue_id,
        userId: booking.user_id,
        createdBy: arrival.staffId,
        lines: transfer(account.venueDesk(booking.venue_id), account.venueDeskSales(booking.venue_id), payment.amount),
      })
      return
  }
}

/**
 * Steps 5 and 6: money goes to the booking up to its balance due. A booking the hold sweep cancelled
 * while the customer was paying is reinstated (transition 'reinstate': only a lapsed hold, unpaid,
 * not started, its slot still free and its coupon still usable) when this payment covers it; anything
 * the booking can no longer take (slot taken, cancelled otherwise, paid twice) goes to the wallet.
 */
async function applyToBooking(
  ctx: AppContext,
  trx: Executor,
  locked: LockedBooking,
  payment: PaymentRow,
  way: Arrival['way'],
  forShares: readonly number[] | undefined,
): Promise<LockedBooking> {
  let booking = locked
  let declined: string | undefined
  if (booking.status === 'cancelled' && payment.amount >= booking.total_amount) {
    const outcome = await transition(ctx, trx, booking, 'reinstate')
    if (outcome.moved) booking = { ...booking, status: 'pending' }
    else declined = outcome.declined
  }
  // A QR payment staff started at the desk is the desk's money, whichever way it arrived.
  const live = takesMoney(booking.status, payment.recorded_by !== null ? 'desk' : way)
  const due = live ? Math.max(booking.total_amount - booking.paid_amount, 0) : 0
  // A share of a split booking is taken only while that share is still unpaid (ctx.steps.paymentArriving).
  const apply = await ctx.steps.paymentArriving(
    trx,
    { kind: booking.kind, id: booking.id },
    payment,
    Math.min(due, payment.amount),
    forShares,
  )
  if (apply > 0) booking = await addToPaid(ctx, trx, booking, apply)
  const surplus = payment.amount - apply
  const customer = payment.user_id ?? booking.user_id
  if (surplus <= 0) return booking
  if (isCounterGateway(payment)) {
    // Gateway money taken at the desk that the booking cannot take goes back through the gateway.
    await returnPayment(ctx, trx, booking.kind, booking, payment, customer, surplus, {
      applied: false,
      description: `Desk payment for booking ${booking.booking_number} the booking could not take (${formatMoney(surplus)})`,
    })
    return booking
  }
  if (customer === null) return booking
  const { credited } = await returnPayment(ctx, trx, booking.kind, booking, payment, customer, surplus, {
    applied: false,
    description: live
      ? `Overpayment of booking ${booking.booking_number} returned (${formatMoney(surplus)})`
      : `Payment for a booking that is no longer active returned`,
  })
  if (!live) {
    // The customer paid for a booking they no longer have: say where the money went.
    const why =
      declined === 'slot_taken'
        ? 'the slot has been booked by someone else'
        : declined === 'coupon_used_up'
          ? 'its coupon has been used up meanwhile'
          : 'the booking is no longer active'
    await notify(
      ctx,
      customer,
      'BookingCancelled',
      {
        message: `Your payment for booking ${booking.booking_number} on ${booking.date} at ${toHHmm(booking.start_time)} arrived after it was cancelled and ${why}. Rs ${formatMoney(credited)} has been credited to your wallet.`,
        booking_id: booking.id,
        booking_type: booking.kind,
        booking_number: booking.booking_number,
        venue_id: booking.venue_id,
        cancel_reason: HOLD_EXPIRED_REASON,
        refund_amount: formatMoney(credited),
        late_payment: true,
      },
      trx,
    )
  }
  return booking
}

/**
 * Whether a booking in `status` takes money arriving `way`. The desk takes payment for anything it
 * may still charge (a completed session's extras included: recordDeskPayment refuses only cancelled
 * and no-show bookings); money arriving online goes to a booking that is still to be played or
 * being played, anything else to the customer's wallet.
 */
function takesMoney(status: LockedBooking['status'], way: Arrival['way']): boolean {
  if (way === 'desk') return status !== 'cancelled' && status !== 'no_show'
  return status === 'pending' || status === 'confirmed' || status === 'playing'
}

/**
 * paid_amount += amount on the locked booking. A platform coupon's discount is the platform's: the
 * venue is credited it as the booking is paid. A pending booking that becomes fully paid is
 * confirmed (transition 'confirm': hold cleared, webhook, BookingConfirmed /
 * IndoorGameBookingConfirmed). Returns the booking as now written.
 */
async function addToPaid(
  ctx: AppContext,
  trx: Executor,
  booking: LockedBooking,
  amount: number,
): Promise<LockedBooking> {
  const now = ctx.clock.now()
  const paid = booking.paid_amount + amount
  await setPaidAmount(trx, booking.kind, booking.id, paid, now)
  await syncPlatformDiscount(
    trx,
    { kind: booking.kind, id: booking.id, venueId: booking.venue_id, paid, total: booking.total_amount },
    now,
  )
  const after = { ...booking, paid_amount: paid }
  if (booking.status !== 'pending' || paid < booking.total_amount) return after
  await transition(ctx, trx, after, 'confirm')
  return { ...after, status: 'confirmed', hold_expires_at: null }
}
