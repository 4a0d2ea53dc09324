// Payouts: commission rates, statements, payouts and payout details (routes only; other modules
// need nothing from here).
export { venueBalance } from './service.ts'
