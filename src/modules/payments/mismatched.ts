import type { AppContext } from '../../lib/context.ts'
import type { PageParams } from '../../lib/pagination.ts'
import { GATEWAYS } from './gateways/index.ts'
import { mismatchedPage } from './queries.ts'
import { mismatchedResource } from './resource.ts'

// Payments the gateway holds money for but that are failed here (docs/payments.md, "Mismatched
// payments"): the super admin settles them by hand with the gateway and the customer.

export async function listMismatched(ctx: AppContext, page: PageParams) {
  const { rows, total } = await mismatchedPage(ctx.db, GATEWAYS, page)
  const now = ctx.clock.now()
  return { items: rows.map((r) => mismatchedResource(r, ctx.zone, ctx.config.paymentRecheckHours, now)), total }
}
