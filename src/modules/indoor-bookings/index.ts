// What other modules may use of indoor game bookings: nothing yet. What both booking kinds share lives in
// booking-core (src/modules/booking-core/index.ts); the composition root (src/modules/index.ts)
// registers this module's routes directly.
export {}
