import { type RawBuilder, sql } from 'kysely'
import type { Executor } from '../../lib/db.ts'
import { NOT_REVENUE_KINDS, REFUND_KINDS } from '../ledger/index.ts'

// Read models of the reports (docs/reports.md): a venue's bookings, money and hours over a range
// of venue-local days, each answered by one aggregating query, and the exports read in keyset
// batches so a year of a busy venue is never held in memory.

/** A report's scope: the venue, its venue-local days [from, to], and optionally one kind of booking. */
export interface Scope {
  venueId: number
  from: string
  to: string
  /** The instants the range starts and ends (start of `from`, start of the day after `to`). */
  start: Date
  end: Date
  kind?: 'court' | 'indoor'
  /** The venue time zone's name (money is bucketed by the venue-local day it moved). */
  zone: string
}

/** Both kinds of booking as one relation: kind, id, resource, and the columns they share. */
function allBookings(venueId: number, kind: Scope['kind']): RawBuilder<unknown> {
  const court = sql`
    SELECT 'court'::text AS kind, b.id, b.court_id AS resource_id, b.booking_number, b.date, b.start_time,
      b.end_time, b.status, b.type, b.user_id, b.customer_name, b.customer_phone, b.total_amount,
      b.discount_amount, b.extras_total, b.paid_amount, b.refunded_amount, b.payment_method,
      b.hold_expires_at, b.created_at, b.cancelled_at, b.cancel_reason
    FROM bookings b WHERE b.venue_id = ${venueId}`
  const indoor = sql`
    SELECT 'indoor'::text AS kind, b.id, b.indoor_game_id AS resource_id, b.booking_number, b.date, b.start_time,
      b.end_time, b.status, b.type, b.user_id, b.customer_name, b.customer_phone, b.total_amount,
      b.discount_amount, b.extras_total, b.paid_amount, b.refunded_amount, b.payment_method,
      b.hold_expires_at, b.created_at, b.cancelled_at, b.cancel_reason
    FROM indoor_game_bookings b WHERE b.venue_id = ${venueId}`
  if (kind === 'court') return court
  if (kind === 'indoor') return indoor
  return sql`${court} UNION ALL ${indoor}`
}

/** Bookings of the range by venue-local date and status: [{date, status, n}]. */
export async function bookingCounts(db: Executor, s: Scope) {
  const { rows } = await sql<{ date: string; status: string; n: string }>`
    SELECT b.date::text AS date, b.status, count(*) AS n
    FROM (${allBookings(s.venueId, s.kind)}) b
    WHERE b.date BETWEEN ${s.from}::date AND ${s.to}::date
    GROUP BY b.date, b.status`.execute(db)
  return rows.map((r) => ({ date: r.date, status: r.status, n: Number(r.n) }))
}

/**
 * The no-show rate's parts: of the range's bookings that are not cancelled and whose start (venue
 * wall clock) is before `now`, how many, and how many of them are no-shows.
 */
export async function noShowParts(db: Executor, s: Scope, now: { date: string; time: string }) {
  const { rows } = await sql<{ started: string; no_shows: string }>`
    SELECT count(*) AS started, count(*) FILTER (WHERE b.status = 'no_show') AS no_shows
    FROM (${allBookings(s.venueId, s.kind)}) b
    WHERE b.date BETWEEN ${s.from}::date AND ${s.to}::date AND b.status <> 'cancelled'
      AND (b.date < ${now.date}::date OR (b.date = ${now.date}::date AND b.start_time < ${now.time}::time))`.execute(db)
  return { started: Number(rows[0]?.started ?? 0), noShows: Number(rows[0]?.no_shows ?? 0) }
}

/**
 * The revenue lines of the range (the statement's: docs/payments.md, "What a venue sees"): every
 * line on `venue:{id}:balance` except commission and payouts, and every line on
 * `venue:{id}:desk_sales`, signed as money to the venue (credit positive), with its venue-local
 * day, the payment's method, whether it is a refund, and the booking it concerns.
 */
function revenueLines(s: Scope) {
  const balance = `venue:${s.venueId}:balance`
  const desk = `venue:${s.venueId}:desk_sales`
  return sql`
    SELECT (e.occurred_at AT TIME ZONE ${s.zone})::date AS day, p.method, e.booking_type, e.booking_id,
      -l.amount AS amount,
      CASE WHEN l.account = ${desk} THEN l.amount > 0 ELSE e.kind IN (${sql.join(REFUND_KINDS)}) END AS refund
    FROM ledger_lines l
    JOIN ledger_entries e ON e.id = l.entry_id
    LEFT JOIN payments p ON p.id = e.payment_id
    WHERE l.account IN (${balance}, ${desk})
      AND e.occurred_at >= ${s.start} AND e.occurred_at < ${s.end}
      AND NOT (l.account = ${balance} AND e.kind IN (${sql.join(NOT_REVENUE_KINDS)}))
      ${s.kind ? sql`AND e.booking_type = ${s.kind}` : sql``}`
}

