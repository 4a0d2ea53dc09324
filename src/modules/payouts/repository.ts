import { type Selectable, sql } from 'kysely'
import type { Payouts } from '../../db/types.ts'
import type { Executor } from '../../lib/db.ts'

// Payouts, commission rates, payout details, and the venue-balance lines a statement shows.

export type PayoutRow = Selectable<Payouts>

export async function insertPayout(
  trx: Executor,
  v: { venueId: number; amount: number; reference: string; paidOn: string; createdBy: number },
): Promise<PayoutRow> {
  return trx
    .insertInto('payouts')
    .values({
      venue_id: v.venueId,
      amount: v.amount,
      reference: v.reference,
      paid_on: v.paidOn,
      created_by: v.createdBy,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
}

export async function listPayouts(db: Executor, venueId: number): Promise<PayoutRow[]> {
  return db
    .selectFrom('payouts')
    .selectAll()
    .where('venue_id', '=', venueId)
    .orderBy('paid_on', 'desc')
    .orderBy('id', 'desc')
    .execute()
}

/**
 * Where a venue's payouts go, as `venues.payout_account` (jsonb) holds it: only ever written by
 * setPayoutAccount from a body the route validated against PayoutAccountSchema.
 */
export interface PayoutAccount {
  type: 'bank' | 'esewa' | 'khalti'
  account_name: string
  bank_name?: string | null
  account_number?: string | null
  merchant_id?: string | null
}

/** Venues whose balance with the platform is positive, largest first, with their payout details. */
/** A payout of the venue with this reference (case and surrounding spaces aside), if one is recorded. */
export async function payoutWithReference(db: Executor, venueId: number, reference: string) {
  return db
    .selectFrom('payouts')
    .select(['id', 'reference'])
    .where('venue_id', '=', venueId)
    .where(sql<string>`lower(btrim(reference))`, '=', reference.trim().toLowerCase())
    .executeTakeFirst()
}

/**
 * Online money (gateway, wallet, and desk QR payments: the platform's gateway took them) paid for
 * bookings that have not started yet and may still be
 * refunded to their customers, per venue (only `venueId`'s when given): what a payout must leave in
 * the venue's balance. `today` and `time` are the venue-local now.
 */
export async function refundableReserve(
  db: Executor,
  now: { today: string; time: string },
  venueId?: number,
): Promise<Map<number, number>> {
  const upcoming = (table: 'bookings' | 'indoor_game_bookings', kind: string) => sql`
    SELECT ${kind}::text AS kind, id, venue_id FROM ${sql.table(table)}
    WHERE status IN ('pending', 'confirmed')
      AND (date > ${now.today}::date OR (date = ${now.today}::date AND start_time > ${now.time}::time))
      ${venueId === undefined ? sql`` : sql`AND venue_id = ${venueId}`}`
  const { rows } = await sql<{ venue_id: string; reserve: string }>`
    SELECT b.venue_id, sum(p.amount - p.refunded_amount) AS reserve
    FROM (${upcoming('bookings', 'court')} UNION ALL ${upcoming('indoor_game_bookings', 'indoor')}) b
    JOIN payments p ON p.payable_type = b.kind AND p.payable_id = b.id
    WHERE p.status IN ('completed', 'partially_refunded')
      AND (p.recorded_by IS NULL OR (p.method <> 'cash' AND NOT p.unverified))
    GROUP BY b.venue_id`.execute(db)
  return new Map(rows.map((r) => [Number(r.venue_id), Number(r.reserve)]))
}

export async function venuesWithBalance(db: Executor) {
  const { rows } = await sql<{
    id: string
    name: string
    slug: string
    balance: string
    payout_account: PayoutAccount | null
  }>`
    SELECT v.id, v.name, v.slug, b.balance, v.payout_account
    FROM (
      SELECT split_part(account, ':', 2)::bigint AS venue_id, -sum(amount) AS balance
      FROM ledger_lines WHERE account LIKE 'venue:%:balance' GROUP BY account
    ) b
    JOIN venues v ON v.id = b.venue_id
    WHERE b.balance <> 0
    ORDER BY b.balance DESC, v.id`.execute(db)
  return rows.map((r) => ({
    id: Number(r.id),
    name: r.name,
    slug: r.slug,
    balance: Number(r.balance),
    payout_account: r.payout_account,
  }))
}

export async function setCommission(db: Executor, venueId: number, percent: number | null, deskPercent: number | null) {
  return db
    .updateTable('venues')
    .set({
      commission_percent: percent === null ? null : percent.toFixed(2),
      desk_commission_percent: deskPercent === null ? null : deskPercent.toFixed(2),
    })
    .where('id', '=', venueId)
    .returning(['id', 'commission_percent', 'desk_commission_percent'])
    .executeTakeFirstOrThrow()
}

export async function commissionOf(db: Executor, venueId: number) {
  return db
    .selectFrom('venues')
    .select(['id', 'commission_percent', 'desk_commission_percent'])
    .where('id', '=', venueId)
    .executeTakeFirstOrThrow()
}

export async function payoutAccountOf(db: Executor, venueId: number): Promise<PayoutAccount | null> {
  const { rows } = await sql<{ payout_account: PayoutAccount | null }>`
    SELECT payout_account FROM venues WHERE id = ${venueId}`.execute(db)
  return rows[0]?.payout_account ?? null
}

export async function setPayoutAccount(db: Executor, venueId: number, value: PayoutAccount | null) {
  await db
    .updateTable('venues')
    .set({ payout_account: value === null ? null : JSON.stringify(value) })
    .where('id', '=', venueId)
    .execute()
}

export interface StatementLineRow {
  entry_id: number
  occurred_at: Date
  kind: string
  description: string
  booking_number: string | null
  /** Signed, on the venue balance: positive is money owed to the venue. */
  amount: number
}

/** The lines of one account (credit positive) in [from, until), oldest first, with booking numbers. */
export async function accountLines(db: Executor, code: string, from: Date, until: Date): Promise<StatementLineRow[]> {
  const { rows } = await sql<{
    entry_id: string
    occurred_at: Date
    kind: string
    description: string
    booking_number: string | null
    amount: string
  }>`
    SELECT e.id AS entry_id, e.occurred_at, e.kind, e.description, -l.amount AS amount,
      CASE e.booking_type
        WHEN 'court' THEN (SELECT b.booking_number FROM bookings b WHERE b.id = e.booking_id)
        WHEN 'indoor' THEN (SELECT i.booking_number FROM indoor_game_bookings i WHERE i.id = e.booking_id)
      END AS booking_number
    FROM ledger_lines l JOIN ledger_entries e ON e.id = l.entry_id
    WHERE l.account = ${code} AND e.occurred_at >= ${from} AND e.occurred_at < ${until}
    ORDER BY e.occurred_at, e.id`.execute(db)
  return rows.map((r) => ({
    entry_id: Number(r.entry_id),
    occurred_at: new Date(r.occurred_at),
    kind: r.kind,
    description: r.description,
    booking_number: r.booking_number,
    amount: Number(r.amount),
  }))
}

/** Minus the signed sum (credit positive) of an account's lines before an instant. */
export async function creditBalanceBefore(db: Executor, code: string, before: Date): Promise<number> {
  const { rows } = await sql<{ s: string | null }>`
    SELECT -sum(l.amount) AS s FROM ledger_lines l JOIN ledger_entries e ON e.id = l.entry_id
    WHERE l.account = ${code} AND e.occurred_at < ${before}`.execute(db)
  return Number(rows[0]?.s ?? 0)
}
