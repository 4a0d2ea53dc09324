// What other modules may use of courts: the Court resource embedded in bookings and the slot
// length schema shared with indoor games.

export { loadCourtResources } from './queries.ts'
export { CourtSchema } from './resource.ts'
export { SlotMinutes } from './schemas.ts'
