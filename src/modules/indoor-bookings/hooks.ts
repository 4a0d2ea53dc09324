import type { FastifyRequest } from 'fastify'
import { signedIn } from '../../lib/auth.ts'
import type { AppContext } from '../../lib/context.ts'
import { ownedBooking } from './service.ts'
import { operatedBooking, payableOperatedBooking, venueFor } from './staff.ts'

// Who may act on an indoor booking is decided before the body is validated, as for court bookings
// (bookings/hooks.ts): an outsider gets 403/404, never a 422 that describes the body.

type BookingRequest = FastifyRequest & { params: { indoorGameBooking: string } }

/** The booking's customer only ({indoorGameBooking}). */
export const ownerFirst = (ctx: AppContext) => async (req: BookingRequest) => {
  await ownedBooking(ctx, signedIn(req), req.params.indoorGameBooking)
}

/** The venue's desk (DESK_ROLES) ({venue}). */
export const venueDeskFirst = (ctx: AppContext) => async (req: FastifyRequest & { params: { venue: string } }) => {
  await venueFor(ctx, signedIn(req), req.params.venue)
}

/** The desk of the booking's venue ({indoorGameBooking}). */
export const bookingDeskFirst = (ctx: AppContext) => async (req: BookingRequest) => {
  await operatedBooking(ctx, signedIn(req), req.params.indoorGameBooking)
}

/** The desk of the booking's venue, and not the booking's own customer ({indoorGameBooking}): recording a payment. */
export const bookingPaymentDeskFirst = (ctx: AppContext) => async (req: BookingRequest) => {
  await payableOperatedBooking(ctx, signedIn(req), req.params.indoorGameBooking)
}
