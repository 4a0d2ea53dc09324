import type { Executor } from '../../lib/db.ts'
import { account } from './accounts.ts'
import { commissionOfPayment, venueCommissionRates } from './repository.ts'
import { post } from './service.ts'

// Commission (docs/payments.md, "What a venue sees"): taken on online money (gateway, wallet)
// received for a venue's bookings at the venue's rate, or the platform's default when it has none,
// as its own entry when the payment settles; on desk money only when the venue's rate says
// `desk_percent`, then it is an amount the venue owes the platform (its balance goes down). When
// money is refunded the commission on it is given back in proportion, counted cumulatively per
// payment so that a full refund gives back exactly what was taken.

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
  await post(trx, {
    kind: 'commission',
    occurredAt: target.occurredAt,
    description: `Commission ${(bp / 100).toFixed(2)}% on ${way === 'online' ? 'online' : 'desk'} payment`,
    paymentId: target.paymentId,
    booking: target.booking,
    venueId: target.venueId,
    lines: [
      [account.venueBalance(target.venueId), commission],
      [account.commission(), -commission],
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
  const share = (refunded: number) => Math.floor((taken * refunded) / payment.amount)
  const back = share(payment.refundedBefore + payment.take) - share(payment.refundedBefore)
  if (back <= 0) return 0
  await post(trx, {
    kind: 'commission_refund',
    occurredAt: target.occurredAt,
    description: 'Commission given back on a refund',
    paymentId: target.paymentId,
    booking: target.booking,
    venueId: target.venueId,
    lines: [
      [account.commission(), back],
      [account.venueBalance(target.venueId), -back],
    ],
  })
  return back
}
