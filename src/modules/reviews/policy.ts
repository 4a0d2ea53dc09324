import type { AuthUser } from '../../lib/auth.ts'
import type { Executor } from '../../lib/db.ts'
import { assertVenueAccess, runsVenue } from '../venues/index.ts'

// Who may do what with reviews. super_admin may do everything.

/** Venue staff answer reviews: owner, manager or staff of the review's venue. */
export const assertCanReply = (db: Executor, user: AuthUser, venueId: number) =>
  assertVenueAccess(db, user, venueId, ['owner', 'manager', 'staff'])

/** Moderation (approve, admin list) is for the venue's owner and managers only. */
export const assertCanModerate = (db: Executor, user: AuthUser, venueId: number) =>
  assertVenueAccess(db, user, venueId, ['owner', 'manager'])

export { runsVenue as canSeeHiddenVenue }
