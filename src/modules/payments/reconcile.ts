import type { AppContext } from '../../lib/context.ts'
import type { BookingKind } from '../booking-core/index.ts'
import { registerGatewayRefundJob } from './gateway-refunds.ts'
import { GATEWAYS, type GatewayName, type Gateways, GatewayUnavailable } from './gateways/index.ts'
import { recheckFailedPayments } from './recheck.ts'
import type { PaymentRow } from './repository.ts'
import * as repo from './repository.ts'
import { linkExpired, type SettleResult, settleWithGateway } from './settle.ts'

// Gateway payments whose callback never arrived (the browser closed, the network dropped). The
// gateways tell merchants to ask their status API instead, and so do we, in three places:
// GET /api/payments/{id} (a client back from the gateway), the reconciliation job (every payment
// still `initiated` after PAYMENT_RECONCILE_AFTER_SECONDS, with back-off until its link expired,
// then failed), and the hold sweep (before it cancels a booking whose payment is initiated). All
// three settle through settleWithGateway, the same path as a callback. See docs/payments.md.

export const RECONCILE_SWEEP_MS = 30_000
/** Payments checked per query; the job repeats until nothing is due. */
export const RECONCILE_BATCH = 50
/** Longest wait between two checks of one payment. */
const MAX_BACKOFF_SECONDS = 3600

/**
 * The payments module's sweeps: reconciliation of gateway payments whose callback never came, and
 * the re-check of failed ones (recheck.ts).
 */
export function registerPaymentJobs(ctx: AppContext, gateways: Gateways) {
  ctx.jobs.every('payments.reconcile', RECONCILE_SWEEP_MS, async () => {
    await reconcilePayments(ctx, gateways, ctx.clock.now())
  })
  ctx.jobs.every('payments.recheck', RECONCILE_SWEEP_MS, async () => {
    await recheckFailedPayments(ctx, gateways, ctx.clock.now())
  })
  registerGatewayRefundJob(ctx, gateways)
}

/** An initiated gateway payment asked about at its gateway; anything else as it is. */
export async function refreshPayment(ctx: AppContext, gateways: Gateways, p: PaymentRow): Promise<PaymentRow> {
  if (p.status !== 'initiated' || !isGateway(p.method)) return p
  return (await checkAtGateway(ctx, gateways, p, ctx.clock.now()))?.payment ?? p
}

/** settleWithGateway, with an unreachable gateway meaning "unknown for now" (nothing changed). */
async function checkAtGateway(
  ctx: AppContext,
  gateways: Gateways,
  p: PaymentRow,
  now: Date,
): Promise<SettleResult | undefined> {
  try {
    return await settleWithGateway(ctx, gateways, p, undefined, now)
  } catch (err) {
    if (!(err instanceof GatewayUnavailable)) throw err
    ctx.log.warn({ payment: p.id, err: err.message }, 'gateway status check failed; will retry')
    return undefined
  }
}

/**
 * One reconciliation pass: every gateway payment `initiated` for at least
 * PAYMENT_RECONCILE_AFTER_SECONDS whose next check is due is claimed (its next check pushed out by
 * a doubling back-off, so a concurrent pass skips it) and asked about. Returns the outcomes.
 */
export async function reconcilePayments(ctx: AppContext, gateways: Gateways, now: Date) {
  const outcome = { checked: 0, completed: 0, failed: 0 }
  const after = ctx.config.paymentReconcileAfterSeconds
  const oldEnough = new Date(now.getTime() - after * 1000)
  for (;;) {
    const due = await repo.dueForReconcile(ctx.db, GATEWAYS, oldEnough, now, RECONCILE_BATCH)
    for (const p of due) {
      const claimed = await repo.claimForReconcile(ctx.db, p.id, nextCheck(gateways, p, after, now), now)
      if (!claimed) continue
      outcome.checked++
      const res = await checkAtGateway(ctx, gateways, claimed, now)
      if (res?.status === 'completed') outcome.completed++
      if (res?.status === 'failed') outcome.failed++
    }
    if (due.length < RECONCILE_BATCH) return outcome
  }
}

/**
 * When to ask next: after, 2·after, 4·after … (at most an hour), but never later than the moment
 * the link expires, so the final check that fails a payment comes on time.
 */
function nextCheck(gateways: Gateways, p: PaymentRow, after: number, now: Date): Date {
  const wait = Math.min(after * 2 ** p.reconcile_attempts, MAX_BACKOFF_SECONDS) * 1000
  const next = now.getTime() + wait
  if (linkExpired(gateways, p, now)) return new Date(next)
  const expiry = new Date(p.created_at).getTime() + gateways.driver(p.method as GatewayName).linkLifetimeSeconds * 1000
  return new Date(Math.min(next, expiry))
}

/**
 * The hold sweep's step calls this before it cancels a pending booking whose hold has run out: every
 * initiated gateway payment of that booking is asked about at its gateway, so a customer who paid
 * but whose callback was lost is confirmed, not cancelled. An unreachable gateway changes nothing
 * (the booking is cancelled; a confirmed success later reinstates it or credits the wallet); any
 * other error propagates to the sweep, which retries this booking later and goes on with the
 * others. Returns how many payments completed.
 */
export async function checkBookingAtGateway(
  ctx: AppContext,
  gateways: Gateways,
  kind: BookingKind,
  bookingId: number,
  now: Date,
): Promise<number> {
  const initiated = await repo.initiatedGatewayPayments(ctx.db, kind, bookingId, GATEWAYS)
  let completed = 0
  for (const p of initiated) {
    if ((await checkAtGateway(ctx, gateways, p, now))?.status === 'completed') completed++
  }
  return completed
}

function isGateway(method: string): boolean {
  return (GATEWAYS as readonly string[]).includes(method)
}
