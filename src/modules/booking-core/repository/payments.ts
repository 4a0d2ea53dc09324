import { randomBytes } from 'node:crypto'
import type { Insertable, Selectable, Updateable } from 'kysely'
import type { Payments } from '../../../db/types.ts'
import type { Executor } from '../../../lib/db.ts'
import { completionEvent, PAYMENT_TRANSITIONS, type PaymentEvent } from '../payment-state.ts'
import type { BookingKind } from './bookings.ts'

// Payment rows are written here, and only here: both sides write them (receive.ts and the refunds
// for bookings; payments for gateway payments, top-ups and their failures). Payments depends on this
// module, never the reverse (docs/architecture.md, "Booking core and money direction", "Payment state").

export type PaymentRow = Selectable<Payments>

/** A payment's id at the gateway: short (Fonepay PRN ≤ 25), unique, unguessable. */
export function newReference(now: Date): string {
  return `CS${now.getTime().toString(36).toUpperCase()}${randomBytes(5).toString('hex').toUpperCase()}`
}

/**
 * A new payment row: `initiated` (a gateway payment being started) or `completed` (money that is
 * already in: a wallet debit, a desk payment; only receivePayment inserts those).
 */
export async function insertPayment(
  db: Executor,
  values: Insertable<Payments> & { status: 'initiated' | 'completed' },
): Promise<PaymentRow> {
  return db.insertInto('payments').values(values).returningAll().executeTakeFirstOrThrow()
}

/**
 * Paisa still refundable on a booking's payments, Σ (amount − refunded_amount) of completed ones,
 * split by the way the money came: online (gateway, wallet) or at the desk (recorded by staff: cash,
 * or a gateway payment taken at the counter, also counted apart as `deskGateway`).
 */
export async function refundableOf(
  db: Executor,
  kind: BookingKind,
  bookingId: number,
): Promise<{ online: number; desk: number; deskGateway: number }> {
  const rows = await db
    .selectFrom('payments')
    .select(['recorded_by', 'method', 'amount', 'refunded_amount'])
    .where('payable_type', '=', kind)
    .where('payable_id', '=', bookingId)
    .where('status', 'in', ['completed', 'partially_refunded'])
    .execute()
  const out = { online: 0, desk: 0, deskGateway: 0 }
  for (const r of rows) {
    out[r.recorded_by === null ? 'online' : 'desk'] += r.amount - r.refunded_amount
    // Of the desk money, what staff took through a gateway: it goes back through that gateway.
    if (r.recorded_by !== null && r.method !== 'cash') out.deskGateway += r.amount - r.refunded_amount
  }
  return out
}

/** Paisa ever received for a booking (Σ amount of its completed payments, refunded or not). */
export async function receivedFor(db: Executor, kind: BookingKind, bookingId: number): Promise<number> {
  const row = await db
    .selectFrom('payments')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount'), eb.lit(0)).as('received'))
    .where('payable_type', '=', kind)
    .where('payable_id', '=', bookingId)
    .where('status', 'in', ['completed', 'partially_refunded', 'refunded'])
    .executeTakeFirst()
  return Number(row?.received ?? 0)
}

/** A booking's refundable payments, newest first, row-locked for a refund. */
export async function lockRefundablePayments(trx: Executor, kind: BookingKind, bookingId: number) {
  return trx
    .selectFrom('payments')
    .select(['id', 'user_id', 'method', 'amount', 'refunded_amount', 'paid_amount', 'recorded_by', 'unverified'])
    .where('payable_type', '=', kind)
    .where('payable_id', '=', bookingId)
    .where('status', 'in', ['completed', 'partially_refunded'])
    .orderBy('id', 'desc')
    .forUpdate()
    .execute()
}

/** The columns a status move may set besides the status (never the status or refunded_amount themselves). */
export type PaymentColumns = Omit<Updateable<Payments>, 'id' | 'status' | 'refunded_amount' | 'updated_at'>

/** A move of the payment state machine (payment-state.ts): the event, and what it writes with it. */
export type PaymentMove =
  | { event: Exclude<PaymentEvent, 'refund'>; set?: PaymentColumns }
  | { event: 'refund'; amount: number }

/**
 * The one writer of a payment's status after its INSERT: a conditional UPDATE that moves the row only
 * from a status the table (PAYMENT_TRANSITIONS) allows for the event, so of any number of racers
 * exactly one gets the row back; undefined when the payment is not (or no longer) in such a status.
 * A refund adds `amount` to refunded_amount and leads to refunded once all of it is refunded.
 */
export async function movePayment(
  trx: Executor,
  id: number,
  move: PaymentMove,
  now: Date,
): Promise<PaymentRow | undefined> {
  const { from, to } = PAYMENT_TRANSITIONS[move.event]
  const q = trx.updateTable('payments')
  const set =
    move.event === 'refund'
      ? q.set((eb) => ({
          refunded_amount: eb('refunded_amount', '+', move.amount),
          status: eb
            .case()
            .when(eb('refunded_amount', '+', move.amount), '>=', eb.ref('amount'))
            .then('refunded')
            .else('partially_refunded')
            .end(),
          updated_at: now,
        }))
      : q.set({ ...move.set, status: to[0], updated_at: now })
  return set
    .where('id', '=', id)
    .where('status', 'in', [...from])
    .returningAll()
    .executeTakeFirst()
}

/** What a gateway's confirmation writes on the payment it completes. */
export interface GatewayConfirmation {
  transactionId: string | null
  /** What the settle path learned (session, claim, verification), kept on the row. */
  payload: unknown
  /** What the customer paid when the gateway says it was less than the amount (Fonepay's P_AMT). */
  paidAmount: number | null
}

/**
 * Completes a gateway payment the gateway has confirmed: its row locked (after the booking's, when
 * it has one), then moved by `complete` (from initiated) or `late_success` (from failed). Undefined
 * when another racer settled it first.
 */
export async function completeGatewayPayment(
  trx: Executor,
  id: number,
  confirmed: GatewayConfirmation,
  now: Date,
): Promise<PaymentRow | undefined> {
  const current = await lockPayment(trx, id)
  const event = current ? completionEvent(current.status) : null
  if (event === null) return undefined
  const set = {
    completed_at: now,
    paid_amount: confirmed.paidAmount,
    gateway_transaction_id: confirmed.transactionId,
    gateway_payload: JSON.stringify(confirmed.payload ?? null),
  }
  return movePayment(trx, id, { event, set }, now)
}

/** A payment row, locked for its status move. */
export async function lockPayment(trx: Executor, id: number): Promise<PaymentRow | undefined> {
  return trx.selectFrom('payments').selectAll().where('id', '=', id).forUpdate().executeTakeFirst()
}
