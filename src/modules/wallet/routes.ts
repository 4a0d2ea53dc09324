import { signedIn } from '../../lib/auth.ts'
import { formatMoney } from '../../lib/money.ts'
import { pageParams, paginated } from '../../lib/pagination.ts'
import type { Routes } from '../../lib/route.ts'
import { errorResponses, Message, PageQuery } from '../../lib/schemas.ts'
import { createGateways } from '../payments/gateways/index.ts'
import { balanceOf, listTransactions, transactionResource } from './repository.ts'
import { TopupAnswer, TopupBody, WalletAnswer } from './schemas.ts'
import { startTopup } from './topup.ts'

const tags = ['Wallet']
const security = [{ bearer: [] }]

const routes: Routes = async (app) => {
  const { db, config } = app.ctx
  const gateways = createGateways(app)

  app.get(
    '/wallet',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        summary: 'Wallet balance and the ledger, newest first (paginated inside `transactions`)',
        querystring: PageQuery,
        response: { 200: WalletAnswer, ...errorResponses },
      },
    },
    async (req) => {
      const params = pageParams(req.query)
      const userId = signedIn(req).id
      const [balance, list] = await Promise.all([
        balanceOf(db, userId),
        listTransactions(db, userId, params.perPage, params.offset),
      ])
      return {
        balance: formatMoney(balance),
        transactions: paginated(req, config.appUrl, list.rows.map(transactionResource), list.total, params),
      }
    },
  )

  app.post(
    '/wallet/topup',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
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
      return reply
        .code(201)
        .send({ data: transactionResource(transaction), status: transaction.status, payment_url: paymentUrl })
    },
  )
}

export default routes
