import type { FastifyRequest } from 'fastify'
import { signedIn } from '../../lib/auth.ts'
import type { AppContext } from '../../lib/context.ts'
import { deskBookingId, deskVenueId, ownedBookingId } from './access.ts'
import type { BookingKind } from './repository/bookings.ts'

// Who may act on a booking of either kind is decided before the body is validated: an outsider gets
// 403/404, never a 422 that describes the body. These preValidation hooks see the path parameters
// still unchecked; `param` names the kind's booking path parameter ({booking}, {indoorGameBooking}).

type WithParams<P extends string> = FastifyRequest & { params: Record<P, string> }

/** The four hooks of a kind's routes: its customer, the venue's desk, the booking's desk, the booking's desk paying. */
export function bookingAccessHooks<P extends string>(ctx: AppContext, kind: BookingKind, param: P) {
  return {
    /** The booking's customer only. */
    ownerOnly: async (req: WithParams<P>) => {
      await ownedBookingId(ctx, signedIn(req), kind, req.params[param])
    },
    /** The venue's desk (DESK_ROLES) ({venue}). */
    venueDesk: async (req: WithParams<'venue'>) => {
      await deskVenueId(ctx, signedIn(req), req.params.venue)
    },
    /** The desk of the booking's venue. */
    bookingDesk: async (req: WithParams<P>) => {
      await deskBookingId(ctx, signedIn(req), kind, req.params[param])
    },
    /** The desk of the booking's venue, and not the booking's own customer: recording a payment. */
    bookingPaymentDesk: async (req: WithParams<P>) => {
      await deskBookingId(ctx, signedIn(req), kind, req.params[param], true)
    },
  }
}
