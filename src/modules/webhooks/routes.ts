import { Type } from 'typebox'
import { signedIn } from '../../lib/auth.ts'
import { pageParams, paginated } from '../../lib/pagination.ts'
import type { Routes } from '../../lib/route.ts'
import { Data, errorResponses, Message, Paginated } from '../../lib/schemas.ts'
import { MANAGER_ROLES, venueAccessFirst } from '../venues/index.ts'
import {
  WebhookDeliverySchema,
  WebhookSchema,
  WebhookWithSecretSchema,
  webhookResource,
  webhookWithSecret,
} from './resource.ts'
import { CreateWebhookBody, DeliveriesQuery, DeliveryParams, VenueParams, WebhookParams } from './schemas.ts'
import { createWebhook, deleteWebhook, listWebhooks, resendDelivery, webhookDeliveries } from './service.ts'

const tags = ['Webhooks']
const security = [{ bearer: [] }]

const routes: Routes = async (app) => {
  const { ctx } = app
  const managers = venueAccessFirst(ctx, MANAGER_ROLES)

  app.post(
    '/venues/:venue/webhooks',
    {
      onRequest: app.auth.required,
      preValidation: managers,
      schema: {
        operationId: 'createWebhook',
        tags,
        security,
        summary: 'Subscribe an endpoint to the venue’s events (owner, manager)',
        description:
          'Deliveries are signed per the Standard Webhooks specification with the returned secret, which is ' +
          'shown only in this answer. See docs/webhooks.md for the payloads, retries and verification.',
        params: VenueParams,
        body: CreateWebhookBody,
        response: { 201: Data(WebhookWithSecretSchema), ...errorResponses },
      },
    },
    async (req, reply) => {
      const row = await createWebhook(ctx, signedIn(req), req.params.venue, req.body)
      return reply.code(201).send({ data: webhookWithSecret(row, ctx.zone) })
    },
  )

  app.get(
    '/venues/:venue/webhooks',
    {
      onRequest: app.auth.required,
      schema: {
        operationId: 'listWebhooks',
        tags,
        security,
        summary: 'The venue’s webhook endpoints, without their secrets (owner, manager)',
        params: VenueParams,
        response: { 200: Data(Type.Array(WebhookSchema)), ...errorResponses },
      },
    },
    async (req) => ({
      data: (await listWebhooks(ctx, signedIn(req), req.params.venue)).map((r) => webhookResource(r, ctx.zone)),
    }),
  )

  app.delete(
    '/venues/:venue/webhooks/:webhook',
    {
      onRequest: app.auth.required,
      schema: {
        operationId: 'deleteWebhook',
        tags,
        security,
        summary: 'Delete a webhook endpoint; its pending deliveries are dropped (owner, manager)',
        params: WebhookParams,
        response: { 200: Message, ...errorResponses },
      },
    },
    async (req) => {
      await deleteWebhook(ctx, signedIn(req), req.params.venue, req.params.webhook)
      return { message: 'Webhook deleted.' }
    },
  )

  app.get(
    '/venues/:venue/webhooks/:webhook/deliveries',
    {
      onRequest: app.auth.required,
      schema: {
        operationId: 'listWebhookDeliveries',
        tags,
        security,
        summary: 'The endpoint’s deliveries, newest first, with their attempts and status codes (owner, manager)',
        params: WebhookParams,
        querystring: DeliveriesQuery,
        response: { 200: Paginated(WebhookDeliverySchema), ...errorResponses },
      },
    },
    async (req) => {
      const params = pageParams(req.query)
      const { items, total } = await webhookDeliveries(ctx, signedIn(req), req.params.venue, req.params.webhook, params)
      return paginated(req, ctx.config.appUrl, items, total, params)
    },
  )

  app.post(
    '/venues/:venue/webhooks/:webhook/deliveries/:delivery/resend',
    {
      onRequest: app.auth.required,
      schema: {
        operationId: 'resendWebhookDelivery',
        tags,
        security,
        summary: 'Send a delivery that succeeded or failed once more, now (owner, manager)',
        description:
          'The same message (same webhook-id and body) as one more attempt; 202 with the delivery, now pending. ' +
          'A pending delivery or a disabled endpoint is 422.',
        params: DeliveryParams,
        response: {
          202: Type.Object({ message: Type.String(), data: WebhookDeliverySchema }),
          ...errorResponses,
        },
      },
    },
    async (req, reply) => {
      const { venue, webhook, delivery } = req.params
      const data = await resendDelivery(ctx, signedIn(req), venue, webhook, delivery)
      return reply.code(202).send({ message: 'The delivery will be sent again.', data })
    },
  )
}

export default routes
