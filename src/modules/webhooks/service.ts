import type { Static } from 'typebox'
import type { AuthUser } from '../../lib/auth.ts'
import type { AppContext } from '../../lib/context.ts'
import { Invalid, NotFound, Unprocessable } from '../../lib/errors.ts'
import { pathId } from '../../lib/ids.ts'
import type { PageParams } from '../../lib/pagination.ts'
import { MANAGER_ROLES, venueForStaff } from '../venues/index.ts'
import { urlProblem } from './address.ts'
import { DELIVER_JOB, deliveryJobKey } from './deliver.ts'
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

export const ALREADY_PENDING = 'This delivery is already waiting for its next attempt.'
export const ENDPOINT_DISABLED = 'This endpoint is disabled: create a new one to receive messages again.'

/**
 * Sends a delivery that succeeded or failed once more, now: the same message (same webhook-id and
 * body), as one more attempt in its history. A failure after it follows the retry schedule from
 * where the delivery stood (after its 8th attempt there is none). A pending delivery is already
 * going to be sent (422), and so is one of a disabled endpoint (422: it would fail at once).
 */
export async function resendDelivery(
  ctx: AppContext,
  user: AuthUser,
  venueKey: string,
  rawId: string,
  rawDelivery: string,
) {
  const venueId = await venueOf(ctx, user, venueKey)
  const endpoint = await repo.findEndpoint(ctx.db, venueId, pathId(rawId))
  if (!endpoint) throw new NotFound()
  const deliveryId = pathId(rawDelivery)
  if (!(await repo.deliveryOf(ctx.db, endpoint.id, deliveryId))) throw new NotFound()
  if (endpoint.disabled_at) throw new Unprocessable(ENDPOINT_DISABLED)
  await ctx.db.transaction().execute(async (trx) => {
    const locked = await repo.lockDelivery(trx, deliveryId)
    if (!locked) throw new NotFound()
    if (locked.status === 'pending') throw new Unprocessable(ALREADY_PENDING)
    await repo.updateDelivery(trx, deliveryId, { status: 'pending', next_attempt_at: ctx.clock.now() })
    await ctx.jobs.enqueue(
      DELIVER_JOB,
      { delivery_id: deliveryId },
      // Its own key: the retry job of this attempt number may exist already (run, or never needed).
      { uniqueKey: `${deliveryJobKey(deliveryId, locked.attempts + 1)}:resend` },
      trx,
    )
  })
  const row = (await repo.deliveryOf(ctx.db, endpoint.id, deliveryId))!
  return deliveryResource(row, await repo.attemptsOf(ctx.db, [deliveryId]), ctx.zone)
}
