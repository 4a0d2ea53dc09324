import type { AppContext } from '../../lib/context.ts'
import { GATEWAYS, type Gateways, GatewayUnavailable } from './gateways/index.ts'
import type { PaymentRow } from './repository.ts'
import * as repo from './repository.ts'
import { settleWithGateway } from './settle.ts'

// Failed gateway payments asked about again. A payment is failed here when its status check says
// `failed`, or still not paid once its link lifetime ran out (1 h, a lifetime eSewa and Fonepay do
// not document). A customer may still pay that old link, and the redirect back may be lost. So every
// gateway payment failed by a status check is asked again, with back-off, for PAYMENT_RECHECK_HOURS
// after it was created; a confirmed success then settles through settleWithGateway exactly as a late
// callback would (reinstated booking or wallet credit). See docs/payments.md, "Re-checking failed
// payments".

/** The first re-check comes this long after the check that failed the payment. */
export const RECHECK_FIRST_SECONDS = 300
/** Longest wait between two re-checks of one payment. */
export const RECHECK_MAX_SECONDS = 6 * 3600
/** Payments re-checked per query; a pass repeats until nothing is due. */
const RECHECK_BATCH = 50

/** The window of a pass at `now`: which payments are still asked about, and when the first check is due. */
export function recheckWindow(ctx: AppContext, now: Date): repo.RecheckWindow {
  return {
    createdAfter: new Date(now.getTime() - ctx.config.paymentRecheckHours * 3_600_000),
    checkedBefore: new Date(now.getTime() - RECHECK_FIRST_SECONDS * 1000),
    now,
  }
}

/**
 * One re-check pass: every failed gateway payment in its window whose next check is due is claimed
 * (its next check pushed out, so a concurrent pass skips it) and asked about at its gateway.
 * Returns how many were asked and how many completed.
 */
export async function recheckFailedPayments(ctx: AppContext, gateways: Gateways, now: Date) {
  const outcome = { checked: 0, completed: 0 }
  if (ctx.config.paymentRecheckHours === 0) return outcome
  const window = recheckWindow(ctx, now)
  for (;;) {
    const due = await repo.dueForRecheck(ctx.db, GATEWAYS, window, RECHECK_BATCH)
    for (const p of due) {
      const claimed = await repo.claimForRecheck(ctx.db, p.id, nextRecheck(p, now), window)
      if (!claimed) continue
      outcome.checked++
      if ((await recheck(ctx, gateways, claimed, now)) === 'completed') outcome.completed++
    }
    if (due.length < RECHECK_BATCH) return outcome
  }
}

/** After the first wait: 2·first, 4·first … at most RECHECK_MAX_SECONDS (reconcile_attempts counts the re-checks). */
function nextRecheck(p: PaymentRow, now: Date): Date {
  const wait = Math.min(RECHECK_FIRST_SECONDS * 2 ** (p.reconcile_attempts + 1), RECHECK_MAX_SECONDS)
  return new Date(now.getTime() + wait * 1000)
}

async function recheck(ctx: AppContext, gateways: Gateways, p: PaymentRow, now: Date) {
  try {
    return (await settleWithGateway(ctx, gateways, p, undefined, now, { recheck: true })).status
  } catch (err) {
    if (!(err instanceof GatewayUnavailable)) throw err
    ctx.log.warn({ payment: p.id, err: err.message }, 'gateway re-check failed; will retry')
    return undefined
  }
}
