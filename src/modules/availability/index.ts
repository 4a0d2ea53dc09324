// What other modules may use of availability: a court's or game's day as the booking rules read it, and the
// quotes (price, or the reason a slot cannot be booked) that bookings charge; the slot grid of
// every court and game of a venue for the staff board (desk).

export { COURT_UNAVAILABLE, type QuoteTime, quoteBooking, quoteDay } from './quote.ts'
export {
  type Day,
  type DayKind,
  loadDay,
  loadDays,
  loadLiveDaysOfVenues,
  loadVenueDays,
  type TakenRange,
} from './repository.ts'
export { type DaySetup, daySlots, priceRange, type Slot } from './slots.ts'
