import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply } from 'fastify'
import { Type } from 'typebox'
import { signedIn } from '../../lib/auth.ts'
import { NotFound } from '../../lib/errors.ts'
import { pathId } from '../../lib/ids.ts'
import { internalCall } from '../../lib/rate-limit.ts'
import type { RouteApp } from '../../lib/route.ts'
import { errorResponses, Message } from '../../lib/schemas.ts'
import { adminPaymentRoutes } from './admin-routes.ts'
import { esewaCheckoutRoute } from './checkout.ts'
import { gatewayRefundRoutes } from './gateway-refund-routes.ts'
import { createGateways, GATEWAYS, type GatewayName, type Gateways, type Transport } from './gateways/index.ts'
import { assertCanView } from './policy.ts'
import { paymentDetail } from './queries.ts'
import { refreshPayment } from './reconcile.ts'
import { refundPayment } from './refund.ts'
import { findPayment } from './repository.ts'
import { paymentResource } from './resource.ts'
import { checkReturnUrl, isAllowedReturnUrl } from './return-url.ts'
import { sandboxRoutes } from './sandbox-routes.ts'
import {
  CallbackAnswer,
  CashChosen,
  GatewayStarted,
  InitiateBody,
  PaymentDetail,
  RefundAnswer,
  RefundBody,
  Refused,
  WalletPaid,
} from './schemas.ts'
import { type CallbackResult, initiatePayment, settleCallback } from './service.ts'
import { topupRoute } from './topup-routes.ts'

const tags = ['Payments']
const security = [{ bearer: [] }]

const CALLBACK_MESSAGES: Record<CallbackResult['status'], string> = {
  completed: 'Payment successful.',
  failed: 'Payment failed.',
  pending: 'Payment is not complete yet.',
}

