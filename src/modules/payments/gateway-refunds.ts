import { Type } from 'typebox'
import type { AppContext } from '../../lib/context.ts'
import { Unprocessable } from '../../lib/errors.ts'
import {
  completeGatewayRefund,
  GATEWAY_REFUND_JOB,
  lockGatewayRefund,
  markGatewayRefundSent,
  noteGatewayRefundError,
} from '../booking-core/index.ts'
import { type GatewayName, GatewayRefused, type Gateways, GatewayUnavailable } from './gateways/index.ts'

// The refund job: a due gateway refund of a verified Khalti desk payment is sent back through
// Khalti's refund API (docs/payments.md, "Gateway payments at the desk"), once. The refund is first
// marked sent (committed) and only then is Khalti asked, so no retry, crash or second job ever asks
// twice: a refund already sent whose answer was lost (Khalti down, the process killed) stays due with
// a note to check Khalti's dashboard before it is marked done by hand. Khalti saying no (400/404)
// leaves it due with Khalti's reason.

export const GatewayRefundDone = Type.Object({
  reference: Type.String({
    minLength: 1,
    maxLength: 100,
    pattern: '\\S',
    description: "The gateway's reference of the refund made in its merchant portal",
  }),
})

export const ANSWER_LOST =
  "Khalti was asked to refund this and its answer was lost: check Khalti's dashboard, then mark it done."

export function registerGatewayRefundJob(ctx: AppContext, gateways: Gateways) {
  ctx.jobs.register(GATEWAY_REFUND_JOB, async (payload) => {
    await sendGatewayRefund(ctx, gateways, Number(payload.id))
  })
}

/** Sends one due gateway refund through its gateway's refund API; true when it is now done. */
export async function sendGatewayRefund(ctx: AppContext, gateways: Gateways, id: number): Promise<boolean> {
  const claim = await ctx.db.transaction().execute(async (trx) => {
    const row = await lockGatewayRefund(trx, id)
    if (row?.status !== 'due' || row.unverified) return null
    const driver = gateways.driver(row.method as GatewayName)
    if (!driver.refund) return null
    if (row.sent_at !== null) {
      await noteGatewayRefundError(trx, id, ANSWER_LOST)
      return null
    }
    if (!row.gateway_transaction_id) {
      await noteGatewayRefundError(trx, id, 'No Khalti transaction id: make the refund in Khalti, then mark it done.')
      return null
    }
    await markGatewayRefundSent(trx, id, ctx.clock.now())
    return { row, transactionId: row.gateway_transaction_id, refund: driver.refund.bind(driver) }
  })
  if (!claim) return false
  const { row } = claim
  try {
    await claim.refund({
      transactionId: claim.transactionId,
      amount: row.amount,
      full: row.amount === row.payment_amount && row.refunded_amount === row.amount,
    })
  } catch (err) {
    if (!(err instanceof GatewayRefused) && !(err instanceof GatewayUnavailable)) throw err
    const note = err instanceof GatewayRefused ? `Khalti refused the refund: ${err.message}` : ANSWER_LOST
    ctx.log.warn({ gatewayRefund: id, err: err.message }, 'gateway refund not made; left due')
    await noteGatewayRefundError(ctx.db, id, note)
    return false
  }
  try {
    await ctx.db.transaction().execute((trx) =>
      completeGatewayRefund(ctx, trx, row.venue_id, id, {
        by: null,
        platform: true,
        reference: `khalti-refund:${claim.transactionId}:${id}`,
      }),
    )
  } catch (err) {
    if (!(err instanceof Unprocessable)) throw err
    // Marked done by hand while Khalti was being asked: both were made; the log says so.
    ctx.log.error({ gatewayRefund: id }, 'gateway refund sent through Khalti after it was marked done by hand')
    return false
  }
  return true
}
