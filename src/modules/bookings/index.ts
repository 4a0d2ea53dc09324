// What other modules may use of court bookings: preparing and inserting a court booking in the
// caller's transaction (the waitlist makes its offers through the same path as any booking).
export { insertPreparedBooking } from './insert.ts'
export { type NewBooking, prepareCourtBooking } from './prepare.ts'
