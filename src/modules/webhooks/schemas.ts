import { Type } from 'typebox'
import { PageQuery } from '../../lib/schemas.ts'
import { WEBHOOK_EVENTS } from './events.ts'
import { WebhookEventSchema } from './resource.ts'

// Request schemas of the webhook routes.

export const VenueParams = Type.Object({ venue: Type.String({ description: 'Venue id or slug' }) })

export const WebhookParams = Type.Object({
  venue: Type.String({ description: 'Venue id or slug' }),
  webhook: Type.String({ description: 'Webhook endpoint id' }),
})

export const DeliveryParams = Type.Object({
  venue: Type.String({ description: 'Venue id or slug' }),
  webhook: Type.String({ description: 'Webhook endpoint id' }),
  delivery: Type.String({ description: 'Delivery id' }),
})

export const CreateWebhookBody = Type.Object({
  url: Type.String({
    minLength: 1,
    maxLength: 2000,
    description: 'http or https URL that receives the POSTs (no user name or password)',
    examples: ['https://example.com/courtside/webhooks'],
  }),
  events: Type.Array(WebhookEventSchema, {
    minItems: 1,
    maxItems: WEBHOOK_EVENTS.length,
    uniqueItems: true,
    description: 'The event types to receive',
    examples: [['booking.created', 'booking.cancelled']],
  }),
})

export const DeliveriesQuery = PageQuery
