// What other modules may use of receipts: issuing a receipt for money received for a booking and a
// credit note for money refunded, each in the caller's transaction (docs/payments.md, "Receipts and VAT").

export type { ReceiptRow } from './repository.ts'
export { issueCreditNote, issueReceipt, vatSplit } from './service.ts'
