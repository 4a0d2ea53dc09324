import type { AuthUser } from '../../lib/auth.ts'
import type { Executor } from '../../lib/db.ts'
import { assertVenueAccess, venueRoleOf } from '../venues/access.ts'

/** Tournaments are run by the venue's owner and managers (and any super_admin). */
export const assertCanManage = (db: Executor, user: AuthUser, venueId: number) =>
  assertVenueAccess(db, user, venueId, ['owner', 'manager'])

/** Tournaments of a hidden venue are visible to the people who run it. */
export async function canSeeHiddenVenue(db: Executor, user: AuthUser | null | undefined, venueId: number) {
  if (!user) return false
  return (await venueRoleOf(db, user, venueId)) !== null
}
