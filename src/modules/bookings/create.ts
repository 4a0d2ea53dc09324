import type { Transaction } from 'kysely'
import type { Static } from 'typebox'
import type { DB } from '../../db/types.ts'
import { cacheTags } from '../../lib/cache-tags.ts'
import type { AppContext } from '../../lib/context.ts'
import type { Executor } from '../../lib/db.ts'
import { AppError, Conflict, Invalid } from '../../lib/errors.ts'
import { isValidDate, toHHmm, toMinutes, toTimeWithSeconds } from '../../lib/time.ts'
import { selectUsers, type UserRow, userResource } from '../accounts/index.ts'
import { COURT_UNAVAILABLE, loadCourtDay, quoteCourtDay } from '../availability/index.ts'
import {
  type AfterExpire,
  expireHoldsOn,
  HOLD_EXPIRED_REASON,
  holdUntil,
  setPaymentIntent,
  underSavepoint,
} from '../booking-core/index.ts'
import { checkCoupon, redeemCoupon } from '../coupons/index.ts'
import { loadCourtResources } from '../courts/index.ts'
import { notify } from '../notifications/index.ts'
import { venueSummary } from '../venues/index.ts'
import { claimEntry, closeOffer, setOfferBooking, waitingFor } from '../waitlist/index.ts'
import { emitBookingEvent, hasSubscribers } from '../webhooks/index.ts'
import { loadBooking } from './queries.ts'
import {
  bookingNumberOf,
  bookingSlot,
  confirmFree,
  courtForBooking,
  insertBooking,
  isOverlapViolation,
  setDiscount,
} from './repository.ts'
import { type Booking, bookingResource } from './resource.ts'
import type { CreateBody } from './schemas.ts'

// Creating a court booking, for customers (online) and venue staff (offline, walk-in) alike.

/** What a customer's POST /bookings validated, plus the phone a desk booking may carry. */
export type NewBooking = Static<typeof CreateBody> & { customer_phone?: string | null }

export interface Booker {
  type: 'online' | 'offline' | 'walkin'
  userId: number | null
  customerName: string
  customerPhone: string | null
  createdBy: number
  /** Staff book only the courts of their venue; customers only courts of visible venues. */
  venueId?: number
}

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
    ? await loadCourtDay(db, input.court_id, input.date, { withBookings: false, now })
    : await ctx.cache.through(
        `court-day:${input.court_id}:${input.date}`,
        () => loadCourtDay(ctx.db, input.court_id, input.date, { withBookings: false, now }),
        (d) => (d ? { tags: [cacheTags.court(d.id), cacheTags.venue(d.venue_id)] } : null),
      )
  if (!day || !usable(day, booker)) throw new Invalid({ court_id: [INVALID_COURT] })
  // 422 for a past start, 409 for a closed day, outside hours, off the slot grid or a maintenance block.
  return {
    court: day,
    quote: quoteCourtDay(day, input.date, input.start_time, input.end_time, { zone: ctx.zone, now }),
  }
}

type BookingRow = Awaited<ReturnType<typeof insertBooking>>

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
}

export interface PrepareOptions {
  /** Read the court's day through this executor (inside a transaction) instead of the read cache. */
  db?: Executor
  /** The occurrence's series. */
  seriesId?: number
  /** A hold other than the payment hold (a waitlist offer's window). */
  holdExpiresAt?: Date
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
    // An unpaid online booking holds its slot only for the payment window; choosing a payment
    // method (here or through /api/payments/initiate) moves the hold. Desk bookings are not held.
    // A plain booking carries its payment intent (what setPaymentIntent records) from the start.
    payment_method: plain ? method : null,
    hold_expires_at:
      opts.holdExpiresAt ??
      (plain && method
        ? holdUntil(ctx, method, input.date, input.start_time, now)
        : online
          ? holdUntil(ctx, 'gateway', input.date, input.start_time, now)
          : null),
    ...(opts.seriesId === undefined ? {} : { series_id: opts.seriesId }),
  }
  return { input, booker, courtId: court.id, venueId: court.venue_id, code, plain, year, values }
}

/**
 * Inserts a prepared booking inside the caller's transaction (the coupon, the confirmation of a
 * free booking and the payment intent with it); returns the new id. The exclusion constraint may
 * refuse it (23P01), which aborts the transaction: run it under a savepoint to go on after that.
 */
export async function insertPreparedBooking(ctx: AppContext, trx: Transaction<DB>, p: PreparedBooking) {
  if (p.plain) return (await insertPlain(ctx, trx, p.values, p.year)).id
  return completeInTransaction(ctx, trx, p.input, p.booker, p.code, p.values, p.year)
}

/** The contract's 409 for a taken slot, counted. */
export function courtConflict(ctx: AppContext) {
  ctx.metrics.bookingConflicts.inc({ kind: 'court' })
  return new Conflict(COURT_UNAVAILABLE)
}

