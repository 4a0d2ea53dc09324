import type { AuthUser } from '../../../lib/auth.ts'
import type { AppContext } from '../../../lib/context.ts'
import { loadVenueResources } from '../queries.ts'
import { taxIdentities } from '../repository/manage.ts'
import { myVenueRoles } from '../repository.ts'
import type { MyVenue } from '../resource.ts'

/**
 * GET /venues/my-venues: every venue the caller owns or works at (all for super_admin), any status,
 * each with my_role, the caller's role there.
 */
export async function myVenues(ctx: AppContext, user: AuthUser): Promise<MyVenue[]> {
  const roles = await myVenueRoles(ctx.db, user.id, user.roles.includes('super_admin'))
  const venues = await loadVenueResources(
    ctx,
    roles.map((r) => r.id),
  )
  const roleOf = new Map(roles.map((r) => [r.id, r.role]))
  // The tax identity to those who manage the venue (not its staff).
  const identities = await taxIdentities(
    ctx.db,
    venues.filter((v) => roleOf.get(v.id) !== 'staff').map((v) => v.id),
  )
  return venues.map((v) => ({ ...v, ...identities.get(v.id), my_role: roleOf.get(v.id) ?? 'super_admin' }))
}
