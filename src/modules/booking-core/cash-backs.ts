import type { AppContext } from '../../lib/context.ts'
import type { Executor } from '../../lib/db.ts'
import { NotFound, Unprocessable } from '../../lib/errors.ts'
import { formatMoney } from '../../lib/money.ts'
import { account, post, transfer } from '../ledger/index.ts'
import { notify } from '../notifications/index.ts'
import { type BookingKind, lockBooking } from './repository/bookings.ts'
import {
  type CashBackDetailRow,
  type CashBackFilter,
  findCashBack,
  findCashBackDetail,
  listCashBacks,
  markCashBackApproved,
  markCashBackPaid,
  venueOwnerOf,
} from './repository/cash-backs.ts'

// Cash-backs (docs/payments.md, "Cash-backs"): desk money refunded is handed back at the venue's
// desk, never credited to the platform wallet. Each refund of it is due until staff record paying it
// out; then the money leaves the drawer (ledger: cash-back due → desk). The drawer pays only what it
// received: a cash-back is payable only when its payment was cash and the booking's cash taken at the
// desk, less its cash-backs already handed over, covers it. Above CASH_BACK_APPROVAL_AMOUNT an owner
// or manager approves it first (paying it themselves approves it). The venue's owner is told of each
// cash-back when it falls due and when it is paid out.

export const ALREADY_PAID = 'This cash-back has already been paid.'
export const ALREADY_APPROVED = 'This cash-back has already been approved.'
export const NEEDS_NO_APPROVAL = 'This cash-back needs no approval.'
export const NEEDS_APPROVAL = "This cash-back needs an owner's or manager's approval."
export const MORE_THAN_CASH = 'This cash-back is more than the cash taken for this booking.'
export const notFromDrawer = (method: string) =>
  `This cash-back refunds a ${method} payment, not cash: it is never paid out from the drawer.`

/** Who acts on a cash-back and their role at the venue ('admin' for super_admin). */
export interface CashBackActor {
  id: number
  role: 'owner' | 'manager' | 'staff' | 'admin'
}

const manages = (actor: CashBackActor) => actor.role !== 'staff'

export interface CashBack {
  id: number
  booking_type: string
  booking_id: number
  booking_number: string | null
  payment_id: number
  payment_method: string
  user_id: number | null
  amount: string
  reason: string | null
  /** moved: a cash-back of a typed gateway payment, moved to a gateway refund (migration 032). */
  status: 'due' | 'paid' | 'moved'
  needs_approval: boolean
  covered_by_drawer: boolean
  taken_by: number | null
  taken_by_name: string | null
  cancelled_by: number | null
  cancelled_by_name: string | null
  approved_by: number | null
  approved_by_name: string | null
  approved_at: string | null
  paid_by: number | null
  paid_by_name: string | null
  paid_at: string | null
  created_at: string | null
}

/**
 * Whether a cash-back needs an owner's or manager's approval before staff pay it: its booking's
 * cash-backs together are above the approval amount (a refund split over several cash payments of
 * one booking is judged as a whole, so splitting never avoids the approval).
 */
const needsApproval = (ctx: AppContext, c: { booking_cash_backs: number }) =>
  c.booking_cash_backs > ctx.config.cashBackApprovalAmount

/** Why the drawer cannot pay a due cash-back now, or null when it can (approval aside). */
function drawerRefusal(c: CashBackDetailRow): string | null {
  if (c.payment_method !== 'cash') return notFromDrawer(c.payment_method)
  if (c.booking_cash - c.booking_paid_out < c.amount) return MORE_THAN_CASH
  return null
}

export function cashBackResource(ctx: AppContext, row: CashBackDetailRow): CashBack {
  const { zone } = ctx
  const paid = row.status === 'paid'
  return {
    id: row.id,
    booking_type: row.booking_type,
    booking_id: row.booking_id,
    booking_number: row.booking_number,
    payment_id: row.payment_id,
    payment_method: row.payment_method,
    user_id: row.user_id,
    amount: formatMoney(row.amount),
    reason: row.reason,
    status: paid ? 'paid' : row.status === 'moved' ? 'moved' : 'due',
    needs_approval: needsApproval(ctx, row),
    covered_by_drawer: paid || drawerRefusal(row) === null,
    taken_by: row.taken_by,
    taken_by_name: row.taken_by_name,
    cancelled_by: row.cancelled_by,
    cancelled_by_name: row.cancelled_by_name,
    approved_by: row.approved_by,
    approved_by_name: row.approved_by_name,
    approved_at: zone.format(row.approved_at),
    paid_by: row.paid_by,
    paid_by_name: row.paid_by_name,
    paid_at: zone.format(row.paid_at),
    created_at: zone.format(row.created_at),
  }
}

export function cashBacksOf(ctx: AppContext, venueId: number, status: CashBackFilter) {
  return listCashBacks(ctx.db, venueId, status, ctx.config.cashBackApprovalAmount)
}

