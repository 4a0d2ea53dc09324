import type { Static } from 'typebox'
import type { AuthUser } from '../../lib/auth.ts'
import type { AppContext } from '../../lib/context.ts'
import { Invalid } from '../../lib/errors.ts'
import { toPaisa } from '../../lib/money.ts'
import { attachTopupPayment, insertPendingTopup } from '../wallet/index.ts'
import type { Gateways } from './gateways/index.ts'
import { checkReturnUrl } from './return-url.ts'
import type { TopupBody } from './schemas.ts'
import { createTopupPayment, startAtGateway } from './service.ts'

export const TOPUP_MIN = 1000 // 10.00
export const TOPUP_MAX = 10_000_000 // 100000.00

// A wallet top-up through a gateway is a payment: payments owns it (the route, the gateway, the
// settlement) and asks wallet only for its ledger rows, so wallet depends on nothing of ours
// (docs/architecture.md, "Booking core and money direction").

/**
 * Starts a gateway top-up: a `pending` topup row and an `initiated` payment. The balance moves only
 * when the gateway's confirmed callback completes both (settleCallback → completeTopup).
 */
export async function startTopup(ctx: AppContext, gateways: Gateways, user: AuthUser, input: Static<typeof TopupBody>) {
  const amount = toPaisa(input.amount)
  if (amount < TOPUP_MIN || amount > TOPUP_MAX) {
    throw new Invalid('amount', 'The amount field must be between 10 and 100000.')
  }
  checkReturnUrl(ctx.config, input.return_url)
  const { transaction, payment } = await ctx.db.transaction().execute(async (trx) => {
    const pending = await insertPendingTopup(trx, user.id, amount)
    const payment = await createTopupPayment(ctx, trx, {
      userId: user.id,
      transactionId: pending.id,
      method: input.method,
      amount,
      returnUrl: input.return_url ?? null,
    })
    const transaction = await attachTopupPayment(trx, pending.id, payment.id)
    return { transaction, payment }
  })
  const paymentUrl = await startAtGateway(ctx, gateways, payment, 'Wallet top-up')
  return { transaction, paymentUrl }
}
