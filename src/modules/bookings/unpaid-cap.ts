import type { AppContext } from '../../lib/context.ts'
import type { Executor } from '../../lib/db.ts'
import { assertMayHoldUnpaid, type Booker, capsApply } from '../booking-core/index.ts'
import type { PreparedBooking } from './prepare.ts'

// The unpaid-bookings cap on court bookings and series (booking-core/unpaid-caps.ts; docs/bookings.md,
// "Unpaid bookings and series"): which field the 422 names, and when a series is counted.

const field = (paymentMethod: string | null | undefined) => (paymentMethod ? 'payment_method' : 'court_id')

/** The field a court booking's cap 422 names. */
export const unpaidCapField = (p: PreparedBooking) => field(p.input.payment_method)

/** A customer's own court booking, inside its transaction before the INSERT: 422 at the cap. */
export function assertUnpaidCap(ctx: AppContext, trx: Executor, p: PreparedBooking): Promise<void> {
  return assertMayHoldUnpaid(ctx, trx, p.booker, { field: unpaidCapField(p) })
}

/**
 * A customer's own series with something to pay, inside its transaction before the first INSERT:
 * 422 at MAX_ACTIVE_SERIES or at MAX_UNPAID_BOOKINGS (the new series would count as one more).
 */
export async function assertSeriesCap(
  ctx: AppContext,
  trx: Executor,
  booker: Booker,
  weeks: readonly (PreparedBooking | undefined)[],
  paymentMethod: string | null | undefined,
): Promise<void> {
  if (!capsApply(booker) || !weeks.some((p) => p && p.values.total_amount > 0)) return
  await assertMayHoldUnpaid(ctx, trx, booker, { field: field(paymentMethod), series: true })
}