/**
 * Creates a court booking and returns it as the resource, with its customer as `user`.
 *
 * The database decides whether the slot is free: the INSERT is refused by the exclusion constraint
 * bookings_no_overlap (SQLSTATE 23P01) when the range overlaps a live booking of the court, which
 * becomes 409. The booking number comes from a sequence inside the INSERT statement (a refused
 * booking leaves a gap), which also takes the court's advisory lock (booking-core/repository/numbers.ts).
 *
 * A plain booking (no coupon, something to pay) is that one statement, with its payment intent
 * already in the row. A coupon or a free booking also redeems the coupon / confirms and notifies, in
 * one transaction with the INSERT. Expired payment holds never block a slot: when the INSERT is
 * refused, the expired holds on that court and date are cancelled (their own transaction; a
 * customer waiting for the slot is offered it there, docs/bookings.md "Waitlist") and, if there
 * were any, the INSERT is tried once more.
 */
export async function createCourtBooking(ctx: AppContext, input: NewBooking, booker: Booker): Promise<Booking> {
  const now = ctx.clock.now()
  const p = await prepareCourtBooking(ctx, input, booker, now)
  // The webhook outbox needs a transaction; a plain booking at a venue nobody listens to stays one statement.
  const outbox = p.plain && (await hasSubscribers(ctx, p.venueId, 'booking.created'))
  const attempt = (): Promise<BookingRow | number> =>
    p.plain && !outbox
      ? insertBooking(ctx.db, p.values, p.year)
      : ctx.db.transaction().execute((trx) => insertPreparedBooking(ctx, trx, p))
  let result: BookingRow | number
  try {
    result = await attempt()
  } catch (err) {
    if (!isOverlapViolation(err)) throw err
    const expired = await ctx.db.transaction().execute((trx) => expireCourtHoldsOn(ctx, trx, p.courtId, input.date))
    if (expired === 0) throw courtConflict(ctx)
    try {
      result = await attempt()
    } catch (again) {
      if (isOverlapViolation(again)) throw courtConflict(ctx)
      throw again
    }
  }
  ctx.metrics.bookings.inc({ kind: 'court' })
  if (typeof result === 'number') return loadBooking(ctx, result)
  // A new booking has no payments, charges, coupon or review yet: only the court is read back.
  const { venue, customer_wallet_balance: wallet, ...row } = result
  const [courtResource, customer] = await Promise.all([
    cachedCourt(ctx, p.courtId, p.venueId),
    row.user_id === null ? null : cachedProfile(ctx, row.user_id),
  ])
  const booking = bookingResource(
    row,
    {
      court: courtResource,
      venue: venue ? venueSummary(venue) : null,
      payments: [],
      charges: [],
      couponUsage: null,
      review: null,
    },
    ctx.zone,
  )
  booking.user =
    customer && wallet !== null ? userResource(ctx, { ...customer, wallet_balance: wallet } as UserRow) : null
  return booking
}

/**
 * The court as embedded in the booking, through the read cache: a court, its schedule, rules and
 * images change rarely, and its bookings announce a different tag ('slots:<id>').
 */
function cachedCourt(ctx: AppContext, courtId: number, venueId: number) {
  return ctx.cache.through(
    `court-resource:${courtId}`,
    async () =>
      (await loadCourtResources(ctx.db, [courtId], { storage: ctx.storage, zone: ctx.zone })).get(courtId) ?? null,
    (court) => (court ? { tags: [cacheTags.court(courtId), cacheTags.venue(venueId), cacheTags.catalogue] } : null),
  )
}

/**
 * The customer's User (roles, permissions, profile) through the read cache, tagged 'user:<id>',
 * which every profile, suspension or role change announces. The wallet balance is not taken from
 * here: the INSERT returns the current one.
 */
function cachedProfile(ctx: AppContext, userId: number) {
  return ctx.cache.through(
    `user-profile:${userId}`,
    async () => (await selectUsers(ctx.db).where('u.id', '=', userId).executeTakeFirst()) ?? null,
    (profile) => (profile ? { tags: [cacheTags.user(userId)] } : null),
  )
}

/** A plain booking's INSERT and its booking.created webhook message (the outbox), in one transaction. */
async function insertPlain(
  ctx: AppContext,
  trx: Transaction<DB>,
  values: Parameters<typeof insertBooking>[1],
  year: number,
) {
  const row = await insertBooking(trx, values, year)
  await emitBookingEvent(ctx, trx, 'court', row.id, 'created')
  return row
}

