// What other modules may use of receipts: issuing an invoice for money received for a booking and a
// credit note for money refunded, each in the caller's transaction, and the CBMS reporting job
// (docs/payments.md, "Receipts and IRD").

export { registerReceiptJobs } from './cbms.ts'
// The platform's commission invoice PDF (payouts' commission invoices), drawn with the same writer.
export { type CommissionInvoicePrint, commissionInvoicePdf } from './commission-pdf.ts'
export { invoiceLanguage } from './language.ts'
export type { ReceiptRow } from './repository.ts'
export { issueCreditNote, issueReceipt, vatSplit } from './service.ts'
