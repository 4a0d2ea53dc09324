import { type Insertable, type Selectable, sql } from 'kysely'
import type { WebhookAttempts, WebhookEndpoints } from '../../db/types.ts'
import type { Executor } from '../../lib/db.ts'
import type { PageParams } from '../../lib/pagination.ts'

// Endpoints, the outbox (messages and their deliveries) and the attempt log of webhooks.

export type EndpointRow = Selectable<WebhookEndpoints>
export type AttemptRow = Selectable<WebhookAttempts>
type BookingKind = 'court' | 'indoor'

const bookingTable = (kind: BookingKind) => (kind === 'court' ? 'bookings' : 'indoor_game_bookings')

// --- Endpoints ---

export async function insertEndpoint(db: Executor, values: Insertable<WebhookEndpoints>): Promise<EndpointRow> {
  return db
    .insertInto('webhook_endpoints')
    .values({ ...values, events: sql`${sql.val(values.events)}::text[]` as unknown as string[] })
    .returningAll()
    .executeTakeFirstOrThrow()
}

export async function countEndpoints(db: Executor, venueId: number): Promise<number> {
  const row = await db
    .selectFrom('webhook_endpoints')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('venue_id', '=', venueId)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

export async function listEndpoints(db: Executor, venueId: number): Promise<EndpointRow[]> {
  return db.selectFrom('webhook_endpoints').selectAll().where('venue_id', '=', venueId).orderBy('id').execute()
}

export async function findEndpoint(db: Executor, venueId: number, id: number): Promise<EndpointRow | undefined> {
  return db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('venue_id', '=', venueId)
    .where('id', '=', id)
    .executeTakeFirst()
}

/** Deletes the endpoint with its deliveries and attempts; false when it does not exist. */
export async function deleteEndpoint(db: Executor, venueId: number, id: number): Promise<boolean> {
  const res = await db
    .deleteFrom('webhook_endpoints')
    .where('venue_id', '=', venueId)
    .where('id', '=', id)
    .executeTakeFirst()
  return Number(res.numDeletedRows) > 0
}

// --- The outbox ---

const subscribed = (type: string) => sql<boolean>`e.disabled_at IS NULL AND ${type} = ANY(e.events)`

/** The event types some enabled endpoint of the venue is subscribed to. */
export async function subscribedTypes(db: Executor, venueId: number): Promise<string[]> {
  const { rows } = await sql<{ type: string }>`
    SELECT DISTINCT unnest(events) AS type FROM webhook_endpoints
    WHERE venue_id = ${venueId} AND disabled_at IS NULL`.execute(db)
  return rows.map((r) => r.type).sort()
}

/** Enabled endpoints of the booking's venue subscribed to `type` (usually none: one indexed query). */
export async function bookingSubscribers(db: Executor, kind: BookingKind, bookingId: number, type: string) {
  const { rows } = await sql<{ endpoint_id: number; venue_id: number }>`
    SELECT e.id AS endpoint_id, e.venue_id FROM webhook_endpoints e
    WHERE e.venue_id = (SELECT venue_id FROM ${sql.table(bookingTable(kind))} WHERE id = ${bookingId})
      AND ${subscribed(type)}
    ORDER BY e.id`.execute(db)
  return rows.map((r) => ({ endpointId: Number(r.endpoint_id), venueId: Number(r.venue_id) }))
}

/** Enabled endpoints of the venue of the payment's booking subscribed to `type` (none for top-ups). */
export async function paymentSubscribers(db: Executor, paymentId: number, type: string) {
  const { rows } = await sql<{ endpoint_id: number; venue_id: number }>`
    SELECT e.id AS endpoint_id, e.venue_id FROM payments p
    JOIN webhook_endpoints e ON e.venue_id = CASE p.payable_type
      WHEN 'court' THEN (SELECT venue_id FROM bookings WHERE id = p.payable_id)
      WHEN 'indoor' THEN (SELECT venue_id FROM indoor_game_bookings WHERE id = p.payable_id)
    END
    WHERE p.id = ${paymentId} AND ${subscribed(type)}
    ORDER BY e.id`.execute(db)
  return rows.map((r) => ({ endpointId: Number(r.endpoint_id), venueId: Number(r.venue_id) }))
}

export async function courtBooking(db: Executor, id: number) {
  return db.selectFrom('bookings').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
}

export async function indoorBooking(db: Executor, id: number) {
  return db.selectFrom('indoor_game_bookings').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
}

/** The row a payment event's data is made from. */
export interface PaymentEventRow {
  id: number
  reference: string | null
  method: string
  amount: number
  refunded_amount: number
  status: string
  payable_type: string
  payable_id: number
  user_id: number | null
  completed_at: Date | null
  created_at: Date
  booking_number: string | null
  venue_id: number | null
}

/** A payment with the number and venue of its booking. */
export async function paymentWithBooking(db: Executor, id: number) {
  const { rows } = await sql<PaymentEventRow>`
    SELECT p.id, p.reference, p.method, p.amount, p.refunded_amount, p.status, p.payable_type, p.payable_id,
      p.user_id, p.completed_at, p.created_at, b.booking_number, b.venue_id
    FROM payments p
    LEFT JOIN LATERAL (
      SELECT booking_number, venue_id FROM bookings WHERE p.payable_type = 'court' AND id = p.payable_id
      UNION ALL
      SELECT booking_number, venue_id FROM indoor_game_bookings WHERE p.payable_type = 'indoor' AND id = p.payable_id
    ) b ON true
    WHERE p.id = ${id}`.execute(db)
  return rows[0]
}

export async function insertMessage(
  db: Executor,
  values: { id: string; venue_id: number; type: string; payload: string; created_at: Date },
): Promise<void> {
  await db.insertInto('webhook_messages').values(values).execute()
}

/** One pending delivery of the message per endpoint; returns their ids. */
export async function insertDeliveries(db: Executor, messageId: string, endpointIds: number[]): Promise<number[]> {
  const rows = await db
    .insertInto('webhook_deliveries')
    .values(endpointIds.map((endpoint_id) => ({ message_id: messageId, endpoint_id })))
    .returning('id')
    .execute()
  return rows.map((r) => r.id)
}

// --- Sending ---

/** What one attempt needs: the delivery, its message (the signed body) and its endpoint. */
export async function deliveryToSend(db: Executor, id: number) {
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_messages as m', 'm.id', 'd.message_id')
    .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .select([
      'd.id',
      'd.status',
      'd.attempts',
      'd.message_id',
      'm.type',
      'm.payload',
      'e.id as endpoint_id',
      'e.url',
      'e.secret',
      'e.disabled_at',
    ])
    .where('d.id', '=', id)
    .executeTakeFirst()
}

export async function lockDelivery(trx: Executor, id: number) {
  return trx
    .selectFrom('webhook_deliveries')
    .select(['id', 'status', 'attempts'])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst()
}

export async function insertAttempt(trx: Executor, values: Insertable<WebhookAttempts>): Promise<void> {
  await trx.insertInto('webhook_attempts').values(values).execute()
}

export async function updateDelivery(
  trx: Executor,
  id: number,
  values: { status: 'pending' | 'succeeded' | 'failed'; attempts?: number; next_attempt_at: Date | null },
): Promise<void> {
  await trx.updateTable('webhook_deliveries').set(values).where('id', '=', id).execute()
}

export async function endpointSucceeded(trx: Executor, id: number): Promise<void> {
  await trx
    .updateTable('webhook_endpoints')
    .set({ failing_since: null })
    .where('id', '=', id)
    .where('failing_since', 'is not', null)
    .execute()
}

/** Notes a failed attempt: the endpoint is failing since `now` unless it already was. */
export async function endpointFailed(trx: Executor, id: number, now: Date) {
  return trx
    .updateTable('webhook_endpoints')
    .set((eb) => ({ failing_since: eb.fn.coalesce('failing_since', sql<Date>`${now}::timestamptz`) }))
    .where('id', '=', id)
    .returning(['id', 'venue_id', 'url', 'failing_since', 'disabled_at'])
    .executeTakeFirst()
}

/** Disables an enabled endpoint; false when it already was disabled. */
export async function disableEndpoint(trx: Executor, id: number, now: Date): Promise<boolean> {
  const res = await trx
    .updateTable('webhook_endpoints')
    .set({ disabled_at: now })
    .where('id', '=', id)
    .where('disabled_at', 'is', null)
    .executeTakeFirst()
  return Number(res.numUpdatedRows) > 0
}

export async function venueOwner(db: Executor, venueId: number) {
  return db.selectFrom('venues').select(['owner_id', 'name']).where('id', '=', venueId).executeTakeFirst()
}

// --- The deliveries route ---

export async function deliveriesPage(db: Executor, endpointId: number, page: PageParams) {
  const base = db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_messages as m', 'm.id', 'd.message_id')
    .where('d.endpoint_id', '=', endpointId)
  const [rows, count] = await Promise.all([
    base
      .select(['d.id', 'd.message_id', 'm.type', 'd.status', 'd.attempts', 'd.next_attempt_at', 'd.created_at'])
      .orderBy('d.id', 'desc')
      .limit(page.perPage)
      .offset(page.offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ])
  return { rows, total: Number(count.n) }
}

/** One delivery of an endpoint, as the deliveries route lists it. */
export async function deliveryOf(db: Executor, endpointId: number, id: number) {
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_messages as m', 'm.id', 'd.message_id')
    .select(['d.id', 'd.message_id', 'm.type', 'd.status', 'd.attempts', 'd.next_attempt_at', 'd.created_at'])
    .where('d.endpoint_id', '=', endpointId)
    .where('d.id', '=', id)
    .executeTakeFirst()
}

/** The attempts of these deliveries, newest first. */
export async function attemptsOf(db: Executor, deliveryIds: number[]): Promise<AttemptRow[]> {
  if (deliveryIds.length === 0) return []
  return db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where('delivery_id', 'in', deliveryIds)
    .orderBy('id', 'desc')
    .execute()
}
