import type { FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { signedIn } from '../../lib/auth.ts'
import { type Locale, requestLocale, t } from '../../lib/i18n/index.ts'
import type { RouteApp } from '../../lib/route.ts'
import { Data, errorResponses, Nullable } from '../../lib/schemas.ts'
import { completeGatewayRefund, gatewayRefundResource, gatewayRefundsOf } from '../booking-core/index.ts'
import { MANAGER_ROLES, venueForStaff } from '../venues/index.ts'
import { DESK_RETURN_PATH, deskReturnPayment } from './desk-gateway.ts'
import { GatewayRefundDone } from './gateway-refunds.ts'

// Gateway refunds due (docs/payments.md, "Gateway payments at the desk"): what the venue owes back
// through a gateway for gateway money taken at its desk, and the owner's or manager's record of
// having sent it back. The desk return page is where a customer's phone lands after paying a desk QR.

const tags = ['Payments']
const security = [{ bearer: [] }]

const GatewayRefundSchema = Type.Object(
  {
    id: Type.Integer(),
    booking_type: Type.String({ description: 'court or indoor' }),
    booking_id: Type.Integer(),
    payment_id: Type.Integer({ description: 'The desk gateway payment refunded' }),
    method: Type.String({ description: 'gateway_1, gateway_2 or gateway_3' }),
    user_id: Nullable(Type.Integer()),
    amount: Type.String({ description: 'NPR to send back through the gateway' }),
    reason: Nullable(Type.String()),
    status: Type.Union([Type.Literal('due'), Type.Literal('done')]),
    refund_from: Type.Union([Type.Literal('platform'), Type.Literal('venue')], {
      description:
        "Whose merchant account sends it back: the platform's (a desk QR payment: super_admin marks it done) or " +
        "the venue's own (a payment typed before desk QR payments: the owner or a manager marks it done)",
    }),
    gateway_reference: Nullable(Type.String({ description: "The gateway's reference of the refund, once done" })),
    last_error: Nullable(Type.String({ description: "The gateway's refusal, when its refund API said no" })),
    done_by: Nullable(Type.Integer({ description: 'Who marked it done (null: the gateway refund API)' })),
    done_at: Nullable(Type.String({ description: 'YYYY-MM-DD HH:mm:ss, venue time zone' })),
    created_at: Nullable(Type.String({ description: 'YYYY-MM-DD HH:mm:ss, venue time zone' })),
  },
  { $id: 'GatewayRefund' },
)

const VenueParams = Type.Object({ venue: Type.String({ description: 'Venue id or slug' }) })

export function gatewayRefundRoutes(app: RouteApp) {
  const { ctx } = app
  // Who may act is decided before the body is read (preValidation); the handler reuses that answer.
  const checked = new WeakMap<FastifyRequest, { id: number }>()
  const managerFirst = async (req: FastifyRequest & { params: { venue: string } }) => {
    checked.set(req, await venueForStaff(ctx, signedIn(req), req.params.venue, MANAGER_ROLES))
  }
  const venueOf = async (req: FastifyRequest & { params: { venue: string } }) =>
    checked.get(req) ?? (await venueForStaff(ctx, signedIn(req), req.params.venue, MANAGER_ROLES))

  app.get(
    '/venues/:venue/gateway-refunds',
    {
      onRequest: app.auth.required,
      preValidation: managerFirst,
      schema: {
        tags,
        security,
        operationId: 'listGatewayRefunds',
        summary: 'Refunds of gateway money taken at the desk, due at the gateway (owner, manager; default: due)',
        params: VenueParams,
        querystring: Type.Object({
          status: Type.Optional(
            Type.Union([Type.Literal('due'), Type.Literal('done'), Type.Literal('all')], { default: 'due' }),
          ),
        }),
        response: { 200: Data(Type.Array(GatewayRefundSchema)), ...errorResponses },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store')
      const venue = await venueOf(req)
      const rows = await gatewayRefundsOf(ctx.db, venue.id, req.query.status ?? 'due')
      return { data: rows.map((r) => gatewayRefundResource(r, ctx.zone)) }
    },
  )

  app.post(
    '/venues/:venue/gateway-refunds/:gatewayRefund/done',
    {
      onRequest: app.auth.required,
      preValidation: managerFirst,
      schema: {
        tags,
        security,
        operationId: 'markGatewayRefundDone',
        summary: "Record a gateway refund made in the gateway's merchant portal",
        description:
          "refund_from venue (a payment typed before desk QR payments): the venue's owner or a manager; " +
          "refund_from platform (a desk QR payment, the platform's gateway took it): super_admin only, else 403. " +
          'reference is the gateway’s id of the refund: 409 when another refund of the same gateway already ' +
          'carries it, 422 when this refund is already done.',
        params: Type.Object({ venue: VenueParams.properties.venue, gatewayRefund: Type.Integer({ minimum: 1 }) }),
        body: GatewayRefundDone,
        response: { 200: Data(GatewayRefundSchema), ...errorResponses },
      },
    },
    async (req) => {
      const user = signedIn(req)
      const venue = await venueOf(req)
      const row = await ctx.db.transaction().execute((trx) =>
        completeGatewayRefund(ctx, trx, venue.id, req.params.gatewayRefund, {
          by: user.id,
          reference: req.body.reference,
          platform: user.roles.includes('super_admin'),
        }),
      )
      return { data: gatewayRefundResource(row, ctx.zone) }
    },
  )

  app.get(
    DESK_RETURN_PATH.slice('/api'.length),
    {
      schema: {
        hide: true,
        querystring: Type.Object({ payment_id: Type.Optional(Type.String()), status: Type.Optional(Type.String()) }),
      },
    },
    async (req, reply) => deskReturnPage(req.query.payment_id, requestLocale(req), reply),
  )

  /** A plain page for the customer's phone: what the service knows of the desk payment, nothing it was told. */
  async function deskReturnPage(rawId: string | undefined, locale: Locale, reply: FastifyReply) {
    const id = rawId && /^\d{1,15}$/.test(rawId) ? Number(rawId) : null
    const payment = id === null ? undefined : await deskReturnPayment(ctx.db, id).catch(() => undefined)
    // In the language of the phone's browser (Accept-Language): a desk payment has no account to ask.
    const text = t(
      locale,
      payment?.status === 'completed'
        ? 'deskReturn.received'
        : payment?.status === 'initiated'
          ? 'deskReturn.pending'
          : 'deskReturn.failed',
    )
    reply.header('cache-control', 'no-store')
    return reply
      .type('text/html; charset=utf-8')
      .send(
        `<!doctype html><html lang="${locale === 'ne' ? 'ne-NP' : 'en'}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${t(locale, 'deskReturn.title')}</title></head><body style="font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem"><h1>Courtside</h1><p id="status">${text}</p></body></html>`,
      )
  }
}
