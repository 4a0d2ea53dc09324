import type { Executor } from '../../lib/db.ts'
import { account } from './accounts.ts'
import { commissionOfPayment, commissionVatOfPayment, venueCommissionRates } from './repository.ts'
import { post } from './service.ts'

// Commission (docs/payments.md, "What a venue sees"): taken on online money (gateway, wallet)
// received for a venue's bookings at the venue's rate, or the platform's default when it has none,
// as its own entry when the payment settles; on desk money only when the venue's rate says
// `desk_percent`, then it is an amount the venue owes the platform (its balance goes down). When
// money is refunded the commission on it is given back in proportion, counted cumulatively per
// payment so that a full refund gives back exactly what was taken.
//
// The rate is VAT-inclusive: of each commission the platform's 13% VAT (commission − commission /
// 1.13, rounded to the paisa) goes to `vat:payable`, owed to IRD, and the rest to
// `commission:platform`. The venue's side is unchanged; it gets a monthly invoice for it
// (payouts/commission-invoices.ts).

/** The VAT in a VAT-inclusive amount (13%): amount − round(amount / 1.13). */
export function vatIncluded(amount: number): number {
  return amount - Math.floor((200 * amount + 113) / 226)
}

export interface CommissionTarget {
  paymentId: number
  venueId: number
  booking: { kind: 'court' | 'indoor'; id: number }
  occurredAt: Date
}

/** Paisa of commission on `amount` at `basisPoints` hundredths of a percent, rounded half up. */
export function commissionOn(amount: number, basisPoints: number): number {
  return Math.floor((amount * basisPoints + 5000) / 10000)
}

/**
 * Takes commission on a payment received for a booking: `online` money at the venue's rate (or the
 * platform default), desk money only at the venue's desk rate. Nothing when the rate is 0.
 */
export async function takeCommission(
  trx: Executor,
  target: CommissionTarget,
  amount: number,
  way: 'online' | 'desk',
  platformDefaultBasisPoints: number,
): Promise<number> {
  const rates = await venueCommissionRates(trx, target.venueId)
  const bp = way === 'online' ? (rates.online ?? platformDefaultBasisPoints) : (rates.desk ?? 0)
  const commission = commissionOn(amount, bp)
  if (commission <= 0) return 0
  const vat = vatIncluded(commission)
  await post(trx, {
    kind: 'commission',
    occurredAt: target.occurredAt,
    description: `Commission ${(bp / 100).toFixed(2)}% on ${way === 'online' ? 'online' : 'desk'} payment`,
    paymentId: target.paymentId,
    booking: target.booking,
    venueId: target.venueId,
    lines: [
      [account.venueBalance(target.venueId), commission],
      [account.commission(), -(commission - vat)],
      ...(vat > 0 ? [[account.vatPayable(), -vat] as [string, number]] : []),
    ],
  })
  return commission
}

/**
 * Gives back the commission on `take` paisa refunded of a payment of `amount` of which
 * `refundedBefore` had already been refunded: its proportional share, cumulatively.
 */
export async function returnCommission(
  trx: Executor,
  target: CommissionTarget,
  payment: { amount: number; refundedBefore: number; take: number },
): Promise<number> {
  const taken = await commissionOfPayment(trx, target.paymentId)
  if (taken <= 0) return 0
  const share = (of: number, refunded: number) => Math.floor((of * refunded) / payment.amount)
  const back = share(taken, payment.refundedBefore + payment.take) - share(taken, payment.refundedBefore)
  if (back <= 0) return 0
  // The VAT in it goes back the same way, cumulatively, so a full refund returns all of it.
  const vatTaken = await commissionVatOfPayment(trx, target.paymentId)
  const vatBack = share(vatTaken, payment.refundedBefore + payment.take) - share(vatTaken, payment.refundedBefore)
  await post(trx, {
    kind: 'commission_refund',
    occurredAt: target.occurredAt,
    description: 'Commission given back on a refund',
    paymentId: target.paymentId,
    booking: target.booking,
    venueId: target.venueId,
    lines: [
      [account.commission(), back - vatBack],
      ...(vatBack > 0 ? [[account.vatPayable(), vatBack] as [string, number]] : []),
      [account.venueBalance(target.venueId), -back],
    ],
  })
  return back
}