/** Revenue of the range by venue-local day and method: gross and refunds in paisa (refunds positive). */
export async function revenueByDayAndMethod(db: Executor, s: Scope) {
  const { rows } = await sql<{ day: string; method: string | null; gross: string; refunds: string }>`
    SELECT m.day::text AS day, m.method,
      coalesce(sum(m.amount) FILTER (WHERE NOT m.refund), 0) AS gross,
      coalesce(-sum(m.amount) FILTER (WHERE m.refund), 0) AS refunds
    FROM (${revenueLines(s)}) m
    GROUP BY m.day, m.method`.execute(db)
  return rows.map((r) => ({ day: r.day, method: r.method, gross: Number(r.gross), refunds: Number(r.refunds) }))
}

/**
 * The customers with the most net revenue in the range: a customer is an account (user_id), else a
 * desk customer by phone, else by name. `bookings` counts their bookings of the range that are not
 * cancelled; `net` the revenue lines of their bookings in the range.
 */
export async function topCustomers(db: Executor, s: Scope, limit: number) {
  const { rows } = await sql<{ name: string; phone: string | null; bookings: string; net: string }>`
    WITH b AS (
      SELECT b.kind, b.id, b.date, b.status,
        CASE WHEN b.user_id IS NOT NULL THEN 'u' || b.user_id
             WHEN nullif(trim(b.customer_phone), '') IS NOT NULL THEN 'p' || trim(b.customer_phone)
             ELSE 'n' || lower(trim(b.customer_name)) END AS customer,
        coalesce(u.name, b.customer_name) AS name,
        coalesce(u.phone, nullif(trim(b.customer_phone), '')) AS phone
      FROM (${allBookings(s.venueId, s.kind)}) b LEFT JOIN users u ON u.id = b.user_id
    ),
    counted AS (
      SELECT customer, count(*) AS bookings FROM b
      WHERE date BETWEEN ${s.from}::date AND ${s.to}::date AND status <> 'cancelled'
      GROUP BY customer
    ),
    money AS (
      SELECT b.customer, sum(m.amount) AS net FROM (${revenueLines(s)}) m
      JOIN b ON b.kind = m.booking_type AND b.id = m.booking_id
      GROUP BY b.customer
    ),
    named AS (
      SELECT DISTINCT ON (customer) customer, name, phone FROM b ORDER BY customer, date DESC, id DESC
    )
    SELECT n.name, n.phone, coalesce(c.bookings, 0) AS bookings, coalesce(m.net, 0) AS net
    FROM counted c FULL JOIN money m ON m.customer = c.customer
    JOIN named n ON n.customer = coalesce(c.customer, m.customer)
    ORDER BY coalesce(m.net, 0) DESC, coalesce(c.bookings, 0) DESC, n.name, n.customer
    LIMIT ${limit}`.execute(db)
  return rows.map((r) => ({ name: r.name, phone: r.phone, bookings: Number(r.bookings), net: Number(r.net) }))
}

/**
 * Booked minutes of the range by weekday (0 = Sunday) and hour of the day (venue wall clock), of
 * bookings that hold their slot: confirmed, playing, completed, no-show, and pending ones whose
 * payment hold is still running (or has none) at `now`.
 */
export async function bookedMinutesByHour(db: Executor, s: Scope, now: Date) {
  const { rows } = await sql<{ weekday: number; hour: number; minutes: string }>`
    WITH live AS (
      SELECT b.date, b.start_time, b.end_time FROM (${allBookings(s.venueId, s.kind)}) b
      WHERE b.date BETWEEN ${s.from}::date AND ${s.to}::date
        AND (b.status IN ('confirmed', 'playing', 'completed', 'no_show')
          OR (b.status = 'pending' AND (b.hold_expires_at IS NULL OR b.hold_expires_at > ${now})))
        AND b.end_time > b.start_time
    )
    SELECT extract(dow FROM l.date)::int AS weekday, h.hour,
      sum(extract(epoch FROM least(l.end_time, make_time(h.hour, 0, 0) + interval '1 hour')
        - greatest(l.start_time, make_time(h.hour, 0, 0))) / 60) AS minutes
    FROM live l
    CROSS JOIN LATERAL generate_series(extract(hour FROM l.start_time)::int,
      extract(hour FROM l.end_time - interval '1 second')::int) AS h(hour)
    GROUP BY 1, 2`.execute(db)
  return rows.map((r) => ({ weekday: Number(r.weekday), hour: Number(r.hour), minutes: Number(r.minutes) }))
}

