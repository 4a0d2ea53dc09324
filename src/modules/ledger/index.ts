// What other modules use of the ledger: posting an entry, the chart of accounts, and balances.
// The ledger imports no module of ours (docs/architecture.md, "Booking core and money direction").
export { account, kindOf, normalBalance } from './accounts.ts'
export { checkLedger, trialBalance } from './check.ts'
export { type CommissionTarget, commissionOn, returnCommission, takeCommission } from './commission.ts'
export { syncPlatformDiscount } from './discounts.ts'
export { accountSum, lockVenueBalance } from './repository.ts'
export { type Entry, type EntryKind, type Line, post, transfer } from './service.ts'
