import { sql } from 'kysely'
import { type Executor, LOCK_CLASS, xactLock } from '../../lib/db.ts'
import { BOOKING_MONEY_KINDS, entryKinds } from './kinds.ts'

// The ledger's rows. Entries and lines are only ever inserted (the database refuses an UPDATE or
// DELETE, and an entry whose lines do not sum to zero: migrations/013_ledger.sql).

export interface EntryValues {
  kind: string
  occurredAt: Date
  description: string
  paymentId: number | null
  bookingType: 'court' | 'indoor' | null
  bookingId: number | null
  venueId: number | null
  userId: number | null
  createdBy: number | null
}

/** One entry and its lines in one statement (one round trip); returns the entry's id. */
export async function insertEntry(trx: Executor, e: EntryValues, lines: Array<[string, number]>): Promise<number> {
  const accounts = lines.map(([a]) => a)
  const amounts = lines.map(([, n]) => n)
  const { rows } = await sql<{ id: string }>`
    WITH e AS (
      INSERT INTO ledger_entries (kind, occurred_at, description, payment_id, booking_type, booking_id, venue_id, user_id, created_by)
      VALUES (${e.kind}, ${e.occurredAt}, ${e.description}, ${e.paymentId}, ${e.bookingType}, ${e.bookingId}, ${e.venueId}, ${e.userId}, ${e.createdBy})
      RETURNING id
    ), l AS (
      INSERT INTO ledger_lines (entry_id, account, amount)
      SELECT e.id, x.account, x.amount FROM e, unnest(${accounts}::text[], ${amounts}::bigint[]) AS x(account, amount)
    )
    SELECT id FROM e`.execute(trx)
  return Number(rows[0].id)
}

/** Signed sum (debits positive) of one account's lines, optionally up to an instant. */
export async function accountSum(db: Executor, code: string, until?: Date): Promise<number> {
  const { rows } = await sql<{ s: string | null }>`
    SELECT sum(l.amount) AS s FROM ledger_lines l
    ${until ? sql`JOIN ledger_entries e ON e.id = l.entry_id AND e.occurred_at <= ${until}` : sql``}
    WHERE l.account = ${code}`.execute(db)
  return Number(rows[0]?.s ?? 0)
}

/** Every account's signed sum, and the totals of debits and credits. */
export async function accountSums(db: Executor) {
  const { rows } = await sql<{ account: string; sum: string; debits: string; credits: string }>`
    SELECT account, sum(amount) AS sum,
           sum(CASE WHEN amount > 0 THEN amount ELSE 0 END) AS debits,
           sum(CASE WHEN amount < 0 THEN -amount ELSE 0 END) AS credits
    FROM ledger_lines GROUP BY account ORDER BY account`.execute(db)
  return rows.map((r) => ({
    account: r.account,
    sum: Number(r.sum),
    debits: Number(r.debits),
    credits: Number(r.credits),
  }))
}

/** Entry kinds in the books that the classification (kinds.ts) does not know, with how many entries. */
export async function unclassifiedKinds(db: Executor): Promise<Array<{ kind: string; n: number }>> {
  const { rows } = await sql<{ kind: string; n: string }>`
    SELECT kind, count(*) AS n FROM ledger_entries
    WHERE kind NOT IN (${sql.join(entryKinds.map((k) => sql.lit(k)))})
    GROUP BY kind ORDER BY kind`.execute(db)
  return rows.map((r) => ({ kind: r.kind, n: Number(r.n) }))
}

export async function entryCount(db: Executor): Promise<number> {
  const { rows } = await sql<{ n: string }>`SELECT count(*) AS n FROM ledger_entries`.execute(db)
  return Number(rows[0].n)
}

/** Entries whose lines do not sum to zero or that have fewer than two lines (none, if the trigger holds). */
export async function unbalancedEntries(db: Executor): Promise<number[]> {
  const { rows } = await sql<{ id: string }>`
    SELECT e.id FROM ledger_entries e LEFT JOIN ledger_lines l ON l.entry_id = e.id
    GROUP BY e.id HAVING coalesce(sum(l.amount), 0) <> 0 OR count(l.id) < 2
    ORDER BY e.id LIMIT 20`.execute(db)
  return rows.map((r) => Number(r.id))
}

/** Users whose stored wallet balance differs from their wallet account (credit-normal). */
export async function walletMismatches(db: Executor) {
  const { rows } = await sql<{ id: string; stored: string; ledger: string }>`
    SELECT u.id, u.wallet_balance AS stored, coalesce(-w.s, 0) AS ledger
    FROM users u
    LEFT JOIN (
      SELECT account, sum(amount) AS s FROM ledger_lines WHERE account LIKE 'wallet:%' GROUP BY account
    ) w ON w.account = 'wallet:' || u.id
    WHERE u.wallet_balance <> coalesce(-w.s, 0)
    ORDER BY u.id LIMIT 20`.execute(db)
  return rows.map((r) => ({ user_id: Number(r.id), stored: Number(r.stored), ledger: Number(r.ledger) }))
}

/**
 * Where the wallet's rows and the ledger disagree (migrations/026_wallet_projection.sql): a completed
 * `wallet_transactions` row that projects no entry, a line on a wallet account that no row projects,
 * or a row whose user, amount or direction is not its line's.
 */
