import type { Static } from 'typebox'
import type { AuthUser } from '../../lib/auth.ts'
import type { AppContext } from '../../lib/context.ts'
import { Invalid, NotFound } from '../../lib/errors.ts'
import { pathId } from '../../lib/ids.ts'
import type { PageParams } from '../../lib/pagination.ts'
import { MANAGER_ROLES, venueForStaff } from '../venues/index.ts'
import { urlProblem } from './address.ts'
import * as repo from './repository.ts'
import { deliveryResource } from './resource.ts'
import type { CreateWebhookBody } from './schemas.ts'
import { newSecret } from './signing.ts'

// Managing a venue's webhook endpoints: its owner and managers (and super_admin).

/** Endpoints a venue may have. */
export const MAX_ENDPOINTS = 20

async function venueOf(ctx: AppContext, user: AuthUser, key: string) {
  return (await venueForStaff(ctx, user, key, MANAGER_ROLES)).id
}

export async function createWebhook(
  ctx: AppContext,
  user: AuthUser,
  venueKey: string,
  input: Static<typeof CreateWebhookBody>,
) {
  const venueId = await venueOf(ctx, user, venueKey)
  const problem = urlProblem(input.url, ctx.config.webhooks.allowPrivate)
  if (problem) throw new Invalid('url', problem)
  if ((await repo.countEndpoints(ctx.db, venueId)) >= MAX_ENDPOINTS) {
    throw new Invalid('url', `A venue can have at most ${MAX_ENDPOINTS} webhooks.`)
  }
  return repo.insertEndpoint(ctx.db, {
    venue_id: venueId,
    url: input.url,
    events: [...new Set(input.events)],
    secret: newSecret(),
    created_by: user.id,
  })
}

export async function listWebhooks(ctx: AppContext, user: AuthUser, venueKey: string) {
  return repo.listEndpoints(ctx.db, await venueOf(ctx, user, venueKey))
}

export async function deleteWebhook(ctx: AppContext, user: AuthUser, venueKey: string, rawId: string) {
  const venueId = await venueOf(ctx, user, venueKey)
  if (!(await repo.deleteEndpoint(ctx.db, venueId, pathId(rawId)))) throw new NotFound()
}

/** The endpoint's deliveries, newest first, each with its attempts. */
export async function webhookDeliveries(
  ctx: AppContext,
  user: AuthUser,
  venueKey: string,
  rawId: string,
  page: PageParams,
) {
  const venueId = await venueOf(ctx, user, venueKey)
  const endpoint = await repo.findEndpoint(ctx.db, venueId, pathId(rawId))
  if (!endpoint) throw new NotFound()
  const { rows, total } = await repo.deliveriesPage(ctx.db, endpoint.id, page)
  const attempts = await repo.attemptsOf(
    ctx.db,
    rows.map((r) => r.id),
  )
  const items = rows.map((r) =>
    deliveryResource(
      r,
      attempts.filter((a) => a.delivery_id === r.id),
      ctx.zone,
    ),
  )
  return { items, total }
}
