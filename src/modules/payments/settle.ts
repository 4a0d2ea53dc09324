import type { AppContext } from '../../lib/context.ts'
import type { Executor } from '../../lib/db.ts'
import { Unprocessable } from '../../lib/errors.ts'
import { formatMoney } from '../../lib/money.ts'
import { toHHmm } from '../../lib/time.ts'
import {
  type BookingKind,
  HOLD_EXPIRED_REASON,
  lockBooking,
  paymentReceived,
  recordBookingPayment,
  returnPayment,
  transition,
} from '../booking-core/index.ts'
import { account, post, transfer } from '../ledger/index.ts'
import { notify } from '../notifications/index.ts'
import { completeTopup, failTopup } from '../wallet/index.ts'
import { emitPaymentEvent } from '../webhooks/index.ts'
import type { CallbackClaim, GatewayName, Gateways } from './gateways/index.ts'
import * as repo from './repository.ts'

// The one path that settles a gateway payment from what its status API says. A callback, a client's
// GET /api/payments/{id}, the reconciliation job, the hold sweep and the re-check of failed payments
// (recheck.ts) all come through here, so the conditional UPDATE in repo.markCompleted is the single
// point where a payment completes: of any number of racers, exactly one gets the row and moves money.

export const NOT_VERIFIED = 'The payment could not be verified.'

export interface SettleResult {
  status: 'completed' | 'failed' | 'pending'
  payment: repo.PaymentRow
}

export function outcomeOf(p: repo.PaymentRow): SettleResult['status'] {
  if (p.status === 'initiated') return 'pending'
  if (p.status === 'failed') return 'failed'
  return 'completed'
}

/** Whether the payment link has run out at its gateway (then "not paid" is final). */
export function linkExpired(gateways: Gateways, p: repo.PaymentRow, now: Date): boolean {
  const lifetime = gateways.driver(p.method as GatewayName).linkLifetimeSeconds
  return now.getTime() >= new Date(p.created_at).getTime() + lifetime * 1000
}

/**
 * Asks the gateway's status API about `payment` and settles it. `claim` is what a verified callback
 * said (settleCallback has already refused a forged or mismatched one). The status API decides:
 * - completed, for the payment's amount: the payment completes (also from `failed`, when a late
 *   callback claims success or a re-check (`opts.recheck`) asks again: the gateway confirmed it
 *   after all);
 * - failed: the payment fails (cancelled, expired, refunded at the gateway);
 * - pending or not_found: the payment stays initiated until its link has expired at the gateway,
 *   because before that the customer may still be paying; then it fails.
 * A re-check that is not confirmed leaves the payment failed and records what the gateway said
 * (repo.noteRecheck; `completed` with another amount lists it as mismatched).
 * A callback claiming success that the gateway does not confirm, or any callback the gateway
 * answers with another amount, is 422 and changes nothing. GatewayUnavailable propagates: nothing
 * changed, the caller decides (502, keep the current state, retry later).
 */
export async function settleWithGateway(
  ctx: AppContext,
  gateways: Gateways,
  payment: repo.PaymentRow,
  claim: Pick<CallbackClaim, 'outcome' | 'raw' | 'session' | 'paidAmount'> | undefined,
  now: Date,
  opts: { recheck?: boolean } = {},
): Promise<SettleResult> {
  const recheck = payment.status === 'failed' && !claim && opts.recheck === true
  const reopen = (payment.status === 'failed' && claim?.outcome === 'success') || recheck
  if (payment.status !== 'initiated' && !reopen) return { status: outcomeOf(payment), payment }
  const driver = gateways.driver(payment.method as GatewayName)
  // A session the gateway issued at initiate (Khalti's pidx) is the only one looked up; an unsigned
  // callback's session is never trusted for that.
  const session = repo.sessionOf(payment) ?? (driver.sessionFromInitiate ? null : (claim?.session ?? null))
  const verdict = await driver.verify({ reference: payment.reference!, amount: payment.amount, session })
  const payload = {
    session,
    claim: claim?.raw ?? null,
    verification: verdict.raw,
    via: claim ? 'callback' : recheck ? 'recheck' : 'status',
    // What the customer actually paid when the gateway says (Fonepay's P_AMT after a discount).
    paid_amount: verdict.paidAmount ?? claim?.paidAmount ?? null,
  }
  const confirmed = verdict.status === 'completed' && verdict.amount === payment.amount
  const check: repo.GatewayCheck = {
    verdict: verdict.status,
    amount: verdict.amount,
    transactionId: verdict.transactionId,
  }
  if (!confirmed) {
    if (claim) {
      // A "paid" the gateway does not bear out, or an amount it does not confirm, is a forgery or
      // a mix-up: change nothing.
      if (claim.outcome === 'success' || verdict.status === 'completed') throw new Unprocessable(NOT_VERIFIED)
    } else if (verdict.status === 'completed') {
      ctx.log.error({ payment: payment.id, verdict: verdict.raw }, 'gateway reports a different amount')
    }
    if (recheck) {
      const noted = await repo.noteRecheck(ctx.db, payment.id, check, ctx.clock.now())
      const current = noted ?? (await repo.findPayment(ctx.db, payment.id))!
      return { status: outcomeOf(current), payment: current }
    }
    if (verdict.status !== 'failed' && !linkExpired(gateways, payment, now)) return { status: 'pending', payment }
    const failed = await ctx.db.transaction().execute(async (trx) => {
      const row = await repo.markFailed(
        trx,
        payment.id,
        { ...payload, reason: verdict.reason ?? null },
        ctx.clock.now(),
        check,
      )
      if (row && row.payable_type === 'topup') await failTopup(trx, row.payable_id)
      return row
    })
    // Counted here, where exactly one racer wins the row, whichever path settled it.
    if (failed) ctx.metrics.payments.inc({ gateway: payment.method, outcome: 'failed' })
    const current = failed ?? (await repo.findPayment(ctx.db, payment.id))!
    return { status: outcomeOf(current), payment: current }
  }

  const settled = await ctx.db.transaction().execute(async (trx) => {
    const won = await repo.markCompleted(
      trx,
      payment.id,
      { transactionId: verdict.transactionId, payload, paidAmount: customerPaid(payment.amount, payload.paid_amount) },
      ctx.clock.now(),
    )
    if (!won) return undefined // someone else settled it
    await emitPaymentEvent(ctx, trx, won.id, 'completed')
    if (won.payable_type === 'topup') {
      await completeTopup(trx, won.payable_id, { method: won.method, paymentId: won.id, occurredAt: ctx.clock.now() })
    } else await applyToBooking(ctx, trx, won)
    return (await repo.findPayment(trx, won.id))!
  })
  if (settled) ctx.metrics.payments.inc({ gateway: payment.method, outcome: 'completed' })
  const current = settled ?? (await repo.findPayment(ctx.db, payment.id))!
  return { status: outcomeOf(current), payment: current }
}

