// What other modules may use of venues (the names helper B's venues/index.ts offers).
export { assertVenueAccess, runsVenue } from './access.ts'
export { findVenueByKey as resolveVenue } from './repository.ts'
