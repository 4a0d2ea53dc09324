import { signedIn } from '../../lib/auth.ts'
import type { RouteApp } from '../../lib/route.ts'
import { errorResponses, Message } from '../../lib/schemas.ts'
import { transactionResource } from '../wallet/index.ts'
import type { Gateways } from './gateways/index.ts'
import { TopupAnswer, TopupBody } from './schemas.ts'
import { startTopup } from './topup.ts'

const tags = ['Wallet']
const security = [{ bearer: [] }]

/** POST /wallet/topup: a top-up is a gateway payment, so payments declares it (topup.ts). */
export function topupRoute(app: RouteApp, gateways: Gateways) {
  app.post(
    '/wallet/topup',
    {
      config: { idempotent: true },
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'topUpWallet',
        summary: 'Add funds through a gateway',
        description:
          'amount 10.00 to 100000.00. Answers 201 with the pending `topup` transaction and payment_url; the ' +
          'balance moves only when the gateway confirms at /api/payments/{gateway}/callback.',
        body: TopupBody,
        response: { 201: TopupAnswer, ...errorResponses, 502: Message },
      },
    },
    async (req, reply) => {
      const { transaction, paymentUrl } = await startTopup(app.ctx, gateways, signedIn(req), req.body)
      return reply.code(201).send({
        data: transactionResource(transaction, app.ctx.zone),
        status: transaction.status,
        payment_url: paymentUrl,
      })
    },
  )
}
