import type { AuthUser } from '../../lib/auth.ts'
import type { AppContext } from '../../lib/context.ts'
import type { Executor } from '../../lib/db.ts'
import { Forbidden, Invalid, Unprocessable } from '../../lib/errors.ts'
import { formatMoney, toPaisa } from '../../lib/money.ts'
import { hasStarted } from './cancellation.ts'
import type { GatewayMethod } from './methods.ts'
import { newPayment } from './payment-records.ts'
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
  method: 'cash'
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
 * What the desk may take for a booking now: its balance due, when it may be paid at all. Never on
 * the staff member's own booking (403, assertNotOwnBooking); 422 on a cancelled or no-show booking,
 * on one already paid, and on `amount` above the balance due.
 */
function assertDeskMayTake(booking: LockedBooking, amount: number, staff: AuthUser): void {
  assertNotOwnBooking(booking, staff)
  if (booking.status === 'cancelled' || booking.status === 'no_show') throw new Unprocessable(NOT_PAYABLE)
  const due = Math.max(booking.total_amount - booking.paid_amount, 0)
  if (due === 0) throw new Unprocessable('This booking is already paid.')
  assertPositiveAmount(amount)
  if (amount > due) {
    throw new Invalid('amount', `The amount must not be greater than the balance due of ${formatMoney(due)}.`)
  }
}

/**
 * Cash taken at the venue: amount ≤ balance_due; a pending booking that becomes fully paid is
 * confirmed (assertDeskMayTake's refusals first).
 */
export async function recordDeskPayment(
  ctx: AppContext,
  trx: Executor,
  booking: LockedBooking,
  input: DeskPayment,
  staff: AuthUser,
) {
  assertDeskMayTake(booking, input.amount, staff)
  const { payment } = await receivePayment(ctx, trx, booking, {
    way: 'desk',
    method: input.method,
    amount: input.amount,
    staffId: staff.id,
  })
  return payment
}

/**
 * Gateway money at the desk (docs/payments.md, "Gateway payments at the desk"): an initiated gateway
 * payment staff start for `amount` ≤ balance_due, recorded by them, that the customer pays from their
 * phone (the QR of its payment_url). Nothing is received until the gateway confirms it through the
 * same verify path as online payments (receivePayment); the booking's hold is not touched. The
 * caller opens it at the gateway after the transaction (payments' startAtGateway).
 */
export async function openDeskGatewayPayment(
  ctx: AppContext,
  trx: Executor,
  booking: LockedBooking,
  input: { amount: number; method: GatewayMethod; returnUrl: string | null },
  staff: AuthUser,
) {
  assertDeskMayTake(booking, input.amount, staff)
  return newPayment(ctx, trx, {
    user_id: booking.user_id,
    payable_type: booking.kind,
    payable_id: booking.id,
    method: input.method,
    amount: input.amount,
    status: 'initiated',
    recorded_by: staff.id,
    return_url: input.returnUrl,
  })
}
