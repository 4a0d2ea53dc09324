// What other modules may use of venues (the venues owner keeps the full list).
export { assertVenueAccess, type VenueRole } from './access.ts'
export { findVenueByKey as resolveVenue } from './repository.ts'
export { VenueSummarySchema, venueSummary } from './resource.ts'
export { venueAccessFirst } from './service/manage.ts'
