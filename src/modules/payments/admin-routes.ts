import { pageParams, paginated } from '../../lib/pagination.ts'
import type { RouteApp } from '../../lib/route.ts'
import { errorResponses, Paginated } from '../../lib/schemas.ts'
import { listMismatched } from './mismatched.ts'
import { MismatchedPaymentSchema, MismatchedQuery } from './schemas.ts'

const tags = ['Platform administration']
const security = [{ bearer: [] }]

/** GET /admin/payments/mismatched (super_admin). */
export function adminPaymentRoutes(app: RouteApp) {
  app.get(
    '/admin/payments/mismatched',
    {
      onRequest: app.auth.roles('super_admin'),
      schema: {
        tags,
        security,
        operationId: 'listMismatchedPayments',
        summary: 'Gateway payments failed here that the gateway reports as paid (super_admin), paginated',
        description:
          'A failed gateway payment whose last status check said `completed` but could not be applied: the gateway ' +
          'named another amount, or still did when the re-check window (PAYMENT_RECHECK_HOURS after creation) ' +
          'ended. Newest check first. A payment leaves the list when a later check completes it or the gateway ' +
          'stops calling it paid (docs/payments.md, "Mismatched payments").',
        querystring: MismatchedQuery,
        response: { 200: Paginated(MismatchedPaymentSchema), ...errorResponses },
      },
    },
    async (req) => {
      const page = pageParams(req.query)
      const { items, total } = await listMismatched(app.ctx, page)
      return paginated(req, app.ctx.config.appUrl, items, total, page)
    },
  )
}
