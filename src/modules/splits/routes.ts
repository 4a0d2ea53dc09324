import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { signedIn } from '../../lib/auth.ts'
import { pathId } from '../../lib/ids.ts'
import { Data, errorResponses, Message } from '../../lib/schemas.ts'
import { bookingAccessHooks } from '../booking-core/index.ts'
import { checkReturnUrl, GatewayStarted, type Gateways, Refused, WalletPaid } from '../payments/index.ts'
import { type PayAnswer, payShare, settleSplit, sharePage, splitAsOrganizer } from './pay.ts'
import { SharePageSchema, SplitSchema } from './resource.ts'
import { BookingParams, SharePayBody, SplitBody, TokenParams } from './schemas.ts'
import { sharesForOrganizer } from './service.ts'

const tags = ['Split payment']
const security = [{ bearer: [] }]
const PAY_DOC =
  'Answers like /api/payments/initiate: wallet pays at once (200 {message, data: {payment, booking}}; ' +
  '422 "Insufficient wallet balance."); gateway_1 (eSewa), gateway_2 (Khalti), gateway_3 (Fonepay) ' +
  'answer 201 {data: {payment, payment_url}} and the share is paid when the gateway confirms it (if ' +
  "someone else paid it meanwhile, that money goes back to the payer's wallet). Cash is not offered: a " +
  'share is paid by whoever opens its link, away from the desk. 409 when the share is already paid; 422 ' +
  'when the booking is no longer payable, the share is more than its balance due (part paid another way), or the ' +
  'split deadline has passed. A payment of the whole balance made otherwise (/api/payments/initiate, the desk) ' +
  'settles the unpaid shares: their links then answer 409.'

/** Split payment of court bookings, and the share links of both kinds. */
const routes: FastifyPluginAsyncTypebox<{ gateways: Gateways }> = async (app, { gateways }) => {
  const { ctx } = app
  const { ownerOnly } = bookingAccessHooks(ctx, 'court', 'booking')
  const payAnswer = (res: PayAnswer) =>
    res.kind === 'wallet'
      ? { code: 200 as const, body: { message: res.message, data: { payment: res.payment, booking: res.booking } } }
      : {
          code: 201 as const,
          body: {
            data: {
              payment: {
                id: res.payment.id,
                method: res.payment.method,
                amount: res.payment.amount,
                status: 'initiated' as const,
              },
              payment_url: res.paymentUrl,
            },
          },
        }

  app.post(
    '/bookings/:booking/split',
    {
      onRequest: app.auth.required,
      preValidation: ownerOnly,
      schema: {
        tags,
        security,
        operationId: 'splitBooking',
        summary: 'Split your pending booking into equal shares, each paid through its own link',
        description:
          "The booking's customer only (403 anyone else), while it is pending and nothing is paid. Amounts are " +
          "equal to the paisa, the remainder on the first share (the organizer's); they sum to the total. " +
          'Splitting again replaces the shares until one is paid, then 409. The booking is held until ' +
          '`deadline`: SPLIT_PAY_BEFORE_MINUTES (default 120) before the start, never longer than the ' +
          "booking's hold could be otherwise (BOOKING_HOLD_MINUTES from now without a verified phone or at " +
          "the venue's no-show limit). At the deadline with shares unpaid the booking is cancelled and every " +
          'paid share refunded to its payer. 422 when that deadline has already passed.',
        params: BookingParams,
        body: SplitBody,
        response: { 201: Data(SplitSchema), ...errorResponses, 409: Message },
      },
    },
    async (req, reply) => {
      const split = await splitAsOrganizer(ctx, signedIn(req), 'court', pathId(req.params.booking), req.body.shares)
      return reply.code(201).send({ data: split })
    },
  )

  app.get(
    '/bookings/:booking/shares',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'getBookingShares',
        summary: 'The shares of your split booking: who has paid',
        description: 'The organizer only (403 anyone else, staff included); 404 when the booking is not split.',
        params: BookingParams,
        response: { 200: Data(SplitSchema), ...errorResponses },
      },
    },
    async (req) => ({ data: await sharesForOrganizer(ctx, signedIn(req), 'court', pathId(req.params.booking)) }),
  )

  app.post(
    '/bookings/:booking/split/settle',
    {
      config: { idempotent: true },
      onRequest: app.auth.required,
      preValidation: ownerOnly,
      schema: {
        tags,
        security,
        operationId: 'settleBookingSplit',
        summary: 'Pay every unpaid share of your split booking at once',
        description: `The organizer only. One payment of the unpaid shares' sum, by the organizer. ${PAY_DOC}`,
        params: BookingParams,
        body: SharePayBody,
        response: { 200: WalletPaid, 201: GatewayStarted, ...errorResponses, 409: Message, 422: Refused, 502: Message },
      },
    },
    async (req, reply) => {
      checkReturnUrl(ctx.config, req.body.return_url)
      const res = await settleSplit(ctx, gateways, signedIn(req), 'court', pathId(req.params.booking), req.body)
      const { code, body } = payAnswer(res)
      return reply.code(code).send(body)
    },
  )

  app.get(
    '/shares/:token',
    {
      schema: {
        tags,
        security: [],
        operationId: 'getShare',
        summary: 'A share link: the booking, the share amount and who has paid',
        description: 'Anyone with the link (the token is the secret); 404 for an unknown token.',
        params: TokenParams,
        response: { 200: Data(SharePageSchema), 404: Message },
      },
    },
    async (req) => ({ data: await sharePage(ctx, req.params.token) }),
  )

  app.post(
    '/shares/:token/pay',
    {
      config: { idempotent: true },
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'payShare',
        summary: 'Pay a share of a split booking',
        description: `Any signed-in user with the link; one user may pay several shares. ${PAY_DOC}`,
        params: TokenParams,
        body: SharePayBody,
        response: { 200: WalletPaid, 201: GatewayStarted, ...errorResponses, 409: Message, 422: Refused, 502: Message },
      },
    },
    async (req, reply) => {
      checkReturnUrl(ctx.config, req.body.return_url)
      const { code, body } = payAnswer(await payShare(ctx, gateways, signedIn(req), req.params.token, req.body))
      return reply.code(code).send(body)
    },
  )
}

export default routes
