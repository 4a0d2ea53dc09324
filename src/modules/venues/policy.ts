import { type AuthUser, hasRole } from '../../lib/auth.ts'
import type { Executor } from '../../lib/db.ts'
import { Forbidden, NotFound } from '../../lib/errors.ts'
import { venueRoleOf } from './access.ts'
import type { CatalogueScope, VenueRecord } from './repository.ts'

// Who sees which venues (the contract's visibility paragraph).

/**
 * Guests and customers see the public catalogue (verified, active); venue_owner, manager and staff
 * with a token see only their own venues, whatever their status; super_admin sees everything.
 */
export function catalogueScope(user: AuthUser | null | undefined): CatalogueScope {
  if (!user) return { kind: 'public' }
  if (hasRole(user, 'super_admin')) return { kind: 'all' }
  if (hasRole(user, 'venue_owner', 'manager', 'staff')) return { kind: 'own', userId: user.id }
  return { kind: 'public' }
}

export const isPublic = (v: Pick<VenueRecord, 'verification_status' | 'is_active'>) =>
  v.verification_status === 'verified' && v.is_active

/**
 * Venue show: an owner/manager/staff who neither owns nor is assigned to the venue gets 403; a
 * guest or customer gets 404 for a venue hidden from the catalogue.
 */
export async function assertCanShowVenue(db: Executor, user: AuthUser | null | undefined, venue: VenueRecord) {
  const scope = catalogueScope(user)
  if (scope.kind === 'all') return
  // An 'own' scope comes only from a signed-in user.
  if (scope.kind === 'own' && user) {
    if (!(await venueRoleOf(db, user, venue.id))) throw new Forbidden()
    return
  }
  if (!isPublic(venue)) throw new NotFound()
}

/**
 * The venue's public parts (courts, indoor games, schedule, pricing): visible when the venue is in
 * the public catalogue, or to anyone who works there (and super_admin); otherwise 404.
 */
export async function assertCanSeeVenueContent(db: Executor, user: AuthUser | null | undefined, venue: VenueRecord) {
  if (isPublic(venue)) return
  if (user && (await venueRoleOf(db, user, venue.id))) return
  throw new NotFound()
}
