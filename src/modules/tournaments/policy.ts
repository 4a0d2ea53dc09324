import type { AuthUser } from '../../lib/auth.ts'
import type { Executor } from '../../lib/db.ts'
import { assertVenueAccess, MANAGER_ROLES, runsVenue } from '../venues/index.ts'

/** Tournaments are run by the venue's owner and managers (and any super_admin). */
export const assertCanManage = (db: Executor, user: AuthUser, venueId: number) =>
  assertVenueAccess(db, user, venueId, MANAGER_ROLES)

export { runsVenue as canSeeHiddenVenue }
