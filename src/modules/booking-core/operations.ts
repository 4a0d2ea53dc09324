import type { AuthUser } from '../../lib/auth.ts'
import type { AppContext } from '../../lib/context.ts'
import type { Executor } from '../../lib/db.ts'
import { Forbidden, Invalid, Unprocessable } from '../../lib/errors.ts'
import { formatMoney, toPaisa } from '../../lib/money.ts'
import { hasStarted } from './cancellation.ts'
import type { DeskPaymentMethod } from './methods.ts'
import { receivePayment } from './receive.ts'
import { insertCharge, type LockedBooking } from './repository/bookings.ts'
import { type StaffTarget, staffEvent, staffTransitionError } from './state.ts'
import { transition } from './transitions.ts'

// The desk's changes to a booking, for court and indoor-game bookings alike: staff status changes
// (through transition), extra charges and payments recorded at the desk (through receivePayment). Each runs inside the
// caller's transaction on a booking it has locked.

export const NOT_PAYABLE = 'This booking cannot be paid.'

/**
 * A staff status change (PATCH …/status): only the state machine's transitions, no-show only after
 * the start, else 422 on status. Cancelling is the venue's cancel (refund of what is left); `actor`
 * (the staff member) is kept on any cash-back it makes.
 */
export async function changeStatus(
  ctx: AppContext,
  trx: Executor,
  booking: LockedBooking,
  target: StaffTarget,
  reason: string | null,
  actor: number | null = null,
): Promise<void> {
  const error = staffTransitionError(booking.status, target, hasStarted(booking, ctx.clock.now(), ctx.zone))
  if (error) throw new Invalid('status', error)
  await transition(ctx, trx, booking, staffEvent(target), {
    reason: reason ?? 'Cancelled by the venue',
    by: 'venue',
    actor,
  })
}

/** The one "at least 0.01" check of a money amount in paisa (charges, desk payments, refunds). */
export function assertPositiveAmount(amount: number, field = 'amount'): void {
  if (amount <= 0) throw new Invalid(field, `The ${field} field must be at least 0.01.`)
}

/**
 * A charge's or desk payment's amount from the body (a number or a decimal string, already checked
 * by `MoneyInput`: at most two decimals, at most 10,000,000.00) in paisa, at least 0.01 (422 on
 * `amount` otherwise). Both booking kinds read it here; a charge is further bounded by
 * MAX_CHARGE_AMOUNT (addCharge), a payment by the balance due (recordDeskPayment).
 */
export function deskAmount(raw: number | string): number {
  const paisa = toPaisa(raw)
  assertPositiveAmount(paisa)
  return paisa
}

/**
 * An extra session charge: raises extras_total, total_amount and so balance_due. At most
 * MAX_CHARGE_AMOUNT (config `maxChargeAmount`, default 100000.00) each, else 422 on `amount`.
 */
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
  if (input.amount > ctx.config.maxChargeAmount) {
    throw new Invalid('amount', `The amount field must not be greater than ${formatMoney(ctx.config.maxChargeAmount)}.`)
  }
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

/** The 403 message when desk staff try to record a payment on their own booking. */
export const OWN_BOOKING_PAYMENT = 'You may not record a payment on your own booking.'

/**
 * Staff (owner, manager, staff, super_admin alike) never record a desk payment on a booking of their
 * own (its customer account is theirs): 403. A desk payment is a claim that money was taken; on one's
 * own booking nobody else is there to confirm it. Bookings without an account (offline, walk-in)
 * have no owner to match.
 */
export function assertNotOwnBooking(booking: { user_id: number | null }, staff: { id: number }): void {
  if (booking.user_id !== null && booking.user_id === staff.id) throw new Forbidden(OWN_BOOKING_PAYMENT)
}

/**
 * A payment taken at the venue (cash, or a gateway payment made outside the app, with its
 * reference): amount ≤ balance_due (422 on `amount` above it); a pending booking that becomes fully
 * paid is confirmed. Never on the recorder's own booking (403, assertNotOwnBooking).
 */
export async function recordDeskPayment(
  ctx: AppContext,
  trx: Executor,
  booking: LockedBooking,
  input: DeskPayment,
  staff: AuthUser,
) {
  assertNotOwnBooking(booking, staff)
  if (booking.status === 'cancelled' || booking.status === 'no_show') throw new Unprocessable(NOT_PAYABLE)
  const due = Math.max(booking.total_amount - booking.paid_amount, 0)
  if (due === 0) throw new Unprocessable('This booking is already paid.')
  assertPositiveAmount(input.amount)
  if (input.amount > due) {
    throw new Invalid('amount', `The amount must not be greater than the balance due of ${formatMoney(due)}.`)
  }
  const { payment } = await receivePayment(ctx, trx, booking, {
    way: 'desk',
    method: input.method,
    amount: input.amount,
    reference: input.reference ?? null,
    staffId: staff.id,
  })
  return payment
}
