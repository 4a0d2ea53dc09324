// What other modules may use of the waitlist: the offer of a freed slot, which booking-core runs as
// its slotFreed step (wired by src/modules/index.ts).
export { offerFreedSlot } from './offer.ts'
