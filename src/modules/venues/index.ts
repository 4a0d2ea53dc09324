// What other modules may use of venues: resolving a {venue} path key, the caller's role at a
// venue and the access checks built on it, and the venue summary embedded in other resources.

export { assertVenueAccess, DESK_ROLES, MANAGER_ROLES, runsVenue, type VenueRole, venueRoleOf } from './access.ts'
export { venueAccessFirst } from './hooks.ts'
export { assertCanSeeVenueContent } from './policy.ts'
export { findVenueById, refreshMinPrice, resolveVenue, type VenueRecord } from './repository.ts'
export { VenueSummarySchema, venueSummary } from './resource.ts'
export { venueForStaff } from './service/manage.ts'
