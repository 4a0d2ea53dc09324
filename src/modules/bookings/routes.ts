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
import { BookingSchema } from './resource.ts'
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
import { createMyBooking, listMyBookings, reloadBooking, showMyBooking } from './service.ts'
import { createVenueBooking, listVenueBookings } from './staff.ts'

const tags = ['Bookings']
const staffTags = ['Bookings (venue staff)']
const security = [{ bearer: [] }]
const One = Data(BookingSchema)
const errors = bookingErrors
const CONFLICT_DOC =
  '409 "The court is not available for the selected time slot." when the range overlaps a live booking ' +
  '(decided by the database), a maintenance block, a closed day, or lies outside opening hours. ' +
  '422 for a date before today, a start time already past (venue time), or a start or end off the ' +
  "court's slot grid (errors.start_time / errors.end_time)."

const routes: Routes = async (app) => {
  const { ctx } = app
  // Who may act is decided before the body is validated (booking-core/hooks.ts): an outsider gets
  // 403/404, never a 422.
  const { ownerOnly, venueDesk, bookingDesk, bookingPaymentDesk } = bookingAccessHooks(ctx, 'court', 'booking')
  // The shared steps answer the court booking as it is afterwards.
  const reload = reloadBooking(ctx)

  app.get(
    '/bookings',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'listBookings',
        summary: "The caller's court bookings, latest slot first (paginated)",
        querystring: ListQuery,
        response: { 200: Paginated(BookingSchema), ...errors },
      },
    },
    async (req) => {
      const page = pageParams(req.query)
      const { items, total } = await listMyBookings(ctx, signedIn(req), req.query, page)
      return paginated(req, ctx.config.appUrl, items, total, page)
    },
  )

  app.post(
    '/bookings',
    {
      config: { idempotent: true },
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'createBooking',
        summary: 'Book a court slot (pending until paid)',
        description:
          `${CONFLICT_DOC} An unpaid booking holds its slot for BOOKING_HOLD_MINUTES (cash: until the start), ` +
          'then is cancelled with cancel_reason "Payment not received". A coupon is redeemed with the booking.',
        body: CreateBody,
        response: { 201: One, 409: Message, ...errors },
      },
    },
    async (req, reply) => reply.code(201).send({ data: await createMyBooking(ctx, signedIn(req), req.body) }),
  )

  app.get(
    '/bookings/:booking',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'getBooking',
        summary: 'One court booking with court, user, payments and charges',
        description:
          'Only the booking owner may read it (others 403). Venue staff use GET /api/venues/{venue}/bookings.',
        params: BookingParams,
        response: { 200: One, ...errors },
      },
    },
    async (req) => ({ data: await showMyBooking(ctx, signedIn(req), req.params.booking) }),
  )

  app.patch(
    '/bookings/:booking/cancel',
    {
      onRequest: app.auth.required,
      preValidation: ownerOnly,
      schema: {
        tags,
        security,
        operationId: 'cancelBooking',
        summary: 'Cancel one of your bookings',
        description:
          'Owner only; a completed booking is 403. Only pending or confirmed bookings that have not started ' +
          'can be cancelled (else 422). A paid booking cancelled at least free_cancellation_hours before its ' +
          'start is refunded to the wallet (what is still refundable: paid minus refunded); later, no refund. ' +
          '`message` and `refund_amount` state what was credited. BookingCancelled is sent. The reason is ' +
          'cancel_reason, else its alias reason (the first that is not blank, trimmed; default "Cancelled by ' +
          'the customer"), the same rule as for indoor game bookings.',
        params: BookingParams,
        body: CancelBody,
        response: { 200: CancelAnswer(BookingSchema), ...errors },
      },
    },
    async (req) => cancelAsCustomer(ctx, signedIn(req), 'court', req.params.booking, req.body, reload),
  )

  app.get(
    '/bookings/:booking/cancellation',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'getBookingCancellationQuote',
        summary: 'What cancelling one of your bookings now would refund, and why',
        description:
          'Owner only (others 403, venue staff included). cancellable false with the reason when the booking ' +
          'cannot be cancelled; refund_amount is what PATCH …/cancel would credit to the wallet right now.',
        params: BookingParams,
        response: { 200: CancellationPreviewSchema, ...errors },
      },
    },
    async (req) => ({ data: await previewAsCustomer(ctx, signedIn(req), 'court', req.params.booking) }),
  )

  app.get(
    '/venues/:venue/bookings',
    {
      onRequest: app.auth.required,
      preValidation: venueDesk,
      schema: {
        tags: staffTags,
        security,
        operationId: 'listVenueBookings',
        summary: "A venue's court bookings (owner, manager, staff)",
        params: VenueParams,
        querystring: VenueListQuery,
        response: { 200: Paginated(BookingSchema), ...errors },
      },
    },
    async (req) => {
      const page = pageParams(req.query)
      const { items, total } = await listVenueBookings(ctx, signedIn(req), req.params.venue, req.query, page)
      return paginated(req, ctx.config.appUrl, items, total, page)
    },
  )

  app.post(
    '/venues/:venue/bookings',
    {
      onRequest: app.auth.required,
      preValidation: venueDesk,
      schema: {
        tags: staffTags,
        security,
        operationId: 'createDeskBooking',
        summary: 'Book a court at the desk: offline or walk-in (owner, manager, staff)',
        description: `customer_name is required. ${CONFLICT_DOC}`,
        params: VenueParams,
        body: StaffCreateBody,
        response: { 201: One, 409: Message, ...errors },
      },
    },
    async (req, reply) =>
      reply.code(201).send({
        data: await createVenueBooking(ctx, signedIn(req), req.params.venue, req.body),
      }),
  )

  app.patch(
    '/bookings/:booking/status',
    {
      onRequest: app.auth.required,
      preValidation: bookingDesk,
      schema: {
        tags: staffTags,
        security,
        operationId: 'updateBookingStatus',
        summary: 'Move a booking through the state machine (owner, manager, staff)',
        description: STATUS_CHANGE_DOC,
        params: BookingParams,
        body: StatusBody,
        response: { 200: One, ...errors },
      },
    },
    async (req) => {
      return { data: await setStatusAtDesk(ctx, signedIn(req), 'court', req.params.booking, req.body, reload) }
    },
  )

  app.post(
    '/bookings/:booking/charges',
    {
      onRequest: app.auth.required,
      preValidation: bookingDesk,
      schema: {
        tags: staffTags,
        security,
        operationId: 'addBookingCharge',
        summary: 'Add an extra session charge (owner, manager, staff)',
        description:
          'Raises extras_total, total_amount and balance_due. Refused (422) on cancelled or no-show bookings. ' +
          'amount is at least 0.01 and at most MAX_CHARGE_AMOUNT (default 100000.00), else 422 errors.amount.',
        params: BookingParams,
        body: ChargeBody,
        response: { 201: One, ...errors },
      },
    },
    async (req, reply) =>
      reply.code(201).send({
        data: await chargeAtDesk(ctx, signedIn(req), 'court', req.params.booking, req.body, reload),
      }),
  )

  app.post(
    '/bookings/:booking/payments',
    {
      onRequest: app.auth.required,
      preValidation: bookingPaymentDesk,
      schema: {
        tags: staffTags,
        security,
        operationId: 'recordBookingPayment',
        summary: 'Record a payment taken at the venue (owner, manager, staff)',
        description:
          'amount ≤ balance_due (else 422 errors.amount). cash: recorded at once, 201 with the booking; a pending ' +
          'booking that becomes fully paid is confirmed (BookingConfirmed is sent). gateway_1/2/3: a desk payment ' +
          'intent, 201 {data: {payment (status initiated), payment_url, qr_svg}}: the customer pays from their ' +
          'phone and the booking is paid only when the gateway confirms it; a typed reference never records money. ' +
          '403 "You may not record a payment on your own booking." when the booking is the caller\'s own.',
        params: BookingParams,
        body: PaymentBody,
        response: { 201: Type.Union([One, DeskPaymentIntent]), ...errors },
      },
    },
    async (req, reply) => {
      const { method = 'cash', amount } = req.body
      if (method !== 'cash') {
        const intent = await startDeskGatewayPayment(ctx, app.gateways, signedIn(req), 'court', req.params.booking, {
          amount,
          method,
        })
        return reply.code(201).send({ data: intent })
      }
      return reply.code(201).send({
        data: await payAtDesk(ctx, signedIn(req), 'court', req.params.booking, req.body, reload),
      })
    },
  )
}

export default routes
