import { Type } from 'typebox'
import type { AppContext } from '../../lib/context.ts'
import {
  completeGatewayRefund,
  GATEWAY_REFUND_JOB,
  lockGatewayRefund,
  noteGatewayRefundError,
} from '../booking-core/index.ts'
import { type GatewayName, GatewayRefused, type Gateways } from './gateways/index.ts'

// The refund job: a due gateway refund of a verified Khalti desk payment is sent back through
// Khalti's refund API (docs/payments.md, "Gateway payments at the desk"). The refund's row stays
// locked while Khalti is asked, so the owner marking it done meanwhile waits and then finds it done.
// Khalti saying no (400/404) leaves it due with Khalti's reason for the owner to settle by hand; no
// answer (5xx, unreachable) lets the queue try again later.

export const GatewayRefundDone = Type.Object({
  reference: Type.String({
    minLength: 1,
    maxLength: 100,
    description: "The gateway's reference of the refund made in its merchant portal",
  }),
})

export function registerGatewayRefundJob(ctx: AppContext, gateways: Gateways) {
  ctx.jobs.register(GATEWAY_REFUND_JOB, async (payload) => {
    await sendGatewayRefund(ctx, gateways, Number(payload.id))
  })
}

/** Sends one due gateway refund through its gateway's refund API; true when it is now done. */
export async function sendGatewayRefund(ctx: AppContext, gateways: Gateways, id: number): Promise<boolean> {
  let refused: string | null = null
  const done = await ctx.db.transaction().execute(async (trx) => {
    const row = await lockGatewayRefund(trx, id)
    if (row?.status !== 'due' || row.unverified || !row.gateway_transaction_id) return false
    const driver = gateways.driver(row.method as GatewayName)
    if (!driver.refund) return false
    try {
      await driver.refund({
        transactionId: row.gateway_transaction_id,
        amount: row.amount,
        full: row.amount === row.payment_amount && row.refunded_amount === row.amount,
      })
    } catch (err) {
      if (!(err instanceof GatewayRefused)) throw err
      refused = err.message
      return false
    }
    await completeGatewayRefund(ctx, trx, row.venue_id, id, {
      by: null,
      reference: `khalti-refund:${row.gateway_transaction_id}:${id}`,
    })
    return true
  })
  if (refused !== null) {
    ctx.log.warn({ gatewayRefund: id, err: refused }, 'gateway refund refused; left due for the owner')
    await noteGatewayRefundError(ctx.db, id, refused)
  }
  return done
}
