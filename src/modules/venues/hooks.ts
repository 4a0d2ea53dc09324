import type { FastifyRequest } from 'fastify'
import { signedIn } from '../../lib/auth.ts'
import type { AppContext } from '../../lib/context.ts'
import type { VenueRole } from './access.ts'
import { assertMayCreateVenue, venueForStaff } from './service/manage.ts'

/**
 * A preValidation hook: the caller must hold one of `allowed` at the {venue} of the path. It runs
 * before the body is validated, so a stranger learns nothing from validation errors (403 first).
 */
export const venueAccessFirst =
  (ctx: AppContext, allowed: readonly VenueRole[]) => async (req: FastifyRequest & { params: { venue: string } }) => {
    await venueForStaff(ctx, signedIn(req), req.params.venue, allowed)
  }

/** A preValidation hook of POST /venues: an unverified email without venue_owner is 403 before validation. */
export const mayCreateVenueFirst = (ctx: AppContext) => async (req: FastifyRequest) => {
  await assertMayCreateVenue(ctx, signedIn(req))
}
