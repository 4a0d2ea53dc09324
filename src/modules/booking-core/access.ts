import type { AuthUser } from '../../lib/auth.ts'
import type { AppContext } from '../../lib/context.ts'
import { Forbidden, NotFound } from '../../lib/errors.ts'
import { parseId } from '../../lib/ids.ts'
import { assertVenueAccess, DESK_ROLES, venueForStaff } from '../venues/index.ts'
import { assertNotOwnBooking } from './operations.ts'
import type { BookingKind } from './repository/bookings.ts'
import { type BookingParties, bookingParties } from './repository/parties.ts'

// Who may act on a booking of either kind, from the raw path parameter: 404 for an unknown or
// malformed id, 403 for anyone else. The route hooks (hooks.ts) run these before the body is validated.

/** The booking of a path id, whoever asks; 404 when the id is malformed or unknown. */
async function partiesOr404(ctx: AppContext, kind: BookingKind, rawId: string): Promise<BookingParties> {
  const id = parseId(rawId)
  const found = id === undefined ? undefined : await bookingParties(ctx.db, kind, id)
  if (!found) throw new NotFound()
  return found
}

/** The booking's id when the caller is its customer: 404 unknown, 403 someone else's. */
export async function ownedBookingId(ctx: AppContext, user: AuthUser, kind: BookingKind, rawId: string) {
  const found = await partiesOr404(ctx, kind, rawId)
  if (found.user_id !== user.id) throw new Forbidden()
  return found.id
}

/** The venue's id when the caller works at its desk (DESK_ROLES): 404 unknown venue, 403 otherwise. */
export async function deskVenueId(ctx: AppContext, user: AuthUser, param: string): Promise<number> {
  return (await venueForStaff(ctx, user, param, DESK_ROLES)).id
}

/**
 * The booking's id when the caller works at its venue's desk: 404 unknown, 403 otherwise. With
 * `payable`, also 403 on the caller's own booking: staff never record a payment on it.
 */
export async function deskBookingId(
  ctx: AppContext,
  user: AuthUser,
  kind: BookingKind,
  rawId: string,
  payable = false,
): Promise<number> {
  const found = await partiesOr404(ctx, kind, rawId)
  await assertVenueAccess(ctx.db, user, found.venue_id, DESK_ROLES)
  if (payable) assertNotOwnBooking(found, user)
  return found.id
}
