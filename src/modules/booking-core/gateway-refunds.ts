import type { AppContext } from '../../lib/context.ts'
import type { Executor } from '../../lib/db.ts'
import { Conflict, Forbidden, NotFound, Unprocessable } from '../../lib/errors.ts'
import { formatMoney } from '../../lib/money.ts'
import type { Zone } from '../../lib/zone.ts'
import { account, type Line, post, transfer } from '../ledger/index.ts'
import { customerShare } from './customer-share.ts'
import type { BookingKind } from './repository/bookings.ts'
import {
  findGatewayRefund,
  type GatewayRefundRow,
  gatewayReferenceTaken,
  insertGatewayRefund,
  listGatewayRefunds,
  markGatewayRefundDone,
} from './repository/gateway-refunds.ts'

// Gateway money taken at the desk goes back through the gateway (docs/payments.md, "Gateway
// payments at the desk"): never as cash from the drawer, never to a wallet. Refunding it makes a
// gateway refund, due until it is sent back: Khalti's refund API sends a verified Khalti payment's
// at once (the payments feature's job GATEWAY_REFUND_JOB); eSewa's and Fonepay's, and any of a
// payment whose reference staff only typed, the owner or a manager makes in the gateway's merchant
// portal and marks done with the gateway's reference.
//
// Ledger: refunded, the money leaves what the venue is owed (its balance with the platform for a
// verified QR payment; its desk takings for an unverified one) for the venue's gateway refunds due;
// sent back, it leaves those for the gateway's clearing (verified) or the venue's own desk money
// (unverified: the venue's merchant account, outside the platform, paid it).

/** The job that asks a gateway with a refund API (Khalti) to make a due gateway refund. */
export const GATEWAY_REFUND_JOB = 'payments.gateway_refund'

export interface GatewayRefund {
  id: number
  booking_type: string
  booking_id: number
  payment_id: number
  method: string
  user_id: number | null
  amount: string
  reason: string | null
  status: 'due' | 'done'
  /** Whose merchant account sends it back: the platform's (a desk QR payment) or the venue's own (typed). */
  refund_from: 'platform' | 'venue'
  gateway_reference: string | null
  last_error: string | null
  done_by: number | null
  done_at: string | null
  created_at: string | null
}

export function gatewayRefundResource(row: GatewayRefundRow, zone: Zone): GatewayRefund {
  return {
    id: Number(row.id),
    booking_type: row.booking_type,
    booking_id: Number(row.booking_id),
    payment_id: Number(row.payment_id),
    method: row.method,
    user_id: row.user_id === null ? null : Number(row.user_id),
    amount: formatMoney(row.amount),
    reason: row.reason,
    status: row.status === 'done' ? 'done' : 'due',
    refund_from: row.unverified ? 'venue' : 'platform',
    gateway_reference: row.gateway_reference,
    last_error: row.last_error,
    done_by: row.done_by === null ? null : Number(row.done_by),
    done_at: zone.format(row.done_at),
    created_at: zone.format(row.created_at),
  }
}

export function gatewayRefundsOf(db: Executor, venueId: number, status: 'due' | 'done' | 'all') {
  return listGatewayRefunds(db, venueId, status)
}

/** A payment as a gateway refund reads it. */
export interface CounterGatewayPayment {
  id: number
  method: string
  unverified: boolean
}

/** Whether a payment is gateway money staff took at the desk (a QR payment, or a typed reference). */
export function isCounterGateway(p: { recorded_by: number | null; method: string }): boolean {
  return p.recorded_by !== null && p.method !== 'cash'
}

/**
 * `amount` paisa of a counter gateway payment refunded: a gateway refund due at the venue, and the
 * money moved from what the venue is owed to its gateway refunds due. Runs in the caller's
 * transaction; a verified Khalti payment's is then sent by the refund job.
 */
