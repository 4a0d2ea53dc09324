import type { AuthUser } from '../../lib/auth.ts'
import type { Executor } from '../../lib/db.ts'
import { Forbidden, NotFound } from '../../lib/errors.ts'

// Who may act on a venue: its owner, its assigned managers and staff, and any super_admin.

export type VenueRole = 'owner' | 'manager' | 'staff'

/** The caller's role at a venue ('admin' for super_admin), or null. Deleted venues have no roles. */
export async function venueRoleOf(db: Executor, user: AuthUser, venueId: number): Promise<VenueRole | 'admin' | null> {
  if (user.roles.includes('super_admin')) return 'admin'
  const venue = await db
    .selectFrom('venues')
    .leftJoin('venue_staff as s', (j) => j.onRef('s.venue_id', '=', 'venues.id').on('s.user_id', '=', user.id))
    .select(['venues.owner_id', 's.role'])
    .where('venues.id', '=', venueId)
    .where('venues.deleted_at', 'is', null)
    .executeTakeFirst()
  if (!venue) return null
  if (venue.owner_id === user.id) return 'owner'
  return (venue.role as VenueRole | null) ?? null
}

/**
 * Throws NotFound when the venue does not exist, Forbidden unless the caller is super_admin or
 * holds one of `allowed` at the venue. Returns the caller's role.
 */
/** Whether the caller runs the venue (owner, manager, staff) or is a super_admin: they see it while hidden. */
export async function runsVenue(db: Executor, user: AuthUser | null | undefined, venueId: number): Promise<boolean> {
  if (!user) return false
  return (await venueRoleOf(db, user, venueId)) !== null
}

export async function assertVenueAccess(
  db: Executor,
  user: AuthUser,
  venueId: number,
  allowed: VenueRole[],
): Promise<VenueRole | 'admin'> {
  const exists = await db
    .selectFrom('venues')
    .select('id')
    .where('id', '=', venueId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst()
  if (!exists) throw new NotFound()
  const role = await venueRoleOf(db, user, venueId)
  if (role === 'admin') return role
  if (!role || !allowed.includes(role)) throw new Forbidden()
  return role
}

/** Ids of venues the caller owns or is assigned to ('all' for super_admin). */
export async function accessibleVenueIds(db: Executor, user: AuthUser): Promise<number[] | 'all'> {
  if (user.roles.includes('super_admin')) return 'all'
  const rows = await db
    .selectFrom('venues')
    .select('id')
    .where('deleted_at', 'is', null)
    .where((eb) =>
      eb.or([
        eb('owner_id', '=', user.id),
        eb('id', 'in', eb.selectFrom('venue_staff').select('venue_id').where('user_id', '=', user.id)),
      ]),
    )
    .execute()
  return rows.map((r) => r.id)
}
