import { randomBytes } from 'node:crypto'
import type { Insertable, Selectable } from 'kysely'
import type { Payments } from '../../../db/types.ts'
import type { Executor } from '../../../lib/db.ts'
import type { BookingKind } from './bookings.ts'

// Payment rows are written here because both sides write them: bookings record desk payments and
// refunds (operations.ts), payments record wallet, cash and gateway payments. Payments depends on
// this module, never the reverse (docs/architecture.md, "Booking core and money direction").

export type PaymentRow = Selectable<Payments>

/** A payment's id at the gateway: short (Fonepay PRN ≤ 25), unique, unguessable. */
export function newReference(now: Date): string {
  return `CS${now.getTime().toString(36).toUpperCase()}${randomBytes(5).toString('hex').toUpperCase()}`
}

export async function insertPayment(db: Executor, values: Insertable<Payments>): Promise<PaymentRow> {
  return db.insertInto('payments').values(values).returningAll().executeTakeFirstOrThrow()
}

/**
 * Paisa still refundable on a booking's payments, Σ (amount − refunded_amount) of completed ones,
 * split by the way the money came: online (gateway, wallet) or at the desk (recorded by staff: cash,
 * or a gateway payment taken at the counter).
 */
export async function refundableOf(
  db: Executor,
  kind: BookingKind,
  bookingId: number,
): Promise<{ online: number; desk: number }> {
  const rows = await db
    .selectFrom('payments')
    .select(['recorded_by', 'amount', 'refunded_amount'])
    .where('payable_type', '=', kind)
    .where('payable_id', '=', bookingId)
    .where('status', 'in', ['completed', 'partially_refunded'])
    .execute()
  const out = { online: 0, desk: 0 }
  for (const r of rows) out[r.recorded_by === null ? 'online' : 'desk'] += r.amount - r.refunded_amount
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
    .select(['id', 'method', 'amount', 'refunded_amount', 'paid_amount', 'recorded_by'])
    .where('payable_type', '=', kind)
    .where('payable_id', '=', bookingId)
    .where('status', 'in', ['completed', 'partially_refunded'])
    .orderBy('id', 'desc')
    .forUpdate()
    .execute()
}

/**
 * Marks `amount` of one completed payment as refunded (status refunded or partially_refunded).
 * The caller holds the payment row lock and credits the wallet.
 */
export async function markRefunded(trx: Executor, paymentId: number, amount: number, now: Date): Promise<void> {
  await trx
    .updateTable('payments')
    .set((eb) => ({
      refunded_amount: eb('refunded_amount', '+', amount),
      status: eb
        .case()
        .when(eb('refunded_amount', '+', amount), '>=', eb.ref('amount'))
        .then('refunded')
        .else('partially_refunded')
        .end(),
      updated_at: now,
    }))
    .where('id', '=', paymentId)
    .execute()
}
