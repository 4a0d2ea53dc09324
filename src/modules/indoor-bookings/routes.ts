import { Type } from 'typebox'
import { signedIn } from '../../lib/auth.ts'
import { pageParams, paginated } from '../../lib/pagination.ts'
import type { Routes } from '../../lib/route.ts'
import { Data, Message, Paginated } from '../../lib/schemas.ts'
import {
  bookingAccessHooks,
  bookingErrors,
  CancelAnswer,
  CancellationPreviewSchema,
  cancelAsCustomer,
  chargeAtDesk,
  payAtDesk,
  previewAsCustomer,
  STATUS_CHANGE_DOC,
  setStatusAtDesk,
} from '../booking-core/index.ts'
import { DeskPaymentIntent, startDeskGatewayPayment } from '../payments/index.ts'
import { IndoorGameBookingSchema } from './resource.ts'
import {
  BookingParams,
  CancelBody,
  ChargeBody,
  CreateBody,
  ListQuery,
  PaymentBody,
  StaffCreateBody,
  StatusBody,
  VenueListQuery,
  VenueParams,
} from './schemas.ts'
import { createMine, listMine, reloadBooking, showBooking } from './service.ts'
import { createVenueBooking, listVenueBookings } from './staff.ts'

const tags = ['Indoor game bookings']
const security = [{ bearer: [] }]
const One = Data(IndoorGameBookingSchema)
const errors = bookingErrors
const SLOT_TAKEN_DOC = '409: "The selected slot is not available." when the slot overlaps a live booking'

