import type { AppContext } from '../../lib/context.ts'
import { bsDate, cell, header, line, phoneCell } from '../../lib/csv.ts'
import type { Locale } from '../../lib/i18n/index.ts'
import { formatMoney } from '../../lib/money.ts'
import { methodName } from '../../lib/payment-methods.ts'
import { toHHmm } from '../../lib/time.ts'
import * as q from './queries.ts'
import { type RangeInput, scopeOf } from './service.ts'

// The CSV exports of a range: one row per booking (by the day it is for) or per payment (by the
// instant it was received), venue-local times with the BS date beside, amounts as plain decimals,
// written through src/lib/csv.ts (BOM, quoting, formula escaping, phones). Rows are read in keyset
// batches of EXPORT_BATCH and written as they come, so the whole range is never in memory; each
// batch is its own short query, so a long download never holds a database connection (or PGlite's
// one session) between batches.

/** Rows read per query. */
export const EXPORT_BATCH = 500

export const BOOKING_COLUMNS = [
  'booking_number',
  'kind',
  'date',
  'date_bs',
  'start_time',
  'end_time',
  'court_or_game',
  'status',
  'type',
  'customer_name',
  'customer_phone',
  'customer_email',
  'total_amount',
  'discount_amount',
  'extras_total',
  'paid_amount',
  'refunded_amount',
  'balance_due',
  'payment_method',
  'payment_method_name',
  'created_at',
  'cancelled_at',
  'cancel_reason',
] as const

export const PAYMENT_COLUMNS = [
  'payment_id',
  'received_at',
  'received_date_bs',
  'booking_number',
  'kind',
  'customer_name',
  'method',
  'method_name',
  'taken_at_desk_by',
  'status',
  'amount',
  'refunded_amount',
  'net_amount',
  'reference',
  'gateway_transaction_id',
  'unverified',
] as const

/**
 * The bookings export: a header row (in `locale`, with the method names), then one row per booking
 * of the range; 422 like the summary.
 */
export function bookingsCsv(
  ctx: AppContext,
  venueId: number,
  input: RangeInput,
  locale: Locale = 'en',
): AsyncGenerator<string> {
  const s = scopeOf(ctx, venueId, input)
  return (async function* () {
    yield header(BOOKING_COLUMNS, locale)
    let after: q.BookingCursor | null = null
    for (;;) {
      const rows = await q.bookingsBatch(ctx.db, s, after, EXPORT_BATCH)
      if (rows.length === 0) return
      let chunk = ''
      for (const b of rows) {
        chunk += line([
          cell(b.booking_number),
          b.kind,
          b.date,
          bsDate(b.date),
          toHHmm(b.start_time),
          toHHmm(b.end_time),
          cell(b.resource, true),
          b.status,
          b.type,
          cell(b.customer_name, true),
          phoneCell(b.customer_phone),
          cell(b.customer_email, true),
          formatMoney(b.total_amount),
          formatMoney(b.discount_amount),
          formatMoney(b.extras_total),
          formatMoney(b.paid_amount),
          formatMoney(b.refunded_amount),
          formatMoney(Math.max(b.total_amount - b.paid_amount, 0)),
          b.payment_method ?? '',
          methodName(b.payment_method, locale),
          ctx.zone.format(b.created_at),
          ctx.zone.format(b.cancelled_at) ?? '',
          cell(b.cancel_reason, true),
        ])
      }
      yield chunk
      if (rows.length < EXPORT_BATCH) return
      const last = rows[rows.length - 1]
      after = { date: last.date, start_time: last.start_time, kind: last.kind, id: last.id }
    }
  })()
}

/** The payments export: a header row (in `locale`, as the method names), then one row per payment received in the range. */
export function paymentsCsv(
  ctx: AppContext,
  venueId: number,
  input: RangeInput,
  locale: Locale = 'en',
): AsyncGenerator<string> {
  const s = scopeOf(ctx, venueId, input)
  return (async function* () {
    yield header(PAYMENT_COLUMNS, locale)
    let after: q.PaymentCursor | null = null
    for (;;) {
      const rows = await q.paymentsBatch(ctx.db, s, after, EXPORT_BATCH)
      if (rows.length === 0) return
      let chunk = ''
      for (const p of rows) {
        chunk += line([
          String(p.id),
          ctx.zone.format(p.completed_at),
          bsDate(ctx.zone.today(p.completed_at)),
          cell(p.booking_number),
          p.kind,
          cell(p.customer_name, true),
          p.method,
          methodName(p.method, locale),
          cell(p.recorded_by, true),
          p.status,
          formatMoney(p.amount),
          formatMoney(p.refunded_amount),
          formatMoney(p.amount - p.refunded_amount),
          cell(p.reference, true),
          cell(p.gateway_transaction_id, true),
          p.unverified ? 'yes' : '',
        ])
      }
      yield chunk
      if (rows.length < EXPORT_BATCH) return
      const last = rows[rows.length - 1]
      after = { at: last.cursor_at, id: last.id }
    }
  })()
}