export async function walletRowMismatches(db: Executor) {
  const { rows } = await sql<{
    row_id: string | null
    entry_id: string | null
    account: string
    type: string | null
    row_amount: string | null
    line: string | null
  }>`
    WITH w AS (
      SELECT id, user_id, type, amount, entry_id FROM wallet_transactions WHERE status = 'completed'
    ), l AS (
      SELECT entry_id, account, amount FROM ledger_lines WHERE account LIKE 'wallet:%'
    )
    SELECT w.id AS row_id, l.entry_id, coalesce(l.account, 'wallet:' || w.user_id) AS account, w.type,
      w.amount AS row_amount, l.amount AS line
    FROM w FULL JOIN l ON l.entry_id = w.entry_id
    WHERE w.id IS NULL OR l.entry_id IS NULL OR l.account <> 'wallet:' || w.user_id OR abs(l.amount) <> w.amount
      OR (l.amount > 0) <> (w.type = 'debit')
    ORDER BY coalesce(l.entry_id, 0), coalesce(w.id, 0) LIMIT 20`.execute(db)
  return rows.map((r) => ({
    rowId: r.row_id === null ? null : Number(r.row_id),
    entryId: r.entry_id === null ? null : Number(r.entry_id),
    account: r.account,
    type: r.type,
    rowAmount: r.row_amount === null ? null : Number(r.row_amount),
    line: r.line === null ? null : Number(r.line),
  }))
}

/**
 * Bookings whose paid_amount differs from what the ledger says the venue holds for them: minus the
 * signed sum, over the entries of the booking, of its venue's balance and desk-sales lines.
 */
export async function bookingMismatches(db: Executor) {
  const { rows } = await sql<{ kind: string; id: string; stored: string; ledger: string }>`
    WITH held AS (
      SELECT e.booking_type, e.booking_id, -sum(l.amount) AS held
      FROM ledger_entries e JOIN ledger_lines l ON l.entry_id = e.id
      WHERE e.booking_id IS NOT NULL AND e.kind IN (${sql.join(BOOKING_MONEY_KINDS.map((k) => sql.lit(k)))}) AND (l.account LIKE 'venue:%:balance' OR l.account LIKE 'venue:%:desk_sales')
      GROUP BY e.booking_type, e.booking_id
    ), b AS (
      SELECT 'court' AS kind, id, paid_amount FROM bookings
      UNION ALL
      SELECT 'indoor' AS kind, id, paid_amount FROM indoor_game_bookings
    )
    SELECT b.kind, b.id, b.paid_amount AS stored, coalesce(h.held, 0) AS ledger
    FROM b LEFT JOIN held h ON h.booking_type = b.kind AND h.booking_id = b.id
    WHERE b.paid_amount <> coalesce(h.held, 0)
    ORDER BY b.kind, b.id LIMIT 20`.execute(db)
  return rows.map((r) => ({ kind: r.kind, id: Number(r.id), stored: Number(r.stored), ledger: Number(r.ledger) }))
}

/** A venue's commission rates in hundredths of a percent; null where the venue has none of its own. */
export async function venueCommissionRates(db: Executor, venueId: number) {
  const row = await db
    .selectFrom('venues')
    .select(['commission_percent', 'desk_commission_percent'])
    .where('id', '=', venueId)
    .executeTakeFirst()
  const bp = (v: string | null | undefined) => (v === null || v === undefined ? null : Math.round(Number(v) * 100))
  return { online: bp(row?.commission_percent), desk: bp(row?.desk_commission_percent) }
}

/** Commission charged on one payment so far, net of what was given back (paisa, ≥ 0). */
export async function commissionOfPayment(db: Executor, paymentId: number): Promise<number> {
  // What the venue was charged (its balance line), VAT included.
  const { rows } = await sql<{ s: string | null }>`
    SELECT sum(l.amount) AS s FROM ledger_entries e JOIN ledger_lines l ON l.entry_id = e.id
    WHERE e.payment_id = ${paymentId} AND e.kind = 'commission' AND l.account LIKE 'venue:%:balance'`.execute(db)
  return Number(rows[0]?.s ?? 0)
}

/** Of a payment's commission, the platform's VAT on it (its `vat:payable` line), paisa. */
export async function commissionVatOfPayment(db: Executor, paymentId: number): Promise<number> {
  const { rows } = await sql<{ s: string | null }>`
    SELECT sum(l.amount) AS s FROM ledger_entries e JOIN ledger_lines l ON l.entry_id = e.id
    WHERE e.payment_id = ${paymentId} AND e.kind = 'commission' AND l.account = 'vat:payable'`.execute(db)
  return -Number(rows[0]?.s ?? 0)
}

/** Orders changes that spend a venue's balance with the platform (held until the transaction ends). */
export async function lockVenueBalance(trx: Executor, venueId: number): Promise<void> {
  await xactLock(trx, LOCK_CLASS.venueBalance, venueId)
}

/** The discount a platform coupon (one with no venue) gave a booking, paisa; 0 when none. */
export async function platformDiscountOf(db: Executor, kind: 'court' | 'indoor', bookingId: number): Promise<number> {
  const { rows } = await sql<{ d: string }>`
    SELECT cu.discount_amount AS d FROM coupon_usages cu JOIN coupons c ON c.id = cu.coupon_id
    WHERE cu.booking_type = ${kind} AND cu.booking_id = ${bookingId} AND c.venue_id IS NULL`.execute(db)
  return Number(rows[0]?.d ?? 0)
}

/** What the platform has credited a venue so far for a booking's platform discount, paisa. */
export async function discountCredited(db: Executor, kind: 'court' | 'indoor', bookingId: number, code: string) {
  const { rows } = await sql<{ s: string | null }>`
    SELECT -sum(l.amount) AS s FROM ledger_entries e JOIN ledger_lines l ON l.entry_id = e.id
    WHERE e.booking_type = ${kind} AND e.booking_id = ${bookingId} AND e.kind = 'platform_discount'
      AND l.account = ${code}`.execute(db)
  return Number(rows[0]?.s ?? 0)
}
