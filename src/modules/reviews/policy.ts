import type { AuthUser } from '../../lib/auth.ts'
import type { Executor } from '../../lib/db.ts'
import { assertVenueAccess, DESK_ROLES, MANAGER_ROLES, runsVenue } from '../venues/index.ts'

// Who may do what with reviews. super_admin may do everything.

/** Venue staff answer reviews: owner, manager or staff of the review's venue. */
export const assertCanReply = (db: Executor, user: AuthUser, venueId: number) =>
  assertVenueAccess(db, user, venueId, DESK_ROLES)

/** Moderation (approve, admin list) is for the venue's owner and managers only. */
export const assertCanModerate = (db: Executor, user: AuthUser, venueId: number) =>
  assertVenueAccess(db, user, venueId, MANAGER_ROLES)

export { runsVenue as canSeeHiddenVenue }
