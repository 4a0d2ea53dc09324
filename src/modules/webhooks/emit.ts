import { cacheTags } from '../../lib/cache-tags.ts'
import type { AppContext } from '../../lib/context.ts'
import type { Executor } from '../../lib/db.ts'
import { DELIVER_JOB, deliveryJobKey } from './deliver.ts'
import { type BookingChange, bookingEventType, type WebhookEvent } from './events.ts'
import * as repo from './repository.ts'
import { bookingEventData, paymentEventData } from './resource.ts'
import { newMessageId } from './signing.ts'

// The outbox: the code that changes a booking or a payment calls these inside its own transaction,
// so the message and its deliveries commit with the change (none for a rolled-back change, none
// lost when the process dies after the commit). A venue without a subscribed endpoint costs one
// indexed query and writes nothing. The HTTP requests are made later by the job queue (deliver.ts).

/**
 * Whether an enabled endpoint of the venue is subscribed to `type`, through the read cache (tagged
 * with the venue, which every endpoint change announces). The one caller is the hottest write, a
 * plain court booking: one statement, which needs a transaction for the outbox only when someone
 * listens. An endpoint created a moment ago may miss such bookings until its announcement reaches
 * this instance (milliseconds; the cache stores nothing while its listener is down).
 */
export async function hasSubscribers(ctx: AppContext, venueId: number, type: WebhookEvent): Promise<boolean> {
  const types = await ctx.cache.through(
    `webhook-events:${venueId}`,
    () => repo.subscribedTypes(ctx.db, venueId),
    () => ({ tags: [cacheTags.venue(venueId)] }),
  )
  return types.includes(type)
}

/** A booking was created, confirmed, cancelled or completed: one message for the subscribed endpoints. */
export async function emitBookingEvent(
  ctx: AppContext,
  trx: Executor,
  kind: 'court' | 'indoor',
  bookingId: number,
  change: BookingChange,
): Promise<void> {
  const type = bookingEventType(kind, change)
  if (!type) return
  const endpoints = await repo.bookingSubscribers(trx, kind, bookingId, type)
  if (endpoints.length === 0) return
  const row = kind === 'court' ? await repo.courtBooking(trx, bookingId) : await repo.indoorBooking(trx, bookingId)
  await enqueue(ctx, trx, type, bookingEventData(kind, row, ctx.zone), endpoints)
}

/** A booking's payment completed or was (partly) refunded. Top-ups belong to no venue: nothing. */
export async function emitPaymentEvent(
  ctx: AppContext,
  trx: Executor,
  paymentId: number,
  change: 'completed' | 'refunded',
): Promise<void> {
  const type: WebhookEvent = `payment.${change}`
  const endpoints = await repo.paymentSubscribers(trx, paymentId, type)
  if (endpoints.length === 0) return
  const row = await repo.paymentWithBooking(trx, paymentId)
  await enqueue(ctx, trx, type, paymentEventData(row, ctx.zone), endpoints)
}

async function enqueue(
  ctx: AppContext,
  trx: Executor,
  type: WebhookEvent,
  data: Record<string, unknown>,
  endpoints: Array<{ endpointId: number; venueId: number }>,
) {
  const id = newMessageId()
  const now = ctx.clock.now()
  // The body is stored as the exact text that is signed, so every retry sends the same bytes.
  const payload = JSON.stringify({ type, timestamp: now.toISOString(), data })
  await repo.insertMessage(trx, { id, venue_id: endpoints[0].venueId, type, payload, created_at: now })
  const deliveries = await repo.insertDeliveries(
    trx,
    id,
    endpoints.map((e) => e.endpointId),
  )
  for (const deliveryId of deliveries) {
    await ctx.jobs.enqueue(DELIVER_JOB, { delivery_id: deliveryId }, { uniqueKey: deliveryJobKey(deliveryId, 1) }, trx)
  }
}