/**
 * What the customer paid when the gateway says it was less than the payment's amount (Fonepay's
 * P_AMT after a promotion); null when they paid it all. Refunds never give back more than this.
 */
function customerPaid(amount: number, paid: number | null | undefined): number | null {
  return typeof paid === 'number' && Number.isSafeInteger(paid) && paid >= 0 && paid < amount ? paid : null
}

/**
 * Money the gateway has taken goes to the booking up to its balance due. A booking the hold sweep
 * cancelled while the customer was paying is reinstated (booking-core's transition 'reinstate':
 * only a lapsed hold, unpaid, not started, its slot still free and its coupon still usable) when
 * this payment covers it; anything the booking can no longer take (slot taken, cancelled
 * otherwise, paid twice) goes to the wallet.
 */
async function applyToBooking(ctx: AppContext, trx: Executor, payment: repo.PaymentRow) {
  const kind = payment.payable_type as BookingKind
  let booking = await lockBooking(trx, kind, payment.payable_id)
  if (!booking) throw new Error(`payment ${payment.id}: ${kind} booking ${payment.payable_id} does not exist`)
  // The gateway has the money: the platform owes it to the venue (what the booking cannot take goes
  // on to the wallet below, charged back to the venue's balance).
  await post(trx, {
    kind: 'gateway_payment',
    occurredAt: ctx.clock.now(),
    description: `Payment ${payment.reference} through ${payment.method}`,
    paymentId: payment.id,
    booking: { kind, id: booking.id },
    venueId: booking.venue_id,
    userId: payment.user_id,
    lines: transfer(account.gatewayClearing(payment.method), account.venueBalance(booking.venue_id), payment.amount),
  })
  await paymentReceived(
    ctx,
    trx,
    payment,
    { kind, id: booking.id, venue_id: booking.venue_id },
    payment.amount,
    'online',
  )
  let declined: string | undefined
  if (booking?.status === 'cancelled' && payment.amount >= booking.total_amount) {
    const outcome = await transition(ctx, trx, booking, 'reinstate')
    if (outcome.moved) booking = { ...booking, status: 'pending' }
    else declined = outcome.declined
  }
  const live = !!booking && ['pending', 'confirmed', 'playing'].includes(booking.status)
  const due = booking && live ? Math.max(booking.total_amount - booking.paid_amount, 0) : 0
  const apply = Math.min(due, payment.amount)
  if (apply > 0) await recordBookingPayment(ctx, trx, kind, payment.payable_id, apply)
  const surplus = payment.amount - apply
  const customer = payment.user_id ?? booking?.user_id ?? null
  if (surplus <= 0 || customer === null) return
  const { credited } = await returnPayment(ctx, trx, kind, booking, payment, customer, surplus, {
    applied: false,
    description:
      booking && live
        ? `Overpayment of booking ${booking.booking_number} returned (${formatMoney(surplus)})`
        : `Payment for a booking that is no longer active returned`,
  })
  if (!live && booking) {
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
        booking_type: kind,
        booking_number: booking.booking_number,
        venue_id: booking.venue_id,
        cancel_reason: HOLD_EXPIRED_REASON,
        refund_amount: formatMoney(credited),
        late_payment: true,
      },
      trx,
    )
  }
}