/** The venue's hours, and its active courts' weekly schedules (a weekday without an entry keeps the venue's hours). */
export async function openingSetup(db: Executor, venueId: number) {
  const [venue, courts, schedules, games] = await Promise.all([
    db
      .selectFrom('venues')
      .select(['opening_time', 'closing_time'])
      .where('id', '=', venueId)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('courts')
      .select('id')
      .where('venue_id', '=', venueId)
      .where('is_active', '=', true)
      .where('deleted_at', 'is', null)
      .orderBy('id')
      .execute(),
    db
      .selectFrom('court_schedules as s')
      .innerJoin('courts as c', 'c.id', 's.court_id')
      .select(['s.court_id', 's.day_of_week', 's.open_time', 's.close_time', 's.is_closed'])
      .where('c.venue_id', '=', venueId)
      .execute(),
    db
      .selectFrom('indoor_games')
      .select('id')
      .where('venue_id', '=', venueId)
      .where('is_active', '=', true)
      .where('deleted_at', 'is', null)
      .orderBy('id')
      .execute(),
  ])
  return { venue, courts: courts.map((c) => c.id), schedules, games: games.map((g) => g.id) }
}

/** Maintenance blocks of the venue's courts on the range's days. */
export async function blocksIn(db: Executor, venueId: number, from: string, to: string) {
  const { rows } = await sql<{ court_id: number; date: string; start_time: string; end_time: string }>`
    SELECT k.court_id, k.date::text AS date, k.start_time, k.end_time
    FROM court_blocks k JOIN courts c ON c.id = k.court_id
    WHERE c.venue_id = ${venueId} AND k.date BETWEEN ${from}::date AND ${to}::date`.execute(db)
  return rows.map((r) => ({ ...r, court_id: Number(r.court_id) }))
}

// ---------------------------------------------------------------------------------------------
// Exports: keyset batches (the last row's key goes into the next query), never an OFFSET.

export interface BookingExportRow {
  kind: string
  id: number
  booking_number: string
  date: string
  start_time: string
  end_time: string
  resource: string | null
  status: string
  type: string
  customer_name: string
  customer_phone: string | null
  customer_email: string | null
  total_amount: number
  discount_amount: number
  extras_total: number
  paid_amount: number
  refunded_amount: number
  payment_method: string | null
  created_at: Date
  cancelled_at: Date | null
  cancel_reason: string | null
}

export type BookingCursor = { date: string; start_time: string; kind: string; id: number }

/** Up to `limit` bookings of the range after `after`, by date, start time, kind and id. */
export async function bookingsBatch(
  db: Executor,
  s: Scope,
  after: BookingCursor | null,
  limit: number,
): Promise<BookingExportRow[]> {
  const { rows } = await sql<BookingExportRow & { id: string }>`
    SELECT b.kind, b.id, b.booking_number, b.date::text AS date, b.start_time, b.end_time,
      CASE b.kind WHEN 'court' THEN (SELECT c.name FROM courts c WHERE c.id = b.resource_id)
        ELSE (SELECT g.name FROM indoor_games g WHERE g.id = b.resource_id) END AS resource,
      b.status, b.type, coalesce(u.name, b.customer_name) AS customer_name,
      coalesce(nullif(b.customer_phone, ''), u.phone) AS customer_phone, u.email AS customer_email,
      b.total_amount, b.discount_amount, b.extras_total, b.paid_amount, b.refunded_amount, b.payment_method,
      b.created_at, b.cancelled_at, b.cancel_reason
    FROM (${allBookings(s.venueId, s.kind)}) b LEFT JOIN users u ON u.id = b.user_id
    WHERE b.date BETWEEN ${s.from}::date AND ${s.to}::date
      ${
        after
          ? sql`AND (b.date, b.start_time, b.kind, b.id) > (${after.date}::date, ${after.start_time}::time, ${after.kind}::text, ${after.id}::bigint)`
          : sql``
      }
    ORDER BY b.date, b.start_time, b.kind, b.id
    LIMIT ${limit}`.execute(db)
  return rows.map((r) => ({
    ...r,
    id: Number(r.id),
    total_amount: Number(r.total_amount),
    discount_amount: Number(r.discount_amount),
    extras_total: Number(r.extras_total),
    paid_amount: Number(r.paid_amount),
    refunded_amount: Number(r.refunded_amount),
  }))
}

export interface PaymentExportRow {
  id: number
  completed_at: Date
  /** The exact instant as the database wrote it, the next batch's key (a Date keeps only milliseconds). */
  cursor_at: string
  kind: string
  booking_number: string
  customer_name: string
  method: string
  recorded_by: string | null
  status: string
  amount: number
  refunded_amount: number
  reference: string | null
  gateway_transaction_id: string | null
  /** A gateway payment staff typed a reference for before desk QR payments (migration 030). */
  unverified: boolean
}

export type PaymentCursor = { at: string; id: number }

