// What other modules use of the ledger: posting an entry, the chart of accounts, the classification
// of entry kinds (kinds.ts), and balances.
// The ledger imports no module of ours (docs/architecture.md, "Booking core and money direction").
export { account, kindOf, normalBalance } from './accounts.ts'
export { checkLedger, trialBalance } from './check.ts'
export { type CommissionTarget, commissionOn, returnCommission, takeCommission } from './commission.ts'
export { syncPlatformDiscount } from './discounts.ts'
export {
  BOOKING_MONEY_KINDS,
  classOf,
  ENTRY_KINDS,
  type EntryClass,
  type EntryKind,
  entryKinds,
  kindsOf,
  NOT_REVENUE_KINDS,
  REFUND_KINDS,
  type StatementBucket,
  statementBucket,
} from './kinds.ts'
export { accountSum, lockVenueBalance } from './repository.ts'
export { type Entry, type Line, post, transfer } from './service.ts'
