import type { AppContext } from '../../lib/context.ts'
import type { Executor } from '../../lib/db.ts'
import { Unprocessable } from '../../lib/errors.ts'
import {
  type BookingKind,
  completeGatewayPayment,
  type GatewayConfirmation,
  lockBooking,
  movePayment,
  receivePayment,
} from '../booking-core/index.ts'
import { completeTopup, failTopup } from '../wallet/index.ts'
import { emitPaymentEvent } from '../webhooks/index.ts'
import type { CallbackClaim, GatewayName, Gateways } from './gateways/index.ts'
import * as repo from './repository.ts'

// The one path that settles a gateway payment from what its status API says. A callback, a client's
// GET /api/payments/{id}, the reconciliation job, the hold sweep and the re-check of failed payments
// (recheck.ts) all come through here, and a confirmed payment is received by booking-core's
// receivePayment (a top-up by completeTopupPayment): the payment's row is locked and moved by the state
// machine's one writer (movePayment), so of any number of racers exactly one completes it and moves money.

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
      const now = ctx.clock.now()
      // A final "failed" from the gateway, or a link that ran out with no final answer.
      const event = verdict.status === 'failed' ? 'fail' : 'expire'
      const set = repo.failedColumns({ ...payload, reason: verdict.reason ?? null }, now, check)
      const row = await movePayment(trx, payment.id, { event, set }, now)
      if (row && row.payable_type === 'topup') await failTopup(trx, row.payable_id)
      return row
    })
    // Counted here, where exactly one racer wins the row, whichever path settled it.
    if (failed) ctx.metrics.payments.inc({ gateway: payment.method, outcome: 'failed' })
    const current = failed ?? (await repo.findPayment(ctx.db, payment.id))!
    return { status: outcomeOf(current), payment: current }
  }

  const settled = await ctx.db.transaction().execute(async (trx) => {
    const confirmed = {
      transactionId: verdict.transactionId,
      payload,
      paidAmount: customerPaid(payment.amount, payload.paid_amount),
    }
    if (payment.payable_type === 'topup') return completeTopupPayment(ctx, trx, payment, confirmed)
    // The booking's lock first, then the payment's (receivePayment): the order refunds and cancels take.
    const kind = payment.payable_type as BookingKind
    const booking = await lockBooking(trx, kind, payment.payable_id)
    if (!booking) throw new Error(`payment ${payment.id}: ${kind} booking ${payment.payable_id} does not exist`)
    const received = await receivePayment(ctx, trx, booking, { way: 'gateway', payment, ...confirmed })
    return received ? (await repo.findPayment(trx, payment.id))! : undefined // else someone else settled it
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

/** A wallet top-up's gateway payment completes and credits the wallet; undefined when another racer did. */
async function completeTopupPayment(
  ctx: AppContext,
  trx: Executor,
  payment: repo.PaymentRow,
  confirmed: GatewayConfirmation,
): Promise<repo.PaymentRow | undefined> {
  const now = ctx.clock.now()
  const won = await completeGatewayPayment(trx, payment.id, confirmed, now)
  if (!won) return undefined
  await emitPaymentEvent(ctx, trx, won.id, 'completed')
  await completeTopup(trx, won.payable_id, { method: won.method, paymentId: won.id, occurredAt: now })
  return (await repo.findPayment(trx, won.id))!
}
