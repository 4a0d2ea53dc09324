import type { Static } from 'typebox'
import { cacheTags } from '../../lib/cache-tags.ts'
import type { AppContext } from '../../lib/context.ts'
import type { Executor } from '../../lib/db.ts'
import { Invalid } from '../../lib/errors.ts'
import { isValidDate, toMinutes, toTimeWithSeconds } from '../../lib/time.ts'
import { loadDay, quoteDay } from '../availability/index.ts'
import { type Booker, capsApply, checkBookingRules, type HoldOf, holdUntil } from '../booking-core/index.ts'
import { checkCoupon } from '../coupons/index.ts'
import { courtForBooking, type insertBooking } from './repository.ts'
import type { CreateBody } from './schemas.ts'

// A court booking validated and priced before anything is written: the times, the court (visible
// to customers, the staff's own venue), the quote of that date (422/409), an unusable coupon (422),
// and the row the INSERT will write. Used by every path that creates a court booking.

/** What a customer's POST /bookings validated, plus the phone a desk booking may carry. */
export type NewBooking = Static<typeof CreateBody> & { customer_phone?: string | null }

const INVALID_COURT = 'The selected court id is invalid.'

/** Field checks the schema cannot express: a real date, today or later, end after start. */
function checkTimes(ctx: AppContext, input: NewBooking, now: Date, errors: Record<string, string[]>) {
  if (!isValidDate(input.date)) errors.date = ['The date field must be a valid date.']
  else if (input.date < ctx.zone.today(now)) errors.date = ['The date field must be a date after or equal to today.']
  if (toMinutes(input.end_time) <= toMinutes(input.start_time)) {
    errors.end_time = ['The end time field must be a time after start time.']
  }
}

/** A court the booker may book: active, and at a visible venue (customers) or at their own venue (staff). */
function usable(court: CourtState | undefined, booker: Booker): boolean {
  return (
    !!court?.is_active &&
    (booker.venueId === undefined
      ? court.venue_active && court.verification_status === 'verified'
      : court.venue_id === booker.venueId)
  )
}

interface CourtState {
  is_active: boolean
  venue_active: boolean
  verification_status: string
  venue_id: number
}

/**
 * The court's day (read cache, else one query) and the price of the range. 422 (court_id, date, end_time), then the quote's 422/409.
 * With `db` (a transaction, e.g. the one that freed a slot for a waitlist offer) the day is read through it, bypassing the cache.
 */
async function courtAndQuote(ctx: AppContext, input: NewBooking, booker: Booker, now: Date, db?: Executor) {
  const errors: Record<string, string[]> = {}
  checkTimes(ctx, input, now, errors)
  if (Object.keys(errors).length > 0) {
    // The day cannot be loaded for an impossible date; the court is still checked for the same 422.
    const court = await courtForBooking(db ?? ctx.db, input.court_id)
    throw new Invalid(usable(court, booker) ? errors : { court_id: [INVALID_COURT], ...errors })
  }
  // The day's setup (hours, rules, holiday, blocks) through the read cache; bookings are not part of
  // it (the INSERT's exclusion constraint judges those).
  const day = db
    ? await loadDay(db, 'court', input.court_id, input.date, { withBookings: false, now })
    : await ctx.cache.through(
        `court-day:${input.court_id}:${input.date}`,
        () => loadDay(ctx.db, 'court', input.court_id, input.date, { withBookings: false, now }),
        (d) => (d ? { tags: [cacheTags.court(d.id), cacheTags.venue(d.venue_id)] } : null),
      )
  if (!day || !usable(day, booker)) throw new Invalid({ court_id: [INVALID_COURT] })
  // 422 for a past start, 409 for a closed day, outside hours, off the slot grid or a maintenance block.
  return {
    court: day,
    // Staff may also book the slot in progress (a walk-in at 18:05 into 18:00–19:00); customers may not.
    quote: quoteDay('court', day, input.date, input.start_time, input.end_time, {
      zone: ctx.zone,
      now,
      inProgress: booker.venueId !== undefined,
    }),
  }
}