/** The payment routes, with the gateways the composition root made (src/modules/index.ts). */
const routes: FastifyPluginAsyncTypebox<{ gateways: Gateways }> = async (app, { gateways }) => {
  // The wallet top-up takes JSON only: its scope is made before the form parser below is added.
  await app.register(async (scope) => topupRoute(scope, gateways))
  // Gateways post callbacks (and the eSewa sandbox form) as urlencoded forms.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))))
  })
  if (app.ctx.config.gateways.driver === 'sandbox') await app.register(sandboxRoutes)

  app.post(
    '/payments/initiate',
    {
      config: { idempotent: true },
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'initiatePayment',
        summary: 'Pay for a booking by wallet, cash or a gateway',
        description:
          'wallet: debits the wallet and confirms at once (200; 422 "Insufficient wallet balance."). ' +
          'gateway_1 (eSewa), gateway_2 (Khalti), gateway_3 (Fonepay): 201 with payment_url; the booking is ' +
          'confirmed when the gateway calls back. cash: 200, the booking stays pending until staff record the ' +
          'cash. Only the booking owner may pay; a cancelled or fully paid booking is 422.',
        body: InitiateBody,
        response: {
          200: Type.Union([WalletPaid, CashChosen]),
          201: GatewayStarted,
          ...errorResponses,
          422: Refused,
          502: Message,
        },
      },
    },
    async (req, reply) => {
      const body = req.body
      checkReturnUrl(app.ctx.config, body.return_url)
      const res = await initiatePayment(app.ctx, gateways, signedIn(req), body)
      if (res.kind === 'gateway') {
        const { id, method, amount } = res.payment
        return reply
          .code(201)
          .send({ data: { payment: { id, method, amount, status: 'initiated' }, payment_url: res.paymentUrl } })
      }
      if (res.kind === 'wallet') return { message: res.message, data: { payment: res.payment, booking: res.booking } }
      return { message: res.message, data: { payment: null, booking: res.booking } }
    },
  )

  app.get(
    '/payments/:payment',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'getPayment',
        summary: 'A payment and what it pays for; an unsettled gateway payment is checked with its gateway first',
        description:
          'The customer who made the payment, or for a booking payment the venue owner, manager or staff. ' +
          'While the payment is `initiated`, the gateway status API is asked first and the payment settled ' +
          'exactly as its callback would settle it, so a client back from the gateway calls this instead of ' +
          'trusting the redirect. An unreachable gateway leaves it `initiated` (ask again later).',
        params: Type.Object({ payment: Type.String() }),
        response: { 200: PaymentDetail, ...errorResponses },
      },
    },
    async (req) => {
      const payment = await findPayment(app.ctx.db, pathId(req.params.payment))
      if (!payment) throw new NotFound()
      await assertCanView(app.ctx.db, signedIn(req), payment)
      return { data: await paymentDetail(app.ctx.db, await refreshPayment(app.ctx, gateways, payment), app.ctx.zone) }
    },
  )

  const callback = async (
    req: { params: { gateway: string }; query: unknown; body?: unknown },
    reply: FastifyReply,
  ) => {
    const { gateway } = req.params
    if (!isGateway(gateway)) throw new NotFound()
    const params: Record<string, string> = {}
    for (const source of [req.query, req.body]) {
      if (!source || typeof source !== 'object') continue
      for (const [k, v] of Object.entries(source)) if (v !== undefined && v !== null) params[k] = String(v)
    }
    const result = await settleCallback(app.ctx, gateways, gateway, params)
    // Only to an allowed place: a row from before RETURN_URL_ALLOWLIST changed answers JSON instead.
    if (result.payment.return_url && isAllowedReturnUrl(app.ctx.config, result.payment.return_url)) {
      return reply.redirect(withQuery(result.payment.return_url, result.status, result.payment.id), 302)
    }
    return {
      message: CALLBACK_MESSAGES[result.status],
      data: { status: result.status, payment: paymentResource(result.payment, app.ctx.zone) },
    }
  }
  const callbackSchema = {
    tags,
    security: [],
    summary: 'Gateway callback (the gateway redirects the customer here)',
    description:
      'Verifies the gateway signature and confirms with the gateway status API; the amount must match. ' +
      'Only the status API settles or fails a payment: a failure or cancel redirect alone changes nothing ' +
      '(status `pending`). Idempotent. Redirects 302 to the return_url given at initiation with `status` ' +
      '(completed, failed, pending) and `payment_id`, else answers 200. A forged or mismatched callback ' +
      '(bad signature, unknown reference, another amount or session, a success the gateway does not confirm) ' +
      'is 422 and changes nothing.',
    params: Type.Object({ gateway: Type.String({ description: 'gateway_1, gateway_2 or gateway_3' }) }),
    querystring: Type.Object({}, { additionalProperties: true }),
    response: { 200: CallbackAnswer, 302: Type.Null(), 404: Message, 422: Message, 502: Message },
  }
  app.get('/payments/:gateway/callback', { schema: { ...callbackSchema, operationId: 'paymentCallback' } }, callback)
  app.post(
    '/payments/:gateway/callback',
    {
      schema: {
        ...callbackSchema,
        operationId: 'paymentCallbackPost',
        body: Type.Optional(Type.Object({}, { additionalProperties: true })),
      },
    },
    callback,
  )

  app.post(
    '/payments/:payment/refund',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'refundPayment',
        summary: 'Refund a booking payment the way it came (full or partial)',
        description:
          'Venue owner, manager or super_admin. amount defaults to everything not yet refunded and may never ' +
          'exceed paid minus refunded (422). An online payment (gateway, wallet) is credited to the customer ' +
          'wallet with one `credit` ledger row; a payment taken at the desk (cash, or a gateway payment staff ' +
          "recorded) becomes a cash-back due at the venue's desk (GET /api/venues/{venue}/cash-backs): it never " +
          'becomes wallet money, unless `to: "wallet"` credits it from the venue\'s own balance with the platform. ' +
          'Gateway money taken at the desk (a desk QR payment, or a reference typed before those) is a gateway ' +
          "refund due (GET /api/venues/{venue}/gateway-refunds), sent back through Khalti's refund API or marked " +
          'done by the owner; `to` wallet or desk is 422 for it. ' +
          "The booking's paid_amount is lowered by the refund and its refunded_amount raised.",
        params: Type.Object({ payment: Type.String() }),
        body: RefundBody,
        response: { 200: RefundAnswer, ...errorResponses, 422: Refused },
      },
    },
    async (req) => {
      const id = pathId(req.params.payment)
      const { payment, to } = await refundPayment(app.ctx, gateways, signedIn(req), id, req.body)
      const message =
        to === 'gateway'
          ? payment.method === 'gateway_2' && !payment.unverified
            ? 'Refund due at the gateway: it is being sent back through Khalti.'
            : "Refund due at the gateway: make it in the gateway's merchant portal, then mark it done."
          : to === 'desk'
            ? "Refund recorded: pay it back at the venue's desk."
            : to === 'source'
              ? 'Refund sent back through Khalti.'
              : payment.recorded_by === null
                ? 'Refund credited to the customer wallet.'
                : "Refund credited to the customer wallet from the venue's balance."
      return { message, data: paymentResource(payment, app.ctx.zone) }
    },
  )

  esewaCheckoutRoute(app, gateways)
  adminPaymentRoutes(app)
  gatewayRefundRoutes(app)
}

export default routes

function isGateway(name: string): name is GatewayName {
  return GATEWAYS.some((g) => g === name)
}

function withQuery(url: string, status: string, paymentId: number): string {
  try {
    const u = new URL(url)
    u.searchParams.set('status', status)
    u.searchParams.set('payment_id', String(paymentId))
    return u.toString()
  } catch {
    return `${url}${url.includes('?') ? '&' : '?'}status=${status}&payment_id=${paymentId}`
  }
}

/**
 * The payment gateways' drivers for this app: the real protocols, or the in-process sandbox, which
 * the drivers reach through the app itself (inject) at the same URLs a browser would; those calls
 * are the service's own and spend no client's rate limit (internalCall).
 */
export function paymentGateways(app: RouteApp): Gateways {
  return createGateways(app.ctx, inProcess(app, app.ctx.config.appUrl))
}

function inProcess(app: RouteApp, appUrl: string): Transport {
  return async (req) => {
    const url = req.url.startsWith(appUrl) ? req.url.slice(appUrl.length) : req.url
    const headers = { ...req.headers, ...internalCall() }
    const res = await app.inject({ method: req.method, url, headers, payload: req.body })
    return { status: res.statusCode, body: res.body }
  }
}