/**
 * Staff hand a due cash-back over: marked paid once, and the drawer's money goes down by it. The
 * booking's row lock orders two pays of the same booking's cash-backs (and a refund, which takes it
 * first too), so two cannot both spend the same cash. 422 when already paid, when its payment was
 * not cash, when the booking's cash left in the drawer does not cover it, or when it is above the
 * approval amount and neither approved nor paid by an owner or manager (whose paying approves it).
 */
export async function payCashBack(
  ctx: AppContext,
  trx: Executor,
  venueId: number,
  id: number,
  actor: CashBackActor,
): Promise<CashBackDetailRow> {
  const found = await findCashBack(trx, venueId, id)
  if (!found) throw new NotFound()
  await lockBooking(trx, found.booking_type as BookingKind, found.booking_id)
  const c = (await findCashBackDetail(trx, venueId, id))!
  if (c.status === 'paid') throw new Unprocessable(ALREADY_PAID)
  const refusal = drawerRefusal(c)
  if (refusal) throw new Unprocessable(refusal)
  const needs = needsApproval(ctx, c)
  if (needs && c.approved_at === null && !manages(actor)) throw new Unprocessable(NEEDS_APPROVAL)
  const now = ctx.clock.now()
  const paid = await markCashBackPaid(trx, venueId, id, actor.id, now, needs && manages(actor))
  if (!paid) throw new Unprocessable(ALREADY_PAID)
  await post(trx, {
    kind: 'cash_back',
    occurredAt: now,
    description: `Cash-back ${paid.id} paid at the desk`,
    paymentId: paid.payment_id,
    booking: { kind: paid.booking_type as BookingKind, id: paid.booking_id },
    venueId,
    userId: paid.user_id,
    createdBy: actor.id,
    lines: transfer(account.cashBackDue(venueId), account.venueDesk(venueId), paid.amount),
  })
  const after = (await findCashBackDetail(trx, venueId, id))!
  await tellOwner(ctx, trx, after, 'CashBackPaid')
  return after
}

/**
 * An owner or manager (the route checks the role) approves a due cash-back above the approval
 * amount, once: 422 when it is paid, already approved, not above the amount, or not payable from
 * the drawer at all (its payment was not cash).
 */
export async function approveCashBack(
  ctx: AppContext,
  trx: Executor,
  venueId: number,
  id: number,
  approverId: number,
): Promise<CashBackDetailRow> {
  const c = await findCashBackDetail(trx, venueId, id)
  if (!c) throw new NotFound()
  if (c.status === 'paid') throw new Unprocessable(ALREADY_PAID)
  if (c.approved_at !== null) throw new Unprocessable(ALREADY_APPROVED)
  if (c.payment_method !== 'cash') throw new Unprocessable(notFromDrawer(c.payment_method))
  if (!needsApproval(ctx, c)) throw new Unprocessable(NEEDS_NO_APPROVAL)
  const approved = await markCashBackApproved(trx, venueId, id, approverId, ctx.clock.now())
  if (!approved) {
    // Another approval or pay won the row meanwhile.
    const now = (await findCashBack(trx, venueId, id))!
    throw new Unprocessable(now.status === 'paid' ? ALREADY_PAID : ALREADY_APPROVED)
  }
  return (await findCashBackDetail(trx, venueId, id))!
}

/** A cash-back just written (refundAtDesk): the venue's owner is told it is due. */
export async function cashBackFellDue(ctx: AppContext, trx: Executor, venueId: number, id: number) {
  const c = await findCashBackDetail(trx, venueId, id)
  if (c) await tellOwner(ctx, trx, c, 'CashBackDue')
}

/** The venue's owner is told of each cash-back: when it falls due and when it is handed over. */
async function tellOwner(ctx: AppContext, trx: Executor, c: CashBackDetailRow, type: 'CashBackDue' | 'CashBackPaid') {
  const venue = await venueOwnerOf(trx, c.venue_id)
  if (!venue?.owner_id) return
  const booking = c.booking_number ?? `#${c.booking_id}`
  const amount = `Rs ${formatMoney(c.amount)}`
  const taken = c.taken_by_name ? ` taken by ${c.taken_by_name}` : ''
  const message =
    type === 'CashBackDue'
      ? `A cash-back of ${amount} for booking ${booking} is due at the desk of ${venue.name} (a ${c.payment_method} payment${taken}${c.cancelled_by_name ? `, refunded by ${c.cancelled_by_name}` : ''}).${needsApproval(ctx, c) ? ' It needs your or a manager’s approval before staff pay it out.' : ''}`
      : `A cash-back of ${amount} for booking ${booking} was paid out at the desk of ${venue.name}${c.paid_by_name ? ` by ${c.paid_by_name}` : ''}.`
  await notify(
    ctx,
    venue.owner_id,
    type,
    {
      message,
      cash_back_id: c.id,
      venue_id: c.venue_id,
      booking_type: c.booking_type,
      booking_id: c.booking_id,
      booking_number: c.booking_number,
      payment_id: c.payment_id,
      payment_method: c.payment_method,
      amount: formatMoney(c.amount),
      taken_by: c.taken_by,
      cancelled_by: c.cancelled_by,
      approved_by: c.approved_by,
      paid_by: c.paid_by,
    },
    trx,
  )
}
