import { sql } from 'kysely'
import type { Executor } from '../../lib/db.ts'
import type { BookingKind } from '../booking-core/index.ts'

// The rows of split payment: a split per booking, its shares, and which payments were started for
// which shares (migrations/036_booking_splits.sql).

export interface SplitRow {
  id: number
  booking_type: string
  booking_id: number
  deadline: Date
}

export interface ShareRow {
  id: number
  split_id: number
  position: number
  amount: number
  token: string
  payer_id: number | null
  payment_id: number | null
  paid_at: Date | null
}

const SHARE_COLUMNS = ['id', 'split_id', 'position', 'amount', 'token', 'payer_id', 'payment_id', 'paid_at'] as const

export function findSplit(db: Executor, kind: BookingKind, bookingId: number): Promise<SplitRow | undefined> {
  return db
    .selectFrom('booking_splits')
    .select(['id', 'booking_type', 'booking_id', 'deadline'])
    .where('booking_type', '=', kind)
    .where('booking_id', '=', bookingId)
    .executeTakeFirst()
}

export function findSplitById(db: Executor, id: number): Promise<SplitRow | undefined> {
  return db
    .selectFrom('booking_splits')
    .select(['id', 'booking_type', 'booking_id', 'deadline'])
    .where('id', '=', id)
    .executeTakeFirst()
}

/** A split's shares, first share first; `lock` takes their row locks (FOR UPDATE). */
export function sharesOfSplit(db: Executor, splitId: number, lock = false): Promise<ShareRow[]> {
  let q = db.selectFrom('booking_shares').select(SHARE_COLUMNS).where('split_id', '=', splitId).orderBy('position')
  if (lock) q = q.forUpdate()
  return q.execute()
}

export function findShareByToken(db: Executor, token: string): Promise<ShareRow | undefined> {
  return db.selectFrom('booking_shares').select(SHARE_COLUMNS).where('token', '=', token).executeTakeFirst()
}

export function findShare(db: Executor, id: number): Promise<ShareRow | undefined> {
  return db.selectFrom('booking_shares').select(SHARE_COLUMNS).where('id', '=', id).executeTakeFirst()
}

/** Removes a split and its shares (a re-split); payments started for them keep a row with no share. */
export async function deleteSplit(trx: Executor, splitId: number): Promise<void> {
  await trx.deleteFrom('booking_splits').where('id', '=', splitId).execute()
}

export function insertSplit(
  trx: Executor,
  values: { booking_type: BookingKind; booking_id: number; deadline: Date; created_at: Date },
) {
  return trx
    .insertInto('booking_splits')
    .values(values)
    .returning(['id', 'booking_type', 'booking_id', 'deadline'])
    .executeTakeFirstOrThrow()
}

export function insertShares(
  trx: Executor,
  rows: Array<{ split_id: number; position: number; amount: number; token: string; created_at: Date }>,
): Promise<ShareRow[]> {
  return trx
    .insertInto('booking_shares')
    .values(rows.map((r) => ({ ...r, updated_at: r.created_at })))
    .returning(SHARE_COLUMNS)
    .execute()
}

/** Records that `paymentId` was started for the shares `shareIds`. */
export async function linkPayment(trx: Executor, paymentId: number, shareIds: number[]): Promise<void> {
  await trx
    .insertInto('share_payments')
    .values(shareIds.map((share_id) => ({ payment_id: paymentId, share_id })))
    .execute()
}

/**
 * The links of a payment to shares, the shares row-locked (FOR UPDATE OF the share); a link whose
 * share a re-split removed has share_id null. Empty for a payment of no share.
 */
export async function lockLinkedShares(
  trx: Executor,
  paymentId: number,
): Promise<Array<{ share_id: number | null; share: ShareRow | null }>> {
  const links = await trx
    .selectFrom('share_payments')
    .select('share_id')
    .where('payment_id', '=', paymentId)
    .orderBy('share_id')
    .execute()
  if (links.length === 0) return []
  const ids = links.flatMap((l) => (l.share_id === null ? [] : [l.share_id]))
  const shares =
    ids.length === 0
      ? []
      : await trx.selectFrom('booking_shares').select(SHARE_COLUMNS).where('id', 'in', ids).forUpdate().execute()
  return links.map((l) => ({ share_id: l.share_id, share: shares.find((s) => s.id === l.share_id) ?? null }))
}

export async function markSharesPaid(
  trx: Executor,
  shareIds: number[],
  paid: { payer_id: number; payment_id: number; paid_at: Date },
): Promise<void> {
  await trx
    .updateTable('booking_shares')
    .set({ ...paid, updated_at: paid.paid_at })
    .where('id', 'in', shareIds)
    .where('payment_id', 'is', null)
    .execute()
}

/** A share unpaid again, with no payer (its payment refunded: a player left). */
export async function markShareUnpaid(trx: Executor, shareId: number, now: Date): Promise<void> {
  await trx
    .updateTable('booking_shares')
    .set({ payer_id: null, payment_id: null, paid_at: null, updated_at: now })
    .where('id', '=', shareId)
    .execute()
}

