import type { Insertable, Selectable } from 'kysely'
import type { GatewayRefunds } from '../../../db/types.ts'
import type { Executor } from '../../../lib/db.ts'

// Gateway refunds: gateway money taken at the desk (a QR payment, or a reference typed before those),
// refunded, and due at the gateway until it is sent back there.

/** A gateway refund with its payment's `unverified` (whose merchant account took the money). */
export type GatewayRefundRow = Selectable<GatewayRefunds> & { unverified: boolean }

export async function insertGatewayRefund(trx: Executor, values: Insertable<GatewayRefunds>) {
  return trx.insertInto('gateway_refunds').values(values).returningAll().executeTakeFirstOrThrow()
}

const withPayment = (db: Executor) =>
  db
    .selectFrom('gateway_refunds as r')
    .innerJoin('payments as p', 'p.id', 'r.payment_id')
    .selectAll('r')
    .select('p.unverified')

export async function listGatewayRefunds(db: Executor, venueId: number, status: 'due' | 'done' | 'all') {
  let q = withPayment(db).where('r.venue_id', '=', venueId)
  if (status !== 'all') q = q.where('r.status', '=', status)
  return q.orderBy('r.created_at', 'desc').orderBy('r.id', 'desc').execute()
}

export async function findGatewayRefund(db: Executor, venueId: number, id: number) {
  return withPayment(db).where('r.id', '=', id).where('r.venue_id', '=', venueId).executeTakeFirst()
}

/** Marks a due gateway refund done, once: undefined when it is not due (or not this venue's). */
export async function markGatewayRefundDone(
  trx: Executor,
  venueId: number,
  id: number,
  done: { by: number | null; at: Date; reference: string },
) {
  return trx
    .updateTable('gateway_refunds')
    .set({ status: 'done', done_by: done.by, done_at: done.at, gateway_reference: done.reference, last_error: null })
    .where('id', '=', id)
    .where('venue_id', '=', venueId)
    .where('status', '=', 'due')
    .returningAll()
    .executeTakeFirst()
}

export async function noteGatewayRefundError(db: Executor, id: number, error: string) {
  await db.updateTable('gateway_refunds').set({ last_error: error }).where('id', '=', id).execute()
}

/** Whether another gateway refund of the same gateway already carries this reference. */
export async function gatewayReferenceTaken(db: Executor, method: string, reference: string) {
  const row = await db
    .selectFrom('gateway_refunds')
    .select('id')
    .where('method', '=', method)
    .where((eb) => eb(eb.fn('lower', [eb.fn('btrim', ['gateway_reference'])]), '=', reference.trim().toLowerCase()))
    .executeTakeFirst()
  return row !== undefined
}

/** A gateway refund, row-locked, with its payment's gateway transaction id (for the refund job). */
export async function lockGatewayRefund(trx: Executor, id: number) {
  return trx
    .selectFrom('gateway_refunds as r')
    .innerJoin('payments as p', 'p.id', 'r.payment_id')
    .selectAll('r')
    .select(['p.gateway_transaction_id', 'p.unverified', 'p.amount as payment_amount', 'p.refunded_amount'])
    .where('r.id', '=', id)
    .forUpdate('r')
    .executeTakeFirst()
}

/** Records that the refund job is asking the gateway now (committed before the gateway is asked). */
export async function markGatewayRefundSent(trx: Executor, id: number, at: Date) {
  await trx.updateTable('gateway_refunds').set({ sent_at: at }).where('id', '=', id).execute()
}
