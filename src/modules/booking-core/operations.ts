import type { AuthUser } from '../../lib/auth.ts'
import type { AppContext } from '../../lib/context.ts'
import type { Executor } from '../../lib/db.ts'
import { Invalid, Unprocessable } from '../../lib/errors.ts'
import { formatMoney, toPaisa } from '../../lib/money.ts'
import { emitPaymentEvent } from '../webhooks/index.ts'
import { hasStarted } from './cancellation.ts'
import type { DeskPaymentMethod } from './methods.ts'
import { recordBookingPayment } from './payable.ts'
import { insertCharge, type LockedBooking } from './repository/bookings.ts'
import { insertPayment, newReference } from './repository/payments.ts'
import { type StaffTarget, staffEvent, staffTransitionError } from './state.ts'
import { transition } from './transitions.ts'

// The desk's changes to a booking, for court and indoor-game bookings alike: staff status changes
// (through transition), extra charges and payments recorded at the desk. Each runs inside the
// caller's transaction on a booking it has locked.

export const NOT_PAYABLE = 'This booking cannot be paid.'

/**
 * A staff status change (PATCH …/status): only the state machine's transitions, no-show only after
 * the start, else 422 on status. Cancelling is the venue's cancel (refund of what is left).
 */
export async function changeStatus(
  ctx: AppContext,
  trx: Executor,
  booking: LockedBooking,
  target: StaffTarget,
  reason: string | null,
): Promise<void> {
  const error = staffTransitionError(booking.status, target, hasStarted(booking, ctx.clock.now(), ctx.zone))
  if (error) throw new Invalid('status', error)
  await transition(ctx, trx, booking, staffEvent(target), { reason: reason ?? 'Cancelled by the venue', by: 'venue' })
}

/** The one "at least 0.01" check of a money amount in paisa (charges, desk payments, refunds). */
export function assertPositiveAmount(amount: number, field = 'amount'): void {
  if (amount <= 0) throw new Invalid(field, `The ${field} field must be at least 0.01.`)
}

/** The largest amount one charge or desk payment may carry: Rs 10,000,000.00. */
const MAX_DESK_AMOUNT = 1_000_000_000

/**
 * A charge's or desk payment's amount from the body (a number or a decimal string) in paisa: at most
 * two decimals, at least 0.01, at most 10,000,000.00; 422 on `amount` otherwise. Both booking kinds
 * read it here.
 */
export function deskAmount(raw: number | string): number {
  const text = typeof raw === 'number' ? String(raw) : raw.trim()
  if (!/^\d+(\.\d{1,2})?$/.test(text)) {
    throw new Invalid('amount', 'The amount field must be a number with at most 2 decimal places.')
  }
  const paisa = toPaisa(text)
  assertPositiveAmount(paisa)
  if (paisa > MAX_DESK_AMOUNT) throw new Invalid('amount', 'The amount field must not be greater than 10000000.00.')
  return paisa
}

/** An extra session charge: raises extras_total, total_amount and so balance_due. */
export async function addCharge(
  ctx: AppContext,
  trx: Executor,
  booking: LockedBooking,
  input: { description: string; amount: number },
  staff: AuthUser,
): Promise<void> {
  if (booking.status === 'cancelled' || booking.status === 'no_show') {
    throw new Unprocessable(`A ${booking.status.replace('_', '-')} booking cannot take charges.`)
  }
  assertPositiveAmount(input.amount)
  await insertCharge(
    trx,
    booking.kind,
    booking.id,
    { description: input.description, amount: input.amount, createdBy: staff.id },
    ctx.clock.now(),
  )
}

export interface DeskPayment {
  amount: number
  method: DeskPaymentMethod
  reference?: string | null
}

/**
 * A payment taken at the venue (cash, or a gateway payment made outside the app, with its
 * reference): amount ≤ balance_due; a pending booking that becomes fully paid is confirmed.
 */
export async function recordDeskPayment(
  ctx: AppContext,
  trx: Executor,
  booking: LockedBooking,
  input: DeskPayment,
  staff: AuthUser,
) {
  if (booking.status === 'cancelled' || booking.status === 'no_show') throw new Unprocessable(NOT_PAYABLE)
  const due = Math.max(booking.total_amount - booking.paid_amount, 0)
  if (due === 0) throw new Unprocessable('This booking is already paid.')
  assertPositiveAmount(input.amount)
  if (input.amount > due) {
    throw new Invalid('amount', `The amount must not be greater than the balance due of ${formatMoney(due)}.`)
  }
  const now = ctx.clock.now()
  const payment = await insertPayment(trx, {
    user_id: booking.user_id,
    payable_type: booking.kind,
    payable_id: booking.id,
    method: input.method,
    amount: input.amount,
    status: 'completed',
    reference: newReference(now),
    gateway_transaction_id: input.reference ?? null,
    recorded_by: staff.id,
    completed_at: now,
  })
  await emitPaymentEvent(ctx, trx, payment.id, 'completed')
  await recordBookingPayment(ctx, trx, booking.kind, booking.id, input.amount)
  return payment
}
