import { Type } from 'typebox'
import type { Routes } from '../../lib/route.ts'
import { errorResponses } from '../../lib/schemas.ts'
import { trialBalance } from './check.ts'

const tags = ['Ledger']
const security = [{ bearer: [] }]

const TrialBalanceSchema = Type.Object({
  balanced: Type.Boolean({ description: 'debits equal credits and every entry balances' }),
  debits: Type.String({ description: 'Σ of all debit lines, NPR' }),
  credits: Type.String({ description: 'Σ of all credit lines, NPR' }),
  entries: Type.Integer(),
  accounts: Type.Array(
    Type.Object({
      account: Type.String({ description: 'The account code, e.g. wallet:12, venue:3:balance' }),
      kind: Type.String({ description: 'customer_wallet, venue_balance, venue_desk, gateway_clearing, …' }),
      balance: Type.String({ description: "NPR on the account's normal side (docs/payments.md, Ledger)" }),
    }),
  ),
})

const routes: Routes = async (app) => {
  app.get(
    '/admin/ledger/trial-balance',
    {
      onRequest: app.auth.roles('super_admin'),
      schema: {
        tags,
        security,
        operationId: 'getTrialBalance',
        summary: "The ledger's trial balance: every account's balance and whether the books balance (super_admin)",
        response: { 200: Type.Object({ data: TrialBalanceSchema }), ...errorResponses },
      },
    },
    async () => ({ data: await trialBalance(app.ctx.db) }),
  )
}

export default routes
