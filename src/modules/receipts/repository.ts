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
  /** The booking's customer account, who staff took desk money as, the gateway's reference. */
  user_id: number | null
  recorded_by: number | null
  transaction_id: string | null
  /** Paisa the customer actually paid (Fonepay P_AMT may be less than amount); null: amount. */
  paid_amount: number | null
  /** The booking's price: court/game hours × rate, extras, coupon discount, total, paid so far. */
  base_amount: number
  extras_total: number
  discount_amount: number
  total_amount: number
  booking_paid: number
  /** Of discount_amount, what a platform coupon (no venue) funds. */
  platform_discount: number
}

/** The facts of a booking payment, or undefined for a top-up or an unknown payment. */
export async function paymentFacts(db: Executor, paymentId: number): Promise<PaymentFacts | undefined> {
  const payment = await db
    .selectFrom('payments')
    .select([
      'id',
      'method',
      'amount',
      'paid_amount',
      'payable_type',
      'payable_id',
      'recorded_by',
      'gateway_transaction_id',
      'reference',
    ])
    .where('id', '=', paymentId)
    .executeTakeFirst()
  if (!payment || (payment.payable_type !== 'court' && payment.payable_type !== 'indoor')) return undefined
  const booking =
    payment.payable_type === 'court'
      ? await db
          .selectFrom('bookings as b')
          .innerJoin('courts as c', 'c.id', 'b.court_id')
          .select(['b.id', 'b.booking_number', 'b.customer_name', 'b.date', 'b.start_time', 'b.end_time', 'b.venue_id'])
          .select([
            'b.user_id',
            'b.base_amount',
            'b.extras_total',
            'b.discount_amount',
            'b.total_amount',
            'b.paid_amount',
          ])
          .select('c.name as item')
          .where('b.id', '=', payment.payable_id)
          .executeTakeFirst()
      : await db
          .selectFrom('indoor_game_bookings as b')
          .innerJoin('indoor_games as g', 'g.id', 'b.indoor_game_id')
          .select(['b.id', 'b.booking_number', 'b.customer_name', 'b.date', 'b.start_time', 'b.end_time', 'b.venue_id'])
          .select([
            'b.user_id',
            'b.base_amount',
            'b.extras_total',
            'b.discount_amount',
            'b.total_amount',
            'b.paid_amount',
          ])
          .select('g.name as item')
          .where('b.id', '=', payment.payable_id)
          .executeTakeFirst()
  if (!booking) return undefined
  const venue = await db
    .selectFrom('venues')
    .select(['name', 'legal_name', 'address', 'city', 'pan_number', 'vat_registered'])
    .where('id', '=', booking.venue_id)
    .executeTakeFirstOrThrow()
  const coupon = await db
    .selectFrom('coupon_usages as cu')
    .innerJoin('coupons as c', 'c.id', 'cu.coupon_id')
    .select('cu.discount_amount')
    .where('cu.booking_type', '=', payment.payable_type)
    .where('cu.booking_id', '=', booking.id)
    .where('c.venue_id', 'is', null)
    .executeTakeFirst()
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
    user_id: booking.user_id,
    recorded_by: payment.recorded_by,
    transaction_id: payment.gateway_transaction_id ?? payment.reference,
    paid_amount: payment.paid_amount,
    base_amount: Number(booking.base_amount),
    extras_total: Number(booking.extras_total),
    discount_amount: Number(booking.discount_amount),
    total_amount: Number(booking.total_amount),
    booking_paid: Number(booking.paid_amount),
    platform_discount: Number(coupon?.discount_amount ?? 0),
  }
}

/** The invoice details a customer keeps in their profile, or undefined. */
export async function customerDetails(db: Executor, userId: number) {
  return db
    .selectFrom('customer_invoice_details')
    .select(['buyer_pan', 'buyer_address', 'updated_at'])
    .where('user_id', '=', userId)
    .executeTakeFirst()
}

