// What other modules may use of webhooks: the outbox calls that the code changing a booking or a
// payment makes inside its transaction (docs/webhooks.md, "Events").
export { emitBookingEvent, emitPaymentEvent, hasSubscribers } from './emit.ts'