/** Whether any share of the split was ever paid (a payment completed for it), refunded ones included. */
export async function splitHasPayments(db: Executor, splitId: number): Promise<boolean> {
  const row = await db
    .selectFrom('share_payments as sp')
    .innerJoin('booking_shares as s', 's.id', 'sp.share_id')
    .innerJoin('payments as p', 'p.id', 'sp.payment_id')
    .select('sp.id')
    .where('s.split_id', '=', splitId)
    .where('p.status', 'in', ['completed', 'partially_refunded', 'refunded'])
    .executeTakeFirst()
  return row !== undefined
}

/**
 * The booking's latest completed payment that was not made for shares (the desk's cash or QR, the
 * whole balance through /api/payments/initiate): what paid the shares no share payment did.
 */
export function latestPaymentOfNoShare(db: Executor, kind: BookingKind, bookingId: number) {
  return db
    .selectFrom('payments as p')
    .select(['p.id', 'p.user_id'])
    .where('p.payable_type', '=', kind)
    .where('p.payable_id', '=', bookingId)
    .where('p.status', '=', 'completed')
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('share_payments as sp').select('sp.id').whereRef('sp.payment_id', '=', 'p.id'))),
    )
    .orderBy('p.id', 'desc')
    .executeTakeFirst()
}

/** A share's payment as a refund reads it, row-locked (the booking's lock is held first). */
export function lockSharePayment(trx: Executor, paymentId: number) {
  return trx
    .selectFrom('payments')
    .select(['id', 'user_id', 'method', 'amount', 'refunded_amount', 'paid_amount', 'recorded_by', 'unverified'])
    .where('id', '=', paymentId)
    .forUpdate()
    .executeTakeFirst()
}

/** The booking a share view shows: venue, court or game, date, times, customer, status and money. */
export async function bookingFacts(db: Executor, kind: BookingKind, bookingId: number) {
  const { rows } =
    kind === 'court'
      ? await sql<BookingFacts>`
          SELECT b.id, b.booking_number, b.user_id, u.name AS organizer, b.venue_id, v.name AS venue, v.slug AS venue_slug,
                 c.name AS resource, b.date::text AS date, b.start_time::text AS start_time,
                 b.end_time::text AS end_time, b.status, b.total_amount, b.paid_amount
          FROM bookings b JOIN venues v ON v.id = b.venue_id JOIN courts c ON c.id = b.court_id
          LEFT JOIN users u ON u.id = b.user_id WHERE b.id = ${bookingId}`.execute(db)
      : await sql<BookingFacts>`
          SELECT b.id, b.booking_number, b.user_id, u.name AS organizer, b.venue_id, v.name AS venue, v.slug AS venue_slug,
                 g.name AS resource, b.date::text AS date, b.start_time::text AS start_time,
                 b.end_time::text AS end_time, b.status, b.total_amount, b.paid_amount
          FROM indoor_game_bookings b JOIN venues v ON v.id = b.venue_id
          JOIN indoor_games g ON g.id = b.indoor_game_id
          LEFT JOIN users u ON u.id = b.user_id WHERE b.id = ${bookingId}`.execute(db)
  const r = rows[0]
  return r ? { ...r, total_amount: Number(r.total_amount), paid_amount: Number(r.paid_amount) } : undefined
}

export interface BookingFacts {
  id: number
  booking_number: string
  user_id: number | null
  organizer: string | null
  venue_id: number
  venue: string
  venue_slug: string
  resource: string
  date: string
  start_time: string
  end_time: string
  status: string
  total_amount: number
  paid_amount: number
}

/** The payers' names and the state of each share's payment (a refunded payment shows the share refunded). */
export async function shareDetails(db: Executor, splitId: number) {
  return db
    .selectFrom('booking_shares as s')
    .leftJoin('users as u', 'u.id', 's.payer_id')
    .leftJoin('payments as p', 'p.id', 's.payment_id')
    .select([
      's.id',
      's.position',
      's.amount',
      's.token',
      's.payer_id',
      'u.name as payer_name',
      's.payment_id',
      'p.status as payment_status',
    ])
    .where('s.split_id', '=', splitId)
    .orderBy('s.position')
    .execute()
}

/** The split deadlines of bookings, keyed by booking id, with how many shares are paid (the desk board). */
export async function shareCounts(db: Executor, kind: BookingKind, bookingIds: number[]) {
  if (bookingIds.length === 0) return []
  return db
    .selectFrom('booking_splits as sp')
    .innerJoin('booking_shares as s', 's.split_id', 'sp.id')
    .select([
      'sp.booking_id',
      sql<number>`count(*)::int`.as('shares'),
      sql<number>`count(s.payment_id)::int`.as('paid'),
    ])
    .where('sp.booking_type', '=', kind)
    .where('sp.booking_id', 'in', bookingIds)
    .groupBy('sp.booking_id')
    .execute()
}
