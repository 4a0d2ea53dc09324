// What other modules may use of availability: a court's day as the booking rules read it, and the
// quotes (price, or the reason a slot cannot be booked) that bookings charge.

export {
  COURT_UNAVAILABLE,
  type QuoteTime,
  quoteCourtBooking,
  quoteCourtDay,
  quoteIndoorBooking,
} from './quote.ts'
export { loadCourtDay } from './repository.ts'
