// What of a refund goes back to the customer when a gateway said they paid less than the payment's
// amount (Fonepay's P_AMT after a promotion): the online refund to the wallet and the gateway refund
// of desk QR money both return only that share.

/** A payment as the customer's share of a refund reads it. */
export interface SharedPayment {
  amount: number
  refunded_amount: number
  paid_amount: number | null
}

/**
 * Of `take` paisa refunded of payment `p`, what goes back to the customer: all of it, unless the
 * gateway said the customer paid less than the payment's amount (Fonepay's P_AMT after a promotion);
 * then their share, counted cumulatively so that a full refund returns exactly what they paid.
 */
export function customerShare(p: SharedPayment, take: number): number {
  const paid = p.paid_amount ?? p.amount
  if (paid >= p.amount) return take
  const before = Math.floor((p.refunded_amount * paid) / p.amount)
  const after = Math.floor(((p.refunded_amount + take) * paid) / p.amount)
  return after - before
}
