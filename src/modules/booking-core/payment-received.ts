import type { AppContext } from '../../lib/context.ts'
import type { Executor } from '../../lib/db.ts'
import { takeCommission } from '../ledger/index.ts'
import { issueReceipt } from '../receipts/index.ts'
import type { BookingKind } from './payable.ts'

/**
 * What follows every payment for a booking once its money is in (gateway, wallet or desk), in the
 * payment's transaction: its numbered receipt, then the platform's commission on it (online money
 * at the venue's rate, desk money only at its desk rate). The one place that says so; the callers
 * write the payment's own ledger entry first.
 */
export async function paymentReceived(
  ctx: AppContext,
  trx: Executor,
  payment: { id: number },
  booking: { kind: BookingKind; id: number; venue_id: number },
  amount: number,
  way: 'online' | 'desk',
) {
  await issueReceipt(ctx, trx, payment.id)
  await takeCommission(
    trx,
    {
      paymentId: payment.id,
      venueId: booking.venue_id,
      booking: { kind: booking.kind, id: booking.id },
      occurredAt: ctx.clock.now(),
    },
    amount,
    way,
    ctx.config.platformCommissionBasisPoints,
  )
}
