import { sql } from 'kysely'
import type { Executor } from '../../lib/db.ts'
import { type BookingKind, bookingTable, type PaymentColumns, type PaymentRow } from '../booking-core/index.ts'

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

/** What a status check said about a payment that is (or is being) failed here. */
export interface GatewayCheck {
  verdict: 'completed' | 'pending' | 'not_found' | 'failed'
  /** The amount the gateway named with `completed`, paisa. */
  amount: number | null
  transactionId: string | null
}

/**
 * The columns a payment's failure writes with it (movePayment's `fail` or `expire`). `check` is the
 * status check that failed it (then the payment is re-checked later, recheck.ts); without one
 * (refused at initiate) it is never asked about again. The re-check schedule starts afresh:
 * reconcile_at NULL means gateway_checked_at + the first wait.
 */
export function failedColumns(payload: unknown, now: Date, check?: GatewayCheck): PaymentColumns {
  return {
    gateway_payload: JSON.stringify(payload ?? null),
    reconcile_attempts: 0,
    reconcile_at: null,
    ...(check ? checkColumns(check, now) : {}),
  }
}

/** Records a re-check of a failed payment that did not complete it (the payment stays failed). */
export async function noteRecheck(
  db: Executor,
  id: number,
  check: GatewayCheck,
  now: Date,
): Promise<PaymentRow | undefined> {
  return db
    .updateTable('payments')
    .set(checkColumns(check, now))
    .where('id', '=', id)
    .where('status', '=', 'failed')
    .returningAll()
    .executeTakeFirst()
}

function checkColumns(check: GatewayCheck, now: Date) {
  return {
    gateway_checked_at: now,
    gateway_verdict: check.verdict,
    gateway_amount: check.verdict === 'completed' ? check.amount : null,
    ...(check.transactionId ? { gateway_transaction_id: check.transactionId } : {}),
  }
}

export async function setGatewaySession(db: Executor, id: number, session: string | undefined, now: Date) {
  if (!session) return
  await db
    .updateTable('payments')
    .set({ gateway_payload: JSON.stringify({ session }), updated_at: now })
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

/** Gateway payments still initiated, created before `oldEnough`, whose next check is due. */
export async function dueForReconcile(
  db: Executor,
  methods: readonly string[],
  oldEnough: Date,
  now: Date,
  limit: number,
): Promise<PaymentRow[]> {
  return db
    .selectFrom('payments')
    .selectAll()
    .where('status', '=', 'initiated')
    .where('method', 'in', [...methods])
    .where('created_at', '<=', oldEnough)
    .where((eb) => eb.or([eb('reconcile_at', 'is', null), eb('reconcile_at', '<=', now)]))
    .orderBy('created_at')
    .limit(limit)
    .execute()
}

/** Claims a due payment for one check by pushing its next check out; undefined when another pass won. */
export async function claimForReconcile(
  db: Executor,
  id: number,
  nextCheck: Date,
  now: Date,
): Promise<PaymentRow | undefined> {
  return db
    .updateTable('payments')
    .set({ reconcile_attempts: sql`reconcile_attempts + 1`, reconcile_at: nextCheck })
    .where('id', '=', id)
    .where('status', '=', 'initiated')
    .where((eb) => eb.or([eb('reconcile_at', 'is', null), eb('reconcile_at', '<=', now)]))
    .returningAll()
    .executeTakeFirst()
}

/** A booking's initiated gateway payments, oldest first. */
export async function initiatedGatewayPayments(
  db: Executor,
  kind: BookingKind,
  bookingId: number,
  methods: readonly string[],
): Promise<PaymentRow[]> {
  return db
    .selectFrom('payments')
    .selectAll()
    .where('payable_type', '=', kind)
    .where('payable_id', '=', bookingId)
    .where('status', '=', 'initiated')
    .where('method', 'in', [...methods])
    .orderBy('id')
    .execute()
}

/** The venue of a booking of either kind; undefined when it does not exist. */
export async function bookingVenueId(db: Executor, kind: BookingKind, id: number): Promise<number | undefined> {
  const row = await db.selectFrom(bookingTable(kind)).select('venue_id').where('id', '=', id).executeTakeFirst()
  return row?.venue_id
}

/** Where a failed payment stands in its re-checks: the window and the first wait (recheck.ts). */
export interface RecheckWindow {
  /** Payments created before this are no longer asked about. */
  createdAfter: Date
  /** A payment whose next check is unset is due once it was last checked before this. */
  checkedBefore: Date
  now: Date
}

/** Failed gateway payments, re-checkable (failed by a status check) and in their window, whose next check is due. */
export async function dueForRecheck(
  db: Executor,
  methods: readonly string[],
  w: RecheckWindow,
  limit: number,
): Promise<PaymentRow[]> {
  return db
    .selectFrom('payments')
    .selectAll()
    .where('status', '=', 'failed')
    .where('gateway_checked_at', 'is not', null)
    .where('method', 'in', [...methods])
    .where('created_at', '>', w.createdAfter)
    .where((eb) =>
      eb.or([
        eb('reconcile_at', '<=', w.now),
        eb.and([eb('reconcile_at', 'is', null), eb('gateway_checked_at', '<=', w.checkedBefore)]),
      ]),
    )
    .orderBy('created_at')
    .limit(limit)
    .execute()
}

/** Claims a due re-check by pushing the next one out; undefined when another pass won (or it completed). */
export async function claimForRecheck(
  db: Executor,
  id: number,
  nextCheck: Date,
  w: RecheckWindow,
): Promise<PaymentRow | undefined> {
  return db
    .updateTable('payments')
    .set({ reconcile_attempts: sql`reconcile_attempts + 1`, reconcile_at: nextCheck })
    .where('id', '=', id)
    .where('status', '=', 'failed')
    .where((eb) =>
      eb.or([
        eb('reconcile_at', '<=', w.now),
        eb.and([eb('reconcile_at', 'is', null), eb('gateway_checked_at', '<=', w.checkedBefore)]),
      ]),
    )
    .returningAll()
    .executeTakeFirst()
}
