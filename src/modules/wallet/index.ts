// What other modules may use of the wallet: the ledger steps a payment or a refund takes, and the
// top-up rows payments keeps (wallet imports no module of ours: docs/architecture.md,
// "Booking core and money direction").
export { attachTopupPayment, insertPendingTopup } from './repository.ts'
export { transactionResource } from './resource.ts'
export { WalletTransactionSchema, WalletTransactionStatusEnum } from './schemas.ts'
export { completeTopup, creditWallet, debitWallet, failTopup } from './service.ts'