/**
 * Up to `limit` payments of the venue's bookings received in the range (completed_at; refunded ones
 * too: the money came in), after `after`, by the instant received and id.
 */
export async function paymentsBatch(
  db: Executor,
  s: Scope,
  after: PaymentCursor | null,
  limit: number,
): Promise<PaymentExportRow[]> {
  const { rows } = await sql<PaymentExportRow & { id: string; amount: string; refunded_amount: string }>`
    SELECT p.id, p.completed_at, p.completed_at::text AS cursor_at, b.kind, b.booking_number,
      coalesce(u.name, b.customer_name) AS customer_name, p.method, r.name AS recorded_by, p.status,
      p.amount, p.refunded_amount, p.reference, p.gateway_transaction_id, p.unverified
    FROM payments p
    JOIN (${allBookings(s.venueId, s.kind)}) b ON b.kind = p.payable_type AND b.id = p.payable_id
    LEFT JOIN users u ON u.id = b.user_id
    LEFT JOIN users r ON r.id = p.recorded_by
    WHERE p.completed_at >= ${s.start} AND p.completed_at < ${s.end}
      AND p.status IN ('completed', 'partially_refunded', 'refunded')
      ${after ? sql`AND (p.completed_at, p.id) > (${after.at}::timestamptz, ${after.id}::bigint)` : sql``}
    ORDER BY p.completed_at, p.id
    LIMIT ${limit}`.execute(db)
  return rows.map((r) => ({
    ...r,
    id: Number(r.id),
    completed_at: new Date(r.completed_at),
    amount: Number(r.amount),
    refunded_amount: Number(r.refunded_amount),
  }))
}

// ---------------------------------------------------------------------------------------------
// Cash-up: the desk's money of one venue-local day [start, end).

export interface DeskPaymentRow {
  id: number
  method: string
  amount: number
  completed_at: Date
  staff_id: number
  staff_name: string | null
  kind: string
  booking_number: string
  customer_name: string
  unverified: boolean
}

/** Payments staff recorded at the desk (cash and counter payments) received in [start, end), oldest first. */
export async function deskPaymentsIn(db: Executor, venueId: number, start: Date, end: Date): Promise<DeskPaymentRow[]> {
  const { rows } = await sql<DeskPaymentRow>`
    SELECT p.id, p.method, p.amount, p.completed_at, p.recorded_by AS staff_id, r.name AS staff_name, b.kind,
      b.booking_number, coalesce(u.name, b.customer_name) AS customer_name, p.unverified
    FROM payments p
    JOIN (${allBookings(venueId, undefined)}) b ON b.kind = p.payable_type AND b.id = p.payable_id
    LEFT JOIN users r ON r.id = p.recorded_by
    LEFT JOIN users u ON u.id = b.user_id
    WHERE p.recorded_by IS NOT NULL AND p.completed_at >= ${start} AND p.completed_at < ${end}
      AND p.status IN ('completed', 'partially_refunded', 'refunded')
    ORDER BY p.completed_at, p.id`.execute(db)
  return rows.map((r) => ({
    ...r,
    id: Number(r.id),
    amount: Number(r.amount),
    staff_id: Number(r.staff_id),
    completed_at: new Date(r.completed_at),
  }))
}

export interface PaidCashBackRow {
  id: number
  amount: number
  paid_at: Date
  staff_id: number | null
  staff_name: string | null
  payment_id: number
  kind: string
  booking_number: string | null
  reason: string | null
}

/** Cash-backs of the venue handed over at the desk in [start, end), oldest first. */
export async function cashBacksPaidIn(
  db: Executor,
  venueId: number,
  start: Date,
  end: Date,
): Promise<PaidCashBackRow[]> {
  const { rows } = await sql<PaidCashBackRow>`
    SELECT c.id, c.amount, c.paid_at, c.paid_by AS staff_id, r.name AS staff_name, c.payment_id,
      c.booking_type AS kind, c.reason,
      CASE c.booking_type
        WHEN 'court' THEN (SELECT b.booking_number FROM bookings b WHERE b.id = c.booking_id)
        WHEN 'indoor' THEN (SELECT i.booking_number FROM indoor_game_bookings i WHERE i.id = c.booking_id)
      END AS booking_number
    FROM cash_backs c LEFT JOIN users r ON r.id = c.paid_by
    WHERE c.venue_id = ${venueId} AND c.status = 'paid' AND c.paid_at >= ${start} AND c.paid_at < ${end}
    ORDER BY c.paid_at, c.id`.execute(db)
  return rows.map((r) => ({
    ...r,
    id: Number(r.id),
    amount: Number(r.amount),
    staff_id: r.staff_id === null ? null : Number(r.staff_id),
    payment_id: Number(r.payment_id),
    paid_at: new Date(r.paid_at),
  }))
}
