// The event types an endpoint can subscribe to (docs/webhooks.md, "Events").

export const WEBHOOK_EVENTS = [
  'booking.created',
  'booking.confirmed',
  'booking.cancelled',
  'booking.completed',
  'booking.no_show',
  'indoor_booking.created',
  'indoor_booking.confirmed',
  'indoor_booking.cancelled',
  'indoor_booking.completed',
  'indoor_booking.no_show',
  'payment.completed',
  'payment.refunded',
] as const

export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number]

/** What happened to a booking, as the booking-changing code says it. */
export type BookingChange = 'created' | 'confirmed' | 'cancelled' | 'completed' | 'no_show'

/** The event type of a change to a booking of a kind, or null when no endpoint can subscribe to it. */
export function bookingEventType(kind: 'court' | 'indoor', change: BookingChange): WebhookEvent | null {
  const type = `${kind === 'court' ? 'booking' : 'indoor_booking'}.${change}`
  return (WEBHOOK_EVENTS as readonly string[]).includes(type) ? (type as WebhookEvent) : null
}
