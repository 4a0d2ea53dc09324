import type { Selectable } from 'kysely'
import { Type } from 'typebox'
import type { Bookings, IndoorGameBookings } from '../../db/types.ts'
import { formatMoney } from '../../lib/money.ts'
import { DateTimeOffset as DateTime, Nullable, named } from '../../lib/schemas.ts'
import { toHHmm } from '../../lib/time.ts'
import type { Zone } from '../../lib/zone.ts'
import { WEBHOOK_EVENTS } from './events.ts'
import type { AttemptRow, EndpointRow, PaymentEventRow } from './repository.ts'

// The webhook resources of the routes, and the `data` of each event's payload (docs/webhooks.md).

export const WebhookEventSchema = named('WebhookEvent', Type.Enum(WEBHOOK_EVENTS, { description: 'An event type' }))

const endpointFields = {
  id: Type.Integer(),
  venue_id: Type.Integer(),
  url: Type.String(),
  events: Type.Array(WebhookEventSchema),
  status: named(
    'WebhookStatus',
    Type.Union([Type.Literal('active'), Type.Literal('disabled')], {
      description: 'disabled: its deliveries failed for 24 hours; create a new endpoint to resume',
    }),
  ),
  failing_since: Nullable(DateTime),
  disabled_at: Nullable(DateTime),
  created_at: DateTime,
}

export const WebhookSchema = named('Webhook', Type.Object(endpointFields))

export const WebhookWithSecretSchema = named(
  'WebhookWithSecret',
  Type.Object({
    ...endpointFields,
    secret: Type.String({ description: 'The signing secret (whsec_…), shown only in this answer' }),
  }),
)

export const WebhookAttemptSchema = named(
  'WebhookAttempt',
  Type.Object({
    attempt: Type.Integer({ description: '1 for the first request of the delivery' }),
    status_code: Nullable(Type.Integer({ description: 'The receiver’s HTTP status; null when none came' })),
    error: Nullable(Type.String({ description: 'Why no 2xx answer came (timeout, refused address…)' })),
    duration_ms: Type.Integer(),
    attempted_at: DateTime,
  }),
)

export const WebhookDeliverySchema = named(
  'WebhookDelivery',
  Type.Object({
    id: Type.Integer(),
    message_id: Type.String({ description: 'The webhook-id header of every attempt of this delivery' }),
    event: WebhookEventSchema,
    status: Type.Union([Type.Literal('pending'), Type.Literal('succeeded'), Type.Literal('failed')]),
    attempts: Type.Integer({ description: 'Attempts made so far' }),
    next_attempt_at: Nullable(DateTime),
    created_at: DateTime,
    last_attempts: Type.Array(WebhookAttemptSchema, { description: 'Newest first' }),
  }),
)

export function webhookResource(row: EndpointRow, zone: Zone) {
  return {
    id: row.id,
    venue_id: row.venue_id,
    url: row.url,
    events: row.events as (typeof WEBHOOK_EVENTS)[number][],
    status: row.disabled_at ? ('disabled' as const) : ('active' as const),
    failing_since: zone.formatWithOffset(row.failing_since),
    disabled_at: zone.formatWithOffset(row.disabled_at),
    created_at: zone.formatWithOffset(row.created_at),
  }
}

export function webhookWithSecret(row: EndpointRow, zone: Zone) {
  return { ...webhookResource(row, zone), secret: row.secret }
}

export function deliveryResource(
  row: {
    id: number
    message_id: string
    type: string
    status: string
    attempts: number
    next_attempt_at: Date | null
    created_at: Date
  },
  attempts: AttemptRow[],
  zone: Zone,
) {
  return {
    id: row.id,
    message_id: row.message_id,
    event: row.type as (typeof WEBHOOK_EVENTS)[number],
    status: row.status as 'pending' | 'succeeded' | 'failed',
    attempts: row.attempts,
    next_attempt_at: zone.formatWithOffset(row.next_attempt_at),
    created_at: zone.formatWithOffset(row.created_at),
    last_attempts: attempts.map((a) => ({
      attempt: a.attempt,
      status_code: a.status_code,
      error: a.error,
      duration_ms: a.duration_ms,
      attempted_at: zone.formatWithOffset(a.attempted_at),
    })),
  }
}

/** The `data` of a booking.* / indoor_booking.* event: the booking as the venue's staff see its row. */
export function bookingEventData(
  kind: 'court' | 'indoor',
  b: Selectable<Bookings> | Selectable<IndoorGameBookings>,
  zone: Zone,
): Record<string, unknown> {
  const place =
    'court_id' in b ? { court_id: b.court_id } : { indoor_game_id: b.indoor_game_id, players_count: b.players_count }
  return {
    id: b.id,
    kind,
    booking_number: b.booking_number,
    venue_id: b.venue_id,
    ...place,
    user_id: b.user_id,
    type: b.type,
    status: b.status,
    date: b.date,
    start_time: toHHmm(b.start_time),
    end_time: toHHmm(b.end_time),
    base_amount: formatMoney(b.base_amount),
    discount_amount: formatMoney(b.discount_amount),
    extras_total: formatMoney(b.extras_total),
    total_amount: formatMoney(b.total_amount),
    paid_amount: formatMoney(b.paid_amount),
    balance_due: formatMoney(Math.max(b.total_amount - b.paid_amount, 0)),
    payment_method: b.payment_method,
    customer_name: b.customer_name,
    customer_phone: b.customer_phone,
    cancel_reason: b.cancel_reason,
    cancelled_at: zone.formatWithOffset(b.cancelled_at),
    created_at: zone.formatWithOffset(b.created_at),
    updated_at: zone.formatWithOffset(b.updated_at),
  }
}

/** The `data` of a payment.* event. */
export function paymentEventData(p: PaymentEventRow, zone: Zone): Record<string, unknown> {
  return {
    id: p.id,
    reference: p.reference,
    method: p.method,
    amount: formatMoney(p.amount),
    refunded_amount: formatMoney(p.refunded_amount),
    status: p.status,
    booking_type: p.payable_type,
    booking_id: p.payable_id,
    booking_number: p.booking_number,
    venue_id: p.venue_id,
    user_id: p.user_id,
    paid_at: zone.formatWithOffset(p.completed_at),
    created_at: zone.formatWithOffset(p.created_at),
  }
}
