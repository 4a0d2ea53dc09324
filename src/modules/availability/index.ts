// What other modules may use of availability (the availability owner keeps the full list).
export { COURT_UNAVAILABLE, quoteCourtDay, quoteIndoorBooking } from './quote.ts'
export { loadCourtDay } from './repository.ts'
