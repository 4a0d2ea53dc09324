import { type Insertable, type Selectable, sql } from 'kysely'
import type { CashBacks } from '../../../db/types.ts'
import type { Executor } from '../../../lib/db.ts'

// Cash-backs: desk money refunded, due at the venue's desk until staff record handing it over.

export type CashBackRow = Selectable<CashBacks>

/** A cash-back as the desk and the owner read it: the row with who did what, and its booking and payment. */
export interface CashBackDetailRow extends CashBackRow {
  booking_number: string | null
  payment_method: string
  /** Who recorded the refunded payment at the desk (payments.recorded_by). */
  taken_by: number | null
  taken_by_name: string | null
  cancelled_by_name: string | null
  approved_by_name: string | null
  paid_by_name: string | null
  /** Paisa of cash the desk took for the booking (completed, or since refunded). */
  booking_cash: number
  /** Paisa of the booking's cash-backs already handed over. */
  booking_paid_out: number
  /** Paisa of all the booking's cash-backs, due or handed over (what the approval amount is judged on). */
  booking_cash_backs: number
}

export type CashBackFilter = 'due' | 'paid' | 'all' | 'awaiting_approval'

export async function insertCashBack(trx: Executor, values: Insertable<CashBacks>): Promise<CashBackRow> {
  return trx.insertInto('cash_backs').values(values).returningAll().executeTakeFirstOrThrow()
}

/** Cash the drawer received for a booking: its desk payments in cash, refunded or not (the refund is a cash-back). */
const bookingCash = sql<number>`(
  SELECT coalesce(sum(q.amount), 0) FROM payments q
  WHERE q.payable_type = c.booking_type AND q.payable_id = c.booking_id AND q.recorded_by IS NOT NULL
    AND q.method = 'cash' AND q.status IN ('completed', 'partially_refunded', 'refunded')
)`

const bookingPaidOut = sql<number>`(
  SELECT coalesce(sum(o.amount), 0) FROM cash_backs o
  WHERE o.booking_type = c.booking_type AND o.booking_id = c.booking_id AND o.status = 'paid'
)`

/** All of a booking's cash-backs: one refund split over several cash payments is judged as a whole. */
const bookingCashBacks = sql<number>`(
  SELECT coalesce(sum(a.amount), 0) FROM cash_backs a
  WHERE a.booking_type = c.booking_type AND a.booking_id = c.booking_id
)`

function details(db: Executor) {
  return db
    .selectFrom('cash_backs as c')
    .innerJoin('payments as p', 'p.id', 'c.payment_id')
    .leftJoin('users as tu', 'tu.id', 'p.recorded_by')
    .leftJoin('users as cu', 'cu.id', 'c.cancelled_by')
    .leftJoin('users as au', 'au.id', 'c.approved_by')
    .leftJoin('users as pu', 'pu.id', 'c.paid_by')
    .selectAll('c')
    .select([
      'p.method as payment_method',
      'p.recorded_by as taken_by',
      'tu.name as taken_by_name',
      'cu.name as cancelled_by_name',
      'au.name as approved_by_name',
      'pu.name as paid_by_name',
      sql<string | null>`CASE c.booking_type
        WHEN 'court' THEN (SELECT b.booking_number FROM bookings b WHERE b.id = c.booking_id)
        WHEN 'indoor' THEN (SELECT i.booking_number FROM indoor_game_bookings i WHERE i.id = c.booking_id)
      END`.as('booking_number'),
      bookingCash.as('booking_cash'),
      bookingPaidOut.as('booking_paid_out'),
      bookingCashBacks.as('booking_cash_backs'),
    ])
}

const numeric = (r: CashBackDetailRow): CashBackDetailRow => ({
  ...r,
  booking_cash: Number(r.booking_cash),
  booking_paid_out: Number(r.booking_paid_out),
  booking_cash_backs: Number(r.booking_cash_backs),
})

/**
 * The venue's cash-backs, newest first: due, paid, all, or due ones of cash above `approvalAmount`
 * paisa that no one has approved yet (awaiting_approval; one of a payment that was not cash is never
 * paid from the drawer, so it awaits no approval).
 */
export async function listCashBacks(
  db: Executor,
  venueId: number,
  status: CashBackFilter,
  approvalAmount: number,
): Promise<CashBackDetailRow[]> {
  let q = details(db).where('c.venue_id', '=', venueId)
  if (status === 'awaiting_approval') {
    q = q
      .where('c.status', '=', 'due')
      .where(bookingCashBacks, '>', approvalAmount)
      .where('c.approved_at', 'is', null)
      .where('p.method', '=', 'cash')
  } else if (status !== 'all') q = q.where('c.status', '=', status)
  const rows = await q.orderBy('c.created_at', 'desc').orderBy('c.id', 'desc').execute()
  return rows.map(numeric)
}

/** The venue's cash-backs that fell due or were handed over in [start, end), oldest first. */
export async function cashBacksOfPeriod(
  db: Executor,
  venueId: number,
  start: Date,
  end: Date,
): Promise<CashBackDetailRow[]> {
  const rows = await details(db)
    .where('c.venue_id', '=', venueId)
    .where((eb) =>
      eb.or([
        eb.and([eb('c.created_at', '>=', start), eb('c.created_at', '<', end)]),
        eb.and([eb('c.paid_at', '>=', start), eb('c.paid_at', '<', end)]),
      ]),
    )
    .orderBy('c.created_at')
    .orderBy('c.id')
    .execute()
  return rows.map(numeric)
}

export async function findCashBackDetail(
  db: Executor,
  venueId: number,
  id: number,
): Promise<CashBackDetailRow | undefined> {
  const row = await details(db).where('c.id', '=', id).where('c.venue_id', '=', venueId).executeTakeFirst()
  return row ? numeric(row) : undefined
}

/** Marks a due cash-back paid, once: undefined when it is not due (or not this venue's). */
export async function markCashBackPaid(
  trx: Executor,
  venueId: number,
  id: number,
  by: number,
  at: Date,
  approve: boolean,
) {
  return trx
    .updateTable('cash_backs')
    .set(
      approve
        ? {
            status: 'paid',
            paid_by: by,
            paid_at: at,
            approved_by: sql<number>`coalesce(approved_by, ${by})`,
            approved_at: sql<Date>`coalesce(approved_at, ${at})`,
          }
        : { status: 'paid', paid_by: by, paid_at: at },
    )
    .where('id', '=', id)
    .where('venue_id', '=', venueId)
    .where('status', '=', 'due')
    .returningAll()
    .executeTakeFirst()
}

/** Records an approval of a due, unapproved cash-back, once: undefined when it is not. */
export async function markCashBackApproved(trx: Executor, venueId: number, id: number, by: number, at: Date) {
  return trx
    .updateTable('cash_backs')
    .set({ approved_by: by, approved_at: at })
    .where('id', '=', id)
    .where('venue_id', '=', venueId)
    .where('status', '=', 'due')
    .where('approved_at', 'is', null)
    .returningAll()
    .executeTakeFirst()
}

export async function findCashBack(db: Executor, venueId: number, id: number) {
  return db.selectFrom('cash_backs').selectAll().where('id', '=', id).where('venue_id', '=', venueId).executeTakeFirst()
}

/** The venue's owner (to tell about cash-backs) and its name. */
export async function venueOwnerOf(db: Executor, venueId: number) {
  return db.selectFrom('venues').select(['owner_id', 'name']).where('id', '=', venueId).executeTakeFirst()
}
