import type { Executor } from '../../lib/db.ts'
import type { PaymentRow } from '../booking-core/index.ts'

export type { PaymentRow }

export async function findPayment(db: Executor, id: number, lock = false): Promise<PaymentRow | undefined> {
  let q = db.selectFrom('payments').selectAll().where('id', '=', id)
  if (lock) q = q.forUpdate()
  return q.executeTakeFirst()
}

export async function findByReference(
  db: Executor,
  method: string,
  reference: string,
): Promise<PaymentRow | undefined> {
  return db
    .selectFrom('payments')
    .selectAll()
    .where('reference', '=', reference)
    .where('method', '=', method)
    .executeTakeFirst()
}

/**
 * The one step that settles a gateway payment: only a payment still `initiated` (or one marked
 * `failed` that the gateway has since confirmed) moves, so of two identical callbacks racing,
 * exactly one gets the row back and goes on to confirm or credit.
 */
export async function markCompleted(
  trx: Executor,
  id: number,
  gateway: { transactionId: string | null; payload: unknown },
): Promise<PaymentRow | undefined> {
  return trx
    .updateTable('payments')
    .set({
      status: 'completed',
      completed_at: new Date(),
      gateway_transaction_id: gateway.transactionId,
      gateway_payload: JSON.stringify(gateway.payload ?? null),
      updated_at: new Date(),
    })
    .where('id', '=', id)
    .where('status', 'in', ['initiated', 'failed'])
    .returningAll()
    .executeTakeFirst()
}

export async function markFailed(trx: Executor, id: number, payload: unknown): Promise<PaymentRow | undefined> {
  return trx
    .updateTable('payments')
    .set({ status: 'failed', gateway_payload: JSON.stringify(payload ?? null), updated_at: new Date() })
    .where('id', '=', id)
    .where('status', '=', 'initiated')
    .returningAll()
    .executeTakeFirst()
}

export async function setGatewaySession(db: Executor, id: number, session: string | undefined) {
  if (!session) return
  await db
    .updateTable('payments')
    .set({ gateway_payload: JSON.stringify({ session }), updated_at: new Date() })
    .where('id', '=', id)
    .execute()
}

/** The gateway's own session id stored at initiation (Khalti's pidx), if any. */
export function sessionOf(p: PaymentRow): string | null {
  const payload = (typeof p.gateway_payload === 'string' ? JSON.parse(p.gateway_payload) : p.gateway_payload) as {
    session?: string
  } | null
  return payload?.session ?? null
}
