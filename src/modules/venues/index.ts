// What other modules may use of venues: the catalogue's filters and venue resources (the catalogue
// module answers the public reads), resolving a {venue} path key, the caller's role at a
// venue and the access checks built on it, and the venue summary embedded in other resources.

export { assertVenueAccess, DESK_ROLES, MANAGER_ROLES, runsVenue, type VenueRole, venueRoleOf } from './access.ts'
export { venueAccessFirst } from './hooks.ts'
export { assertCanSeeVenueContent, assertCanShowVenue, catalogueScope } from './policy.ts'
export { loadVenueResource, loadVenueResources } from './queries.ts'
export {
  type CatalogueFilter,
  type CatalogueScope,
  catalogueVenues,
  distanceSql,
  findVenueById,
  type Geo,
  refreshMinPrice,
  resolveVenue,
  searchVenues,
  sortKeys,
  type VenueRecord,
} from './repository.ts'
export { type FreeSlot, setDistance, type Venue, VenueSchema, VenueSummarySchema, venueSummary } from './resource.ts'
export { venueForStaff } from './service/manage.ts'