export async function refundAtGateway(
  ctx: AppContext,
  trx: Executor,
  kind: BookingKind,
  booking: { id: number; venue_id: number; user_id: number | null },
  payment: CounterGatewayPayment & { amount: number; refunded_amount: number; paid_amount: number | null },
  take: number,
  reason: string,
): Promise<void> {
  const now = ctx.clock.now()
  // What the customer paid of it goes back; a gateway promotion's part stays with the promotion.
  const amount = customerShare(payment, take)
  const from = payment.unverified ? account.venueDeskSales(booking.venue_id) : account.venueBalance(booking.venue_id)
  const promotion: Line[] = take > amount ? [[account.gatewayPromotion(payment.method), amount - take]] : []
  const entry = { kind: 'gateway_refund' as const, occurredAt: now, paymentId: payment.id }
  const about = { booking: { kind, id: booking.id }, venueId: booking.venue_id, userId: booking.user_id }
  if (amount === 0) {
    // Nothing the customer paid is left to return: the venue's part goes back to the promotion.
    await post(trx, { ...entry, ...about, description: reason, lines: [[from, take], ...promotion] })
    return
  }
  const row = await insertGatewayRefund(trx, {
    venue_id: booking.venue_id,
    booking_type: kind,
    booking_id: booking.id,
    payment_id: payment.id,
    method: payment.method,
    user_id: booking.user_id,
    amount,
    reason,
    created_at: now,
  })
  await post(trx, {
    ...entry,
    ...about,
    description: `${reason} (gateway refund ${row.id} due at ${payment.method})`,
    lines: [[from, take], [account.gatewayRefundDue(booking.venue_id), -amount], ...promotion],
  })
  if (!payment.unverified && payment.method === 'gateway_2') {
    await ctx.jobs.enqueue(GATEWAY_REFUND_JOB, { id: Number(row.id) }, { uniqueKey: `gateway-refund:${row.id}` }, trx)
  }
}

export const REFUND_REFERENCE_TAKEN = (reference: string) =>
  `The gateway reference ${reference} is already recorded for another refund.`

export const PLATFORM_REFUNDS =
  "The platform's gateway took this money: the platform sends it back and marks it done (super_admin)."

/**
 * A due gateway refund sent back (by the gateway's refund API; in the gateway's portal by the
 * platform for a desk QR payment, whose money the platform's merchant account took, or by the venue
 * for a payment typed before those, which went to the venue's own): marked done once with the
 * gateway's reference, and the ledger moves the money out. 404 for another venue's, 403 when a venue
 * user marks one the platform sends, 422 when already done, 409 when the reference is already
 * another refund's.
 */
export async function completeGatewayRefund(
  ctx: AppContext,
  trx: Executor,
  venueId: number,
  id: number,
  done: { by: number | null; reference: string; platform: boolean },
): Promise<GatewayRefundRow> {
  const found = await findGatewayRefund(trx, venueId, id)
  if (!found) throw new NotFound()
  if (!found.unverified && !done.platform) throw new Forbidden(PLATFORM_REFUNDS)
  if (found.status === 'done') throw new Unprocessable('This gateway refund is already done.')
  const reference = done.reference.trim()
  if (await gatewayReferenceTaken(trx, found.method, reference)) throw new Conflict(REFUND_REFERENCE_TAKEN(reference))
  const now = ctx.clock.now()
  const marked = await markGatewayRefundDone(trx, venueId, id, { by: done.by, at: now, reference }).catch(
    (err: unknown) => {
      // The same reference marked on two refunds at once: the unique index refuses the second.
      if ((err as { code?: string })?.code === '23505') throw new Conflict(REFUND_REFERENCE_TAKEN(reference))
      throw err
    },
  )
  if (!marked) throw new Unprocessable('This gateway refund is already done.')
  const row = { ...marked, unverified: found.unverified }
  const to = row.unverified ? account.venueDesk(venueId) : account.gatewayClearing(row.method)
  await post(trx, {
    kind: 'gateway_refund_paid',
    occurredAt: now,
    description: `Gateway refund ${row.id} sent back through ${row.method} (${reference})`,
    paymentId: row.payment_id,
    booking: { kind: row.booking_type as BookingKind, id: Number(row.booking_id) },
    venueId,
    userId: row.user_id,
    createdBy: done.by,
    lines: transfer(account.gatewayRefundDue(venueId), to, row.amount),
  })
  return row
}
