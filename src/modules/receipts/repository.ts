import type { Insertable, Selectable } from 'kysely'
import type { Receipts } from '../../db/types.ts'
import type { Executor } from '../../lib/db.ts'

// Receipts, credit notes and their per-venue, per-fiscal-year counters (migrations/018_receipts.sql).

export type ReceiptRow = Selectable<Receipts>
export type Series = 'receipt' | 'credit_note'
export type BookingKind = 'court' | 'indoor'

/**
 * The next number of a venue's series in a fiscal year: 1 for the first, then one more each time.
 * The counter row stays locked until the caller's transaction ends, so concurrent payments at one
 * venue take their numbers one after another, and a rollback gives the number back (gap-free).
 */
export async function nextNumber(trx: Executor, venueId: number, fiscalYear: string, series: Series): Promise<number> {
  const row = await trx
    .insertInto('receipt_counters')
    .values({ venue_id: venueId, fiscal_year: fiscalYear, series, last_number: 1 })
    .onConflict((oc) =>
      oc
        .columns(['venue_id', 'fiscal_year', 'series'])
        .doUpdateSet((eb) => ({ last_number: eb('receipt_counters.last_number', '+', 1) })),
    )
    .returning('last_number')
    .executeTakeFirstOrThrow()
  return row.last_number
}

/** What a receipt for a payment prints: the payment, its booking, the venue and what was booked. */
export interface PaymentFacts {
  payment_id: number
  method: string
  amount: number
  booking_type: BookingKind
  booking_id: number
  booking_number: string
  customer_name: string
  date: string
  start_time: string
  end_time: string
  item: string
  venue_id: number
  venue_name: string
  legal_name: string | null
  address: string
  city: string
  pan_number: string | null
  vat_registered: boolean
}

/** The facts of a booking payment, or undefined for a top-up or an unknown payment. */
export async function paymentFacts(db: Executor, paymentId: number): Promise<PaymentFacts | undefined> {
  const payment = await db
    .selectFrom('payments')
    .select(['id', 'method', 'amount', 'payable_type', 'payable_id'])
    .where('id', '=', paymentId)
    .executeTakeFirst()
  if (!payment || (payment.payable_type !== 'court' && payment.payable_type !== 'indoor')) return undefined
  const booking =
    payment.payable_type === 'court'
      ? await db
          .selectFrom('bookings as b')
          .innerJoin('courts as c', 'c.id', 'b.court_id')
          .select(['b.id', 'b.booking_number', 'b.customer_name', 'b.date', 'b.start_time', 'b.end_time', 'b.venue_id'])
          .select('c.name as item')
          .where('b.id', '=', payment.payable_id)
          .executeTakeFirst()
      : await db
          .selectFrom('indoor_game_bookings as b')
          .innerJoin('indoor_games as g', 'g.id', 'b.indoor_game_id')
          .select(['b.id', 'b.booking_number', 'b.customer_name', 'b.date', 'b.start_time', 'b.end_time', 'b.venue_id'])
          .select('g.name as item')
          .where('b.id', '=', payment.payable_id)
          .executeTakeFirst()
  if (!booking) return undefined
  const venue = await db
    .selectFrom('venues')
    .select(['name', 'legal_name', 'address', 'city', 'pan_number', 'vat_registered'])
    .where('id', '=', booking.venue_id)
    .executeTakeFirstOrThrow()
  return {
    payment_id: payment.id,
    method: payment.method,
    amount: payment.amount,
    booking_type: payment.payable_type,
    booking_id: booking.id,
    booking_number: booking.booking_number,
    customer_name: booking.customer_name,
    date: String(booking.date),
    start_time: booking.start_time,
    end_time: booking.end_time,
    item: booking.item,
    venue_id: booking.venue_id,
    venue_name: venue.name,
    legal_name: venue.legal_name,
    address: venue.address,
    city: venue.city,
    pan_number: venue.pan_number,
    vat_registered: venue.vat_registered,
  }
}

export async function insertReceipt(trx: Executor, values: Insertable<Receipts>): Promise<ReceiptRow> {
  return trx.insertInto('receipts').values(values).returningAll().executeTakeFirstOrThrow()
}

/** The receipt issued for a payment (the first, should there be several), or undefined. */
export async function receiptOfPayment(db: Executor, paymentId: number): Promise<ReceiptRow | undefined> {
  return db
    .selectFrom('receipts')
    .selectAll()
    .where('payment_id', '=', paymentId)
    .where('type', '=', 'receipt')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst()
}

export async function findReceipt(db: Executor, id: number): Promise<ReceiptRow | undefined> {
  return db.selectFrom('receipts').selectAll().where('id', '=', id).executeTakeFirst()
}

export async function findReceipts(db: Executor, ids: number[]): Promise<ReceiptRow[]> {
  if (ids.length === 0) return []
  return db.selectFrom('receipts').selectAll().where('id', 'in', ids).execute()
}

/** A booking's receipts and credit notes, oldest first. */
export async function receiptsOfBooking(db: Executor, kind: BookingKind, bookingId: number): Promise<ReceiptRow[]> {
  return db
    .selectFrom('receipts')
    .selectAll()
    .where('booking_type', '=', kind)
    .where('booking_id', '=', bookingId)
    .orderBy('id')
    .execute()
}

/** Who a booking belongs to: its customer account and venue; undefined when there is no such booking. */
export async function bookingParties(
  db: Executor,
  kind: BookingKind,
  bookingId: number,
): Promise<{ user_id: number | null; venue_id: number } | undefined> {
  const table = kind === 'court' ? 'bookings' : 'indoor_game_bookings'
  return db.selectFrom(table).select(['user_id', 'venue_id']).where('id', '=', bookingId).executeTakeFirst()
}
