// What other modules may use of receipts: issuing an invoice for money received for a booking and a
// credit note for money refunded, each in the caller's transaction, and the CBMS reporting job
// (docs/payments.md, "Receipts and IRD").

export { registerReceiptJobs } from './cbms.ts'
export type { ReceiptRow } from './repository.ts'
export { issueCreditNote, issueReceipt, vatSplit } from './service.ts'
