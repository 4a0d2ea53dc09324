// What other modules may use of the waitlist: the steps of an offer, which the bookings module
// makes in the transaction that freed a slot (src/modules/bookings/create.ts, offerFreedSlot), and
// the waiting counts of the venue booking list.
export {
  claimEntry,
  closeOffer,
  type Slot,
  setOfferBooking,
  waitingCounts,
  waitingFor,
} from './repository.ts'
