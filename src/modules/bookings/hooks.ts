import type { FastifyRequest } from 'fastify'
import { signedIn } from '../../lib/auth.ts'
import type { AppContext } from '../../lib/context.ts'
import { ownedId } from './service.ts'
import { deskBookingId, payableDeskBookingId, venueFor } from './staff.ts'

// Who may act on a court booking is decided before the body is validated: an outsider gets 403/404,
// never a 422 that describes the body. These preValidation hooks see the path parameters still
// unchecked; indoor-bookings/hooks.ts offers the same four for indoor bookings.

/** The booking's customer only ({booking}). */
export const ownerFirst = (ctx: AppContext) => async (req: FastifyRequest & { params: { booking: string } }) => {
  await ownedId(ctx, signedIn(req), req.params.booking)
}

/** The venue's desk (DESK_ROLES) ({venue}). */
export const venueDeskFirst = (ctx: AppContext) => async (req: FastifyRequest & { params: { venue: string } }) => {
  await venueFor(ctx, signedIn(req), req.params.venue)
}

/** The desk of the booking's venue ({booking}). */
export const bookingDeskFirst = (ctx: AppContext) => async (req: FastifyRequest & { params: { booking: string } }) => {
  await deskBookingId(ctx, signedIn(req), req.params.booking)
}

/** The desk of the booking's venue, and not the booking's own customer ({booking}): recording a payment. */
export const bookingPaymentDeskFirst =
  (ctx: AppContext) => async (req: FastifyRequest & { params: { booking: string } }) => {
    await payableDeskBookingId(ctx, signedIn(req), req.params.booking)
  }
