import type { FastifyRequest } from 'fastify'
import type { AuthUser } from '../../lib/auth.ts'
import type { AppContext } from '../../lib/context.ts'
import type { Executor } from '../../lib/db.ts'
import { NotFound } from '../../lib/errors.ts'
import { pathId } from '../../lib/ids.ts'
import { assertVenueAccess, runsVenue } from '../venues/access.ts'
import { findReview } from './repository.ts'

// Who may do what with reviews. super_admin may do everything.

/** Venue staff answer reviews: owner, manager or staff of the review's venue. */
export const assertCanReply = (db: Executor, user: AuthUser, venueId: number) =>
  assertVenueAccess(db, user, venueId, ['owner', 'manager', 'staff'])

/** Moderation (approve, admin list) is for the venue's owner and managers only. */
export const assertCanModerate = (db: Executor, user: AuthUser, venueId: number) =>
  assertVenueAccess(db, user, venueId, ['owner', 'manager'])

export { pathId, runsVenue as canSeeHiddenVenue }

/** preValidation hook of the reply route: venue staff of the {review}, checked before the body (403 before 422). */
export const replierFirst = (ctx: AppContext) => async (req: FastifyRequest) => {
  const review = await findReview(ctx.db, pathId((req.params as { review: string }).review))
  if (!review) throw new NotFound()
  await assertCanReply(ctx.db, req.user!, review.venue_id)
}
