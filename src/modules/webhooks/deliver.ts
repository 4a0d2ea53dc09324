import type { AppContext } from '../../lib/context.ts'
import { notify } from '../notifications/index.ts'
import { vetTarget } from './address.ts'
import { postTo } from './http.ts'
import * as repo from './repository.ts'
import { signature } from './signing.ts'

// Sending one delivery (a message to one endpoint), run by the job queue. Each attempt is an HTTP
// POST outside any transaction; its outcome is recorded afterwards. A failed attempt schedules the
// next one as a new job (same delivery, so the same webhook-id and body); a 2xx ends the delivery.
// A process that dies mid-attempt leaves its job claimed, and the queue runs it again when the
// claim expires: at least once, never lost.

export const DELIVER_JOB = 'webhooks.deliver'

/**
 * The wait after each failed attempt (the n-th entry after the n-th attempt): 5 s, 5 min, 30 min,
 * 2 h, 5 h, 10 h, and a last attempt 24 hours after the first. After the 8th failed attempt the
 * delivery has failed.
 */
export const RETRY_DELAYS_MS = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  24 * 3_600_000 - (5_000 + 5 * 60_000 + 30 * 60_000 + 17 * 3_600_000),
]

/** An endpoint whose attempts have failed without a success for this long is disabled. */
export const FAILING_LIMIT_MS = 24 * 3_600_000

/** The job of one attempt of a delivery (enqueued once, whatever retries the queue itself makes). */
export const deliveryJobKey = (deliveryId: number, attempt: number) => `webhook:${deliveryId}:${attempt}`

export async function deliver(ctx: AppContext, deliveryId: number): Promise<void> {
  const d = await repo.deliveryToSend(ctx.db, deliveryId)
  if (d?.status !== 'pending') return
  if (d.disabled_at) {
    await repo.updateDelivery(ctx.db, d.id, { status: 'failed', next_attempt_at: null })
    return
  }
  // The queue's and the wire's time, not a rule's: the receiver checks webhook-timestamp against its clock.
  const started = Date.now()
  let status: number | null = null
  let error: string | null = null
  try {
    const url = new URL(d.url)
    const target = await vetTarget(url, ctx.config.webhooks.allowPrivate)
    const timestamp = Math.floor(Date.now() / 1000)
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'Courtside-Webhooks/1',
      'webhook-id': d.message_id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signature(d.secret, d.message_id, timestamp, d.payload),
    }
    status = (await postTo(url, target, headers, d.payload, ctx.config.webhooks.timeoutMs)).status
    if (status < 200 || status > 299) error = `HTTP ${status}`
  } catch (err) {
    error = String((err as Error)?.message ?? err).slice(0, 500)
  }
  const duration = Date.now() - started
  const ok = error === null
  ctx.metrics.webhookDeliveries.inc({ outcome: ok ? 'succeeded' : 'failed' })
  await ctx.db.transaction().execute(async (trx) => {
    const locked = await repo.lockDelivery(trx, d.id)
    if (locked?.status !== 'pending') return
    const attempt = locked.attempts + 1
    const now = ctx.clock.now()
    await repo.insertAttempt(trx, {
      delivery_id: d.id,
      attempt,
      status_code: status,
      error,
      duration_ms: duration,
      attempted_at: now,
    })
    if (ok) {
      await repo.updateDelivery(trx, d.id, { status: 'succeeded', attempts: attempt, next_attempt_at: null })
      await repo.endpointSucceeded(trx, d.endpoint_id)
      return
    }
    const delay = RETRY_DELAYS_MS[attempt - 1]
    if (delay === undefined) {
      await repo.updateDelivery(trx, d.id, { status: 'failed', attempts: attempt, next_attempt_at: null })
    } else {
      const next = new Date(now.getTime() + delay)
      await repo.updateDelivery(trx, d.id, { status: 'pending', attempts: attempt, next_attempt_at: next })
      await ctx.jobs.enqueue(
        DELIVER_JOB,
        { delivery_id: d.id },
        { uniqueKey: deliveryJobKey(d.id, attempt + 1), runAt: new Date(Date.now() + delay) },
        trx,
      )
    }
    const endpoint = await repo.endpointFailed(trx, d.endpoint_id, now)
    if (!endpoint?.failing_since || endpoint.disabled_at) return
    if (now.getTime() - new Date(endpoint.failing_since).getTime() < FAILING_LIMIT_MS) return
    if (!(await repo.disableEndpoint(trx, endpoint.id, now))) return
    const venue = await repo.venueOwner(trx, endpoint.venue_id)
    if (!venue?.owner_id) return
    await notify(
      ctx,
      venue.owner_id,
      'WebhookEndpointDisabled',
      {
        message: `The webhook ${endpoint.url} of ${venue.name} was disabled: its deliveries failed for 24 hours.`,
        webhook_id: endpoint.id,
        venue_id: endpoint.venue_id,
        url: endpoint.url,
      },
      trx,
    )
  })
}
