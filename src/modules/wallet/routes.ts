import { signedIn } from '../../lib/auth.ts'
import { formatMoney } from '../../lib/money.ts'
import { pageParams, paginated } from '../../lib/pagination.ts'
import type { Routes } from '../../lib/route.ts'
import { errorResponses, PageQuery } from '../../lib/schemas.ts'
import { balanceOf, listTransactions } from './repository.ts'
import { transactionResource } from './resource.ts'
import { WalletAnswer } from './schemas.ts'

const tags = ['Wallet']
const security = [{ bearer: [] }]

const routes: Routes = async (app) => {
  const { db, config } = app.ctx

  app.get(
    '/wallet',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'getWallet',
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
        transactions: paginated(
          req,
          config.appUrl,
          list.rows.map((t) => transactionResource(t, app.ctx.zone)),
          list.total,
          params,
        ),
      }
    },
  )
}

export default routes