const routes: Routes = async (app) => {
  const { ctx } = app
  // Who may act is decided before the body is validated (booking-core/hooks.ts): an outsider gets
  // 403/404, never a 422.
  const { ownerOnly, venueDesk, bookingDesk, bookingPaymentDesk } = bookingAccessHooks(
    ctx,
    'indoor',
    'indoorGameBooking',
  )
  // The shared steps answer the indoor booking as it is afterwards.
  const reload = reloadBooking(ctx)

  app.get(
    '/indoor-game-bookings',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'listIndoorGameBookings',
        summary: "The caller's indoor game bookings, latest date first (paginated; optional status and date filters)",
        querystring: ListQuery,
        response: { 200: Paginated(IndoorGameBookingSchema), ...errors },
      },
    },
    async (req) => {
      const page = pageParams(req.query)
      const { items, total } = await listMine(ctx, signedIn(req), page, req.query)
      return paginated(req, ctx.config.appUrl, items, total, page)
    },
  )

  app.post(
    '/indoor-game-bookings',
    {
      config: { idempotent: true },
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'createIndoorGameBooking',
        summary: 'Book an indoor game slot (pending until paid)',
        description:
          `Players at most min(capacity, 20). ${SLOT_TAKEN_DOC}; also when the slot is outside opening hours. ` +
          "422 (errors.start_time / errors.end_time) when a time is off the game's slot grid.",
        body: CreateBody,
        response: { 201: One, 409: Message, ...errors },
      },
    },
    async (req, reply) => reply.code(201).send({ data: await createMine(ctx, signedIn(req), req.body) }),
  )

  app.get(
    '/indoor-game-bookings/:indoorGameBooking',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'getIndoorGameBooking',
        summary: 'One indoor game booking with indoor_game, user, charges and payments',
        description:
          'The booking owner only; anyone else, venue staff and admins included, gets 403 ' +
          '(staff read bookings through GET /api/venues/{venue}/indoor-game-bookings).',
        params: BookingParams,
        response: { 200: One, ...errors },
      },
    },
    async (req) => ({ data: await showBooking(ctx, signedIn(req), req.params.indoorGameBooking) }),
  )

  app.patch(
    '/indoor-game-bookings/:indoorGameBooking/cancel',
    {
      onRequest: app.auth.required,
      preValidation: ownerOnly,
      schema: {
        tags,
        security,
        operationId: 'cancelIndoorGameBooking',
        summary: 'Cancel your own pending or confirmed booking before it starts',
        description:
          'Refunds to the wallet what is still refundable (paid minus refunded) when cancelled at least the venue ' +
          'free_cancellation_hours before the start; `message` and `refund_amount` state what was credited; sends ' +
          'BookingCancelled. 403 for a non-owner or a completed booking; 422 for a cancelled, playing or no-show ' +
          'booking, or one that has started. The reason is cancel_reason, else its alias reason (the first that ' +
          'is not blank, trimmed; default "Cancelled by the customer"), the same rule as for court bookings.',
        params: BookingParams,
        body: CancelBody,
        response: { 200: CancelAnswer(IndoorGameBookingSchema), ...errors },
      },
    },
    async (req) => cancelAsCustomer(ctx, signedIn(req), 'indoor', req.params.indoorGameBooking, req.body, reload),
  )

  app.get(
    '/indoor-game-bookings/:indoorGameBooking/cancellation',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'getIndoorGameBookingCancellationQuote',
        summary: 'What cancelling your booking now would refund, and why',
        description:
          "The booking's customer only (others 403, venue staff included). cancellable false with the reason when " +
          'it cannot be cancelled; refund_amount is what PATCH …/cancel would credit to the wallet right now.',
        params: BookingParams,
        response: { 200: CancellationPreviewSchema, ...errors },
      },
    },
    async (req) => ({ data: await previewAsCustomer(ctx, signedIn(req), 'indoor', req.params.indoorGameBooking) }),
  )

  // --- Venue staff ---------------------------------------------------------------------------

  app.get(
    '/venues/:venue/indoor-game-bookings',
    {
      onRequest: app.auth.required,
      preValidation: venueDesk,
      schema: {
        tags,
        security,
        operationId: 'listVenueIndoorGameBookings',
        summary: "A venue's indoor game bookings (owner, manager, staff); by date and start time, paginated",
        params: VenueParams,
        querystring: VenueListQuery,
        response: { 200: Paginated(IndoorGameBookingSchema), ...errors },
      },
    },
    async (req) => {
      const page = pageParams(req.query)
      const { items, total } = await listVenueBookings(ctx, signedIn(req), req.params.venue, req.query, page)
      return paginated(req, ctx.config.appUrl, items, total, page)
    },
  )

  app.post(
    '/venues/:venue/indoor-game-bookings',
    {
      onRequest: app.auth.required,
      preValidation: venueDesk,
      schema: {
        tags,
        security,
        operationId: 'createDeskIndoorGameBooking',
        summary: 'Book an indoor game at the desk: offline or walk-in (owner, manager, staff)',
        description: `customer_name is required. ${SLOT_TAKEN_DOC}; a time off the slot grid is 422.`,
        params: VenueParams,
        body: StaffCreateBody,
        response: { 201: One, 409: Message, ...errors },
      },
    },
    async (req, reply) => {
      return reply.code(201).send({ data: await createVenueBooking(ctx, signedIn(req), req.params.venue, req.body) })
    },
  )

  app.patch(
    '/indoor-game-bookings/:indoorGameBooking/status',
    {
      onRequest: app.auth.required,
      preValidation: bookingDesk,
      schema: {
        tags,
        security,
        operationId: 'updateIndoorGameBookingStatus',
        summary: 'Move a booking along the state machine (owner, manager, staff)',
        description: STATUS_CHANGE_DOC,
        params: BookingParams,
        body: StatusBody,
        response: { 200: One, ...errors },
      },
    },
    async (req) => ({
      data: await setStatusAtDesk(ctx, signedIn(req), 'indoor', req.params.indoorGameBooking, req.body, reload),
    }),
  )

  app.post(
    '/indoor-game-bookings/:indoorGameBooking/charges',
    {
      onRequest: app.auth.required,
      preValidation: bookingDesk,
      schema: {
        tags,
        security,
        operationId: 'addIndoorGameBookingCharge',
        summary: 'Add an extra session charge; raises total_amount and balance_due (owner, manager, staff)',
        description:
          'Refused (422) on cancelled or no-show bookings. amount is at least 0.01 and at most MAX_CHARGE_AMOUNT ' +
          '(default 100000.00), else 422 errors.amount.',
        params: BookingParams,
        body: ChargeBody,
        response: { 201: One, ...errors },
      },
    },
    async (req, reply) => {
      return reply.code(201).send({
        data: await chargeAtDesk(ctx, signedIn(req), 'indoor', req.params.indoorGameBooking, req.body, reload),
      })
    },
  )

  app.post(
    '/indoor-game-bookings/:indoorGameBooking/payments',
    {
      onRequest: app.auth.required,
      preValidation: bookingPaymentDesk,
      schema: {
        tags,
        security,
        operationId: 'recordIndoorGameBookingPayment',
        summary: 'Record a payment taken at the desk (owner, manager, staff)',
        description:
          'amount ≤ balance_due (else 422 errors.amount). cash: recorded at once, 201 with the booking; a pending ' +
          'booking that becomes fully paid is confirmed. gateway_1/2/3: a desk payment intent, 201 {data: {payment ' +
          '(status initiated), payment_url, qr_svg}}, paid only when the gateway confirms it. ' +
          '403 "You may not record a payment on your own booking." when the booking is the caller\'s own.',
        params: BookingParams,
        body: PaymentBody,
        response: { 201: Type.Union([One, DeskPaymentIntent]), ...errors },
      },
    },
    async (req, reply) => {
      const { method = 'cash', amount } = req.body
      const id = req.params.indoorGameBooking
      if (method !== 'cash') {
        const intent = await startDeskGatewayPayment(ctx, app.gateways, signedIn(req), 'indoor', id, { amount, method })
        return reply.code(201).send({ data: intent })
      }
      return reply.code(201).send({ data: await payAtDesk(ctx, signedIn(req), 'indoor', id, req.body, reload) })
    },
  )
}

export default routes
