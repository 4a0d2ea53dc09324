import type { Insertable, RawBuilder } from 'kysely'
import { jsonObjectFrom } from 'kysely/helpers/postgres'
import type { Bookings } from '../../db/types.ts'
import { type Executor, ReusedStatements } from '../../lib/db.ts'
import {
  allocatedNumberAfterHold,
  allocatedNumberWithPrefix,
  holdByPhone,
  numberPrefix,
  type UnpaidHold,
} from '../booking-core/index.ts'

// Queries on court bookings (the `bookings` table).

/** A booking id from the path (undefined → 404). */
export { parseId } from '../../lib/ids.ts'

type NewBookingRow = Omit<Insertable<Bookings>, 'booking_number'>

/**
 * A customer's own booking's INSERT: their unpaid cap, counted inside it, and the hold it gets
 * while they have no verified phone (PreparedBooking.unverifiedHold; the row's hold_expires_at is a
 * verified customer's).
 */
export interface CustomerInsert extends UnpaidHold {
  unverifiedHold: Date | null
}

/**
 * Inserts a court booking, numbered in the same statement (see allocatedNumber), and returns the
 * whole row with its venue's summary and its customer's wallet balance. One round trip; the exclusion
 * constraint may refuse it (23P01).
 *
 * With `hold` (a customer's own booking with something to pay) the same statement first counts the
 * customer's unpaid bookings under their lock (allocatedNumberAfterHold) and raises CSU01 at the cap,
 * and writes the hold their phone calls for (holdByPhone: a verified customer's, else
 * `hold.unverifiedHold`): still one round trip, where a transaction of its own (BEGIN, the lock,
 * the count, the INSERT, COMMIT) took five (docs/performance.md, "Booking creation").
 *
 * The statement is built with Kysely once per set of columns and its SQL reused after that
 * (ReusedStatements, which derives the parameter order from the arguments): building it is a large
 * share of a booking's CPU in Node (docs/performance.md, "Why the hot paths look this way").
 */
export async function insertBooking(db: Executor, values: NewBookingRow, year: number, hold?: CustomerInsert) {
  const number_prefix = numberPrefix('BK', year)
  if (!hold) {
    const columns = Object.keys(values).join()
    const rows = await statements.run(db, `insert:${columns}`, { ...values, number_prefix }, (a) => buildInsert(db, a))
    return rows[0]!
  }
  // The hold is written last, after the number, from its own arguments: the shape lists the other
  // columns, in the order of their parameters (bench/pgbench.ts reads them so).
  const { hold_expires_at, ...columns } = values
  const rows = await statements.run(
    db,
    `insert-held:${Object.keys(columns).join()}`,
    {
      ...columns,
      number_prefix,
      hold_user: hold.userId,
      hold_max: hold.max,
      hold_now: hold.now,
      hold_wall: hold.wall,
      hold_verified: hold_expires_at ?? null,
      hold_unverified: hold.unverifiedHold,
    },
    (a) => buildHeldInsert(db, a),
  )
  return rows[0]!
}

/** The row's columns and the booking number's prefix ("BK-2026-"), the statement's arguments. */
type InsertArgs = NewBookingRow & { number_prefix: string }

/** InsertArgs but the hold, the customer's unpaid cap (UnpaidHold's fields) and the hold by their phone. */
type HeldInsertArgs = Omit<InsertArgs, 'hold_expires_at'> & {
  hold_user: number
  hold_max: number
  hold_now: Date
  hold_wall: string
  hold_verified: Date | string | null
  hold_unverified: Date | null
}

/** The INSERT per column set (a handful of shapes: online, desk, coupon bookings). */
export const statements = new ReusedStatements()

function buildInsert(db: Executor, { number_prefix, ...values }: InsertArgs) {
  return insertReturning(db, {
    ...values,
    booking_number: allocatedNumberWithPrefix('BK', number_prefix, values.court_id),
  })
}

function buildHeldInsert(
  db: Executor,
  {
    number_prefix,
    hold_user,
    hold_max,
    hold_now,
    hold_wall,
    hold_verified,
    hold_unverified,
    ...values
  }: HeldInsertArgs,
) {
  const hold = { userId: hold_user, max: hold_max, now: hold_now, wall: hold_wall }
  return insertReturning(db, {
    ...values,
    booking_number: allocatedNumberAfterHold('BK', number_prefix, values.court_id, hold),
    hold_expires_at: holdByPhone(hold_user, hold_verified, hold_unverified),
  })
}

function insertReturning(
  db: Executor,
  row: Omit<NewBookingRow, 'hold_expires_at'> & {
    booking_number: RawBuilder<string>
    hold_expires_at?: NewBookingRow['hold_expires_at'] | RawBuilder<Date>
  },
) {
  return db
    .insertInto('bookings')
    .values(row)
    .returningAll()
    .returning((eb) =>
      jsonObjectFrom(
        eb.selectFrom('venues as v').select(['v.id', 'v.name', 'v.slug']).whereRef('v.id', '=', 'bookings.venue_id'),
      ).as('venue'),
    )
    .returning((eb) =>
      eb
        .selectFrom('users as u')
        .select('u.wallet_balance')
        .whereRef('u.id', '=', 'bookings.user_id')
        .as('customer_wallet_balance'),
    )
}

/** The court a booking is made on, with its venue's state; undefined when the court does not exist. */
export async function courtForBooking(db: Executor, courtId: number) {
  return db
    .selectFrom('courts as c')
    .innerJoin('venues as v', 'v.id', 'c.venue_id')
    .select(['c.id', 'c.venue_id', 'c.is_active', 'v.is_active as venue_active', 'v.verification_status'])
    .where('c.id', '=', courtId)
    .where('c.deleted_at', 'is', null)
    .where('v.deleted_at', 'is', null)
    .executeTakeFirst()
}

/** A recurring series' row (the occurrences are bookings with its series_id). */
export async function insertSeries(
  db: Executor,
  values: {
    user_id: number | null
    court_id: number
    venue_id: number
    type: string
    weekday: number
    start_date: string
    weeks: number
    start_time: string
    end_time: string
    customer_name: string
    customer_phone: string | null
    created_by: number
    created_at: Date
  },
): Promise<number> {
  const row = await db.insertInto('booking_series').values(values).returning('id').executeTakeFirstOrThrow()
  return row.id
}

export async function seriesById(db: Executor, id: number) {
  return db.selectFrom('booking_series').selectAll().where('id', '=', id).executeTakeFirst()
}

/** The series' occurrences, by date; `fromDate` keeps those on or after it. */
export async function seriesOccurrences(db: Executor, seriesId: number, fromDate?: string) {
  let q = db.selectFrom('bookings').select(['id', 'date', 'status']).where('series_id', '=', seriesId)
  if (fromDate !== undefined) q = q.where('date', '>=', fromDate)
  return q.orderBy('date').orderBy('id').execute()
}