/** A booking validated and priced, ready to be inserted (once, or as one occurrence of a series). */
export interface PreparedBooking {
  input: NewBooking
  booker: Booker
  courtId: number
  venueId: number
  code: string | null
  /** No coupon and something to pay: the INSERT alone, with its payment intent in the row. */
  plain: boolean
  year: number
  values: Parameters<typeof insertBooking>[1]
  /**
   * The hold when the booking is a customer's own and they have no verified phone (holdUntil):
   * values.hold_expires_at is a verified customer's (and staff's). The INSERT or its transaction
   * chooses by the customer's phone (bookings/repository.ts insertBooking, series.ts).
   */
  unverifiedHold: Date | null
}

export interface PrepareOptions {
  /** Read the court's day through this executor (inside a transaction) instead of the read cache. */
  db?: Executor
  /** The occurrence's series. */
  seriesId?: number
  /** A hold other than the payment hold (a waitlist offer's window). */
  holdExpiresAt?: Date
  /** A week of a customer's series after its first: held until its start (holdUntil). */
  laterWeek?: boolean
}

/**
 * Validates a booking and prices its date (the quote): 422/409 before anything is written, an
 * unusable coupon included. The values are what the INSERT writes.
 */
export async function prepareCourtBooking(
  ctx: AppContext,
  input: NewBooking,
  booker: Booker,
  now: Date,
  opts: PrepareOptions = {},
): Promise<PreparedBooking> {
  const { court, quote } = await courtAndQuote(ctx, input, booker, now, opts.db)
  const code = input.coupon_code?.trim() || null
  // An unusable coupon is a 422 before anything is written (checked again, under lock, on redeem).
  if (code) {
    await checkCoupon(
      opts.db ?? ctx.db,
      { code, userId: booker.userId, venueId: court.venue_id, amount: quote.baseAmount, now },
      'coupon_code',
    )
  }
  const year = Number(ctx.zone.today(now).slice(0, 4))
  const online = booker.type === 'online'
  const method = input.payment_method ?? null
  const plain = !code && quote.baseAmount > 0
  // An unpaid online booking holds its slot only for the payment window; choosing a payment
  // method (here or through /api/payments/initiate) moves the hold. Desk bookings are not held
  // unless they name a method. A plain booking carries its payment intent (what setPaymentIntent
  // records) from the start.
  const held: HoldOf | null =
    (plain && method) || online
      ? {
          method: plain ? method : null,
          date: input.date,
          startTime: input.start_time,
          laterWeek: online && opts.laterWeek,
        }
      : null
  const hold = (verified: boolean) => opts.holdExpiresAt ?? (held ? holdUntil(ctx, held, now, verified) : null)
  const values = {
    user_id: booker.userId,
    court_id: court.id,
    venue_id: court.venue_id,
    type: booker.type,
    status: 'pending',
    date: input.date,
    start_time: toTimeWithSeconds(input.start_time),
    end_time: toTimeWithSeconds(input.end_time),
    base_amount: quote.baseAmount,
    discount_amount: 0,
    total_amount: quote.baseAmount,
    customer_name: booker.customerName,
    customer_phone: input.customer_phone?.trim() || booker.customerPhone,
    notes: input.notes?.trim() || null,
    created_by: booker.createdBy,
    payment_method: plain ? method : null,
    hold_expires_at: hold(true),
    ...(opts.seriesId === undefined ? {} : { series_id: opts.seriesId }),
  }
  // The venue's booking rules bind customers only (docs/bookings.md, "Booking rules").
  if (booker.venueId === undefined && booker.userId !== null) {
    await checkBookingRules(ctx, opts.db ?? ctx.db, {
      venueId: court.venue_id,
      userId: booker.userId,
      date: input.date,
      start: input.start_time,
      end: input.end_time,
      now,
      method,
      holdUntil: values.hold_expires_at,
    })
  }
  const unverifiedHold = capsApply(booker) ? hold(false) : values.hold_expires_at
  return { input, booker, courtId: court.id, venueId: court.venue_id, code, plain, year, values, unverifiedHold }
}