/** The INSERT, then the coupon, the confirmation of a free booking or the payment intent; returns the id. */
async function completeInTransaction(
  ctx: AppContext,
  trx: Transaction<DB>,
  input: NewBooking,
  booker: Booker,
  code: string | null,
  values: Parameters<typeof insertBooking>[1],
  year: number,
): Promise<number> {
  const row = await insertBooking(trx, values, year)
  // booking.created is written once the booking is whole (discount, payment method), since the
  // stored payload is what every retry sends.
  const baseAmount = row.base_amount
  let total = row.total_amount
  if (code) {
    const { discount } = await redeemCoupon(trx, {
      code,
      userId: booker.userId,
      venueId: row.venue_id,
      amount: baseAmount,
      bookingKind: 'court',
      bookingId: row.id,
      now: ctx.clock.now(),
    })
    total = baseAmount - discount
    await setDiscount(trx, row.id, discount, total)
  }
  if (total === 0) {
    // Nothing to pay (a free court or a 100% coupon): confirmed at once.
    await emitBookingEvent(ctx, trx, 'court', row.id, 'created')
    await confirmFree(trx, row.id)
    await emitBookingEvent(ctx, trx, 'court', row.id, 'confirmed')
    if (booker.userId !== null) {
      await notify(
        ctx,
        booker.userId,
        'BookingConfirmed',
        {
          message: `Your booking ${row.booking_number} on ${input.date} at ${input.start_time} is confirmed.`,
          booking_id: row.id,
          booking_type: 'court',
          booking_number: row.booking_number,
          venue_id: row.venue_id,
          date: input.date,
          start_time: input.start_time,
        },
        trx,
      )
    }
  } else {
    if (input.payment_method) await setPaymentIntent(ctx, trx, 'court', row.id, input.payment_method)
    await emitBookingEvent(ctx, trx, 'court', row.id, 'created')
  }
  return row.id
}

/**
 * Waitlist offers (docs/bookings.md, "Waitlist"). Call it in the transaction that freed a court
 * slot, right after the booking was cancelled (by the customer, the venue or an expired hold): if
 * booking `bookingId` is cancelled, the first waiting customer whose wanted range overlaps it and
 * is now free gets a pending booking, made through the same path as any booking (quote of that
 * date, INSERT judged by the exclusion constraint) and held for WAITLIST_OFFER_MINUTES by the
 * payment hold; their entry becomes `offered` and they get WaitlistOffer. When that hold expires,
 * the sweep cancels the booking and calls this again: the next in line gets the offer. An entry
 * whose own offer was cancelled closes (expired, or declined when cancelled otherwise). Each
 * candidate is tried under a savepoint, so one whose time is still taken (or no longer bookable)
 * is skipped. Returns the offered booking's id, or null.
 */
export async function offerFreedSlot(ctx: AppContext, trx: Transaction<DB>, bookingId: number) {
  const freed = await bookingSlot(trx, bookingId)
  if (freed?.status !== 'cancelled') return null
  await closeOffer(trx, bookingId, freed.cancel_reason === HOLD_EXPIRED_REASON ? 'expired' : 'declined')
  const now = ctx.clock.now()
  const waiting = await waitingFor(trx, {
    courtId: freed.court_id,
    date: freed.date,
    start: freed.start_time,
    end: freed.end_time,
  })
  const holdExpiresAt = new Date(now.getTime() + ctx.config.waitlistOfferMinutes * 60_000)
  for (const entry of waiting) {
    const offered = await underSavepoint(trx, async () => {
      if (!(await claimEntry(trx, entry.id, now))) return null
      const input: NewBooking = {
        court_id: freed.court_id,
        date: entry.date,
        start_time: toHHmm(entry.start_time),
        end_time: toHHmm(entry.end_time),
        notes: null,
      }
      const booker: Booker = {
        type: 'online',
        userId: entry.user_id,
        customerName: entry.name,
        customerPhone: entry.phone,
        createdBy: entry.user_id,
      }
      const p = await prepareCourtBooking(ctx, input, booker, now, { db: trx, holdExpiresAt })
      const id = await insertPreparedBooking(ctx, trx, p)
      await setOfferBooking(trx, entry.id, id)
      const row = (await bookingNumberOf(trx, id))!
      await notify(
        ctx,
        entry.user_id,
        'WaitlistOffer',
        {
          message:
            `The slot you waited for on ${input.date} at ${input.start_time} is free: booking ${row.booking_number} ` +
            `is held for you until ${ctx.zone.format(row.hold_expires_at ?? holdExpiresAt)}. Pay it to keep it.`,
          booking_id: id,
          booking_type: 'court',
          booking_number: row.booking_number,
          venue_id: p.venueId,
          expires_at: row.hold_expires_at === null ? null : ctx.zone.format(row.hold_expires_at),
        },
        trx,
      )
      return id
    }).catch((err) => {
      // Still taken (another booking or block), no longer bookable (past, closed): the next in line.
      if (isOverlapViolation(err) || err instanceof AppError) return null
      throw err
    })
    if (offered !== null) return offered
  }
  return null
}

/** The hold of the booking a freed slot makes expire, with the waitlist offer (AfterExpire). */
export const offerAfterExpiry =
  (ctx: AppContext): AfterExpire =>
  (trx, kind, id) =>
    kind === 'court' ? offerFreedSlot(ctx, trx as Transaction<DB>, id) : Promise.resolve(null)

/** The expired holds on one court and date, cancelled in the caller's transaction, each slot offered on. */
export function expireCourtHoldsOn(ctx: AppContext, trx: Transaction<DB>, courtId: number, date: string) {
  return expireHoldsOn(ctx, trx, 'court', { resourceId: courtId, date }, { afterExpire: offerAfterExpiry(ctx) })
}