export async function saveCustomerDetails(
  db: Executor,
  userId: number,
  values: { buyer_pan: string | null; buyer_address: string | null },
  now: Date,
) {
  await db
    .insertInto('customer_invoice_details')
    .values({ user_id: userId, ...values, updated_at: now })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ ...values, updated_at: now }))
    .execute()
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

/** The desk's buyer details of invoices, by receipt id. */
export async function buyersOf(db: Executor, ids: number[]) {
  if (ids.length === 0) return new Map<number, { buyer_pan: string | null; buyer_address: string | null }>()
  const rows = await db
    .selectFrom('receipt_buyers')
    .select(['receipt_id', 'buyer_pan', 'buyer_address'])
    .where('receipt_id', 'in', ids)
    .execute()
  return new Map(rows.map((r) => [Number(r.receipt_id), { buyer_pan: r.buyer_pan, buyer_address: r.buyer_address }]))
}

export interface PrintFacts {
  count: number
  first_at: Date | null
  first_by: number | null
  first_by_name: string | null
}

/** How often each invoice was printed, and its original's print (when, by whom). */
export async function printsOf(db: Executor, ids: number[]): Promise<Map<number, PrintFacts>> {
  const out = new Map<number, PrintFacts>()
  if (ids.length === 0) return out
  const rows = await db
    .selectFrom('receipt_prints as p')
    .leftJoin('users as u', 'u.id', 'p.printed_by')
    .select(['p.receipt_id', 'p.copy_number', 'p.printed_at', 'p.printed_by', 'u.name'])
    .where('p.receipt_id', 'in', ids)
    .orderBy('p.copy_number')
    .execute()
  for (const r of rows) {
    const id = Number(r.receipt_id)
    const seen = out.get(id)
    if (seen) seen.count++
    else out.set(id, { count: 1, first_at: r.printed_at, first_by: r.printed_by, first_by_name: r.name })
  }
  return out
}

/** Each invoice's CBMS sync row (none: not_required), by receipt id. */
export async function syncsOf(db: Executor, ids: number[]) {
  if (ids.length === 0) return new Map<number, { status: string; realtime: boolean; last_error: string | null }>()
  const rows = await db
    .selectFrom('receipt_ird_sync')
    .select(['receipt_id', 'status', 'realtime', 'last_error'])
    .where('receipt_id', 'in', ids)
    .execute()
  return new Map(
    rows.map((r) => [Number(r.receipt_id), { status: r.status, realtime: r.realtime, last_error: r.last_error }]),
  )
}

/**
 * Records one print of a receipt and returns its copy number (0: the original). The receipt's row
 * is locked first, so two prints at once take 0 and 1, never the same number.
 */
export async function recordPrint(trx: Executor, receiptId: number, userId: number, now: Date): Promise<number> {
  await trx.selectFrom('receipts').select('id').where('id', '=', receiptId).forUpdate().executeTakeFirstOrThrow()
  const row = await trx
    .selectFrom('receipt_prints')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('receipt_id', '=', receiptId)
    .executeTakeFirstOrThrow()
  const copy = Number(row.n)
  await trx
    .insertInto('receipt_prints')
    .values({ receipt_id: receiptId, copy_number: copy, printed_by: userId, printed_at: now })
    .execute()
  return copy
}

/** Sets the desk's buyer details of a receipt not printed yet; false when it has been printed. */
export async function setBuyer(
  trx: Executor,
  receiptId: number,
  values: { buyer_pan: string | null; buyer_address: string | null },
  by: number,
  now: Date,
): Promise<boolean> {
  await trx.selectFrom('receipts').select('id').where('id', '=', receiptId).forUpdate().executeTakeFirstOrThrow()
  const printed = await trx
    .selectFrom('receipt_prints')
    .select('id')
    .where('receipt_id', '=', receiptId)
    .executeTakeFirst()
  if (printed) return false
  await trx
    .insertInto('receipt_buyers')
    .values({ receipt_id: receiptId, ...values, set_by: by, set_at: now })
    .onConflict((oc) => oc.column('receipt_id').doUpdateSet({ ...values, set_by: by, set_at: now }))
    .execute()
  return true
}
