// The payment state machine, beside the booking's (state.ts). Every change of a payment's status is
// one of these events, written by `movePayment` (repository/payments.ts), the only writer of the
// status column after the INSERT (docs/payments.md, "Payment states").

export const PAYMENT_STATUSES = ['initiated', 'completed', 'failed', 'refunded', 'partially_refunded'] as const
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number]

/** What moves a payment from one status to another. */
export const PAYMENT_EVENTS = [
  'complete', // the money arrived: the gateway confirmed it (a wallet or desk payment is born completed)
  'fail', // the gateway said it failed, or refused it at initiate
  'expire', // the gateway link ran out with no final answer: failed, and re-checked later (recheck.ts)
  'late_success', // a failed payment that the gateway confirmed after all (a late callback, a re-check)
  'refund', // part of what is left of it went back; all of it → refunded, else partially_refunded
] as const
export type PaymentEvent = (typeof PAYMENT_EVENTS)[number]

/**
 * The transition table: for each event, the statuses it applies to and the status it leads to
 * (refund: `partially_refunded` until the whole amount is refunded, then `refunded`). Anything not
 * listed is refused. refunded is final; failed comes back only by late_success. An expired payment
 * is stored as `failed` (the contract's statuses): a re-check may still complete it.
 */
export const PAYMENT_TRANSITIONS: Readonly<
  Record<PaymentEvent, { from: readonly PaymentStatus[]; to: readonly PaymentStatus[] }>
> = {
  complete: { from: ['initiated'], to: ['completed'] },
  fail: { from: ['initiated'], to: ['failed'] },
  expire: { from: ['initiated'], to: ['failed'] },
  late_success: { from: ['failed'], to: ['completed'] },
  refund: { from: ['completed', 'partially_refunded'], to: ['partially_refunded', 'refunded'] },
}

/** Whether the table lets `event` move a payment that is `from`. */
export function paymentMayMove(from: string, event: PaymentEvent): boolean {
  return (PAYMENT_TRANSITIONS[event].from as readonly string[]).includes(from)
}

/** The event that completes a payment the gateway confirmed, from its status; null when it is settled already. */
export function completionEvent(status: string): 'complete' | 'late_success' | null {
  if (paymentMayMove(status, 'complete')) return 'complete'
  if (paymentMayMove(status, 'late_success')) return 'late_success'
  return null
}
