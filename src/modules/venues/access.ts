import type { AuthUser } from '../../lib/auth.ts'
import type { Executor } from '../../lib/db.ts'
import { Forbidden, NotFound } from '../../lib/errors.ts'
import { findVenueById, venueOwnerAndStaffRole } from './repository.ts'

// Who may act on a venue: its owner, its assigned managers and staff, and any super_admin.

export type VenueRole = 'owner' | 'manager' | 'staff'

/** Everyone who works a venue's desk: its owner, managers and staff (and any super_admin). */
export const DESK_ROLES: readonly VenueRole[] = ['owner', 'manager', 'staff']
/** Who manages a venue's setup and money: its owner and managers (and any super_admin). */
export const MANAGER_ROLES: readonly VenueRole[] = ['owner', 'manager']

/** The caller's role at a venue ('admin' for super_admin), or null. Deleted venues have no roles. */
export async function venueRoleOf(db: Executor, user: AuthUser, venueId: number): Promise<VenueRole | 'admin' | null> {
  if (user.roles.includes('super_admin')) return 'admin'
  const venue = await venueOwnerAndStaffRole(db, venueId, user.id)
  if (!venue) return null
  if (venue.owner_id === user.id) return 'owner'
  return (venue.role as VenueRole | null) ?? null
}

/** Whether the caller runs the venue (owner, manager, staff) or is a super_admin: they see it while hidden. */
export async function runsVenue(db: Executor, user: AuthUser | null | undefined, venueId: number): Promise<boolean> {
  if (!user) return false
  return (await venueRoleOf(db, user, venueId)) !== null
}

/**
 * Throws NotFound when the venue does not exist, Forbidden unless the caller is super_admin or
 * holds one of `allowed` at the venue. Returns the caller's role.
 */
export async function assertVenueAccess(
  db: Executor,
  user: AuthUser,
  venueId: number,
  allowed: readonly VenueRole[],
): Promise<VenueRole | 'admin'> {
  if (!(await findVenueById(db, venueId))) throw new NotFound()
  const role = await venueRoleOf(db, user, venueId)
  if (role === 'admin') return role
  if (!role || !allowed.includes(role)) throw new Forbidden()
  return role
}
