// Payouts: commission rates, statements, payouts, payout details and the platform's commission
// invoices (routes, and the invoices' job for the composition root).
export { issueLastMonthsCommissionInvoices } from './commission-invoices.ts'
export { venueBalance } from './service.ts'
