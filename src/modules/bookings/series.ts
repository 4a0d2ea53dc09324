import type { Static } from 'typebox'
import type { AuthUser } from '../../lib/auth.ts'
import type { AppContext } from '../../lib/context.ts'
import { savepoint } from '../../lib/db.ts'
import { AppError, Conflict, Forbidden, Invalid, NotFound } from '../../lib/errors.ts'
import { formatMoney, formatRupees } from '../../lib/money.ts'
import { addDays, dayOfWeek, toHHmm, toMinutes, toTimeWithSeconds } from '../../lib/time.ts'
import { COURT_UNAVAILABLE } from '../availability/index.ts'
import {
  assertCustomerMayCancel,
  type Booker,
  CANCELLED_BY_CUSTOMER,
  cancelledMessage,
  hasStarted,
  holdsAsVerified,
  insertPastLapsedHolds,
  lockBooking,
  onlineBooker,
  transition,
} from '../booking-core/index.ts'
import { courtConflict } from './create.ts'
import { insertPreparedBooking } from './insert.ts'
import { type PreparedBooking, prepareCourtBooking } from './prepare.ts'
import { loadBookings } from './queries.ts'
import { insertSeries, parseId, seriesById, seriesOccurrences } from './repository.ts'
import type { Series, SeriesCancel } from './resource.ts'
import type { SeriesBody, SeriesCancelBody } from './schemas.ts'
import { assertSeriesCap } from './unpaid-cap.ts'

/** The reason a desk's series cancel records when staff give none. */
const CANCELLED_BY_VENUE = 'Cancelled by the venue'

// Recurring series (docs/bookings.md, "Recurring series"): one request books the same court, weekday
// and venue-local wall-clock time for 2–26 weeks. Each occurrence is an ordinary booking made by the
// same path as a single one (prepareCourtBooking: its own date's quote; insertPreparedBooking: the
// INSERT the exclusion constraint judges, with its own number), all in one transaction.
// on_conflict=fail: one week that cannot be booked rolls everything back (409). skip: each week
// is inserted under a savepoint, and a week refused is listed in `skipped` with its reason.

export type SeriesInput = Static<typeof SeriesBody> & { customer_phone?: string | null }

/** The dates of the series: start_date and the same weekday in each following week (calendar days, no instants). */
export function seriesDates(startDate: string, weeks: number): string[] {
  return Array.from({ length: weeks }, (_, i) => addDays(startDate, 7 * i))
}

interface Week {
  date: string
  /** Undefined when the quote refused the week (skipped: listed by showSeriesById). */
  prepared?: PreparedBooking
}

/** A week's 422 in the series' words: `date` is `start_date`; a later week's error names that week. */
function seriesErrors(errors: Record<string, string[]>, date: string, first: boolean): Invalid {
  const out: Record<string, string[]> = {}
  for (const [field, messages] of Object.entries(errors)) {
    const key = field === 'date' ? 'start_date' : field
    out[key] = messages.map((m) => (key === 'start_date' ? m.replace('The date field', 'The start date field') : m))
  }
  for (const key of Object.keys(out)) {
    if (!first && key !== 'start_date' && key !== 'court_id') out[key] = out[key].map((m) => `${m} (week of ${date})`)
  }
  return new Invalid(out)
}

/** Creates a series for `booker` (a customer, or venue staff for a named customer). */
export async function createSeries(ctx: AppContext, input: SeriesInput, booker: Booker): Promise<Series> {
  if (toMinutes(input.end_time) <= toMinutes(input.start_time)) {
    throw new Invalid('end_time', 'The end time field must be a time after start time.')
  }
  const fail = (input.on_conflict ?? 'fail') === 'fail'
  const now = ctx.clock.now()
  // Validate and price each week before the transaction (through the read cache). A week the quote
  // refuses with 409 (closed day, holiday, maintenance block) is unavailable; a 422 (a past date,
  // an invalid court, a time off the slot grid) is the request's error.
  const weeks: Week[] = []
  for (const date of seriesDates(input.start_date, input.weeks)) {
    try {
      const prepared = await prepareCourtBooking(
        ctx,
        {
          court_id: input.court_id,
          date,
          start_time: input.start_time,
          end_time: input.end_time,
          notes: input.notes,
          payment_method: input.payment_method,
          customer_phone: input.customer_phone,
        },
        booker,
        now,
        // The first week is held for the payment window like any booking; a later week is held
        // until its own start, so the customer pays week by week instead of 26 times in 15 minutes
        // (while they have a verified phone: holdUntil).
        { laterWeek: date !== input.start_date },
      )
      weeks.push({ date, prepared })
    } catch (err) {
      if (!(err instanceof Conflict)) {
        if (err instanceof AppError && err.statusCode === 422 && err.errors)
          throw seriesErrors(err.errors, date, date === input.start_date)
        throw err
      }
      if (fail) throw courtConflict(ctx)
      weeks.push({ date })
    }
  }
  const first = weeks.find((w) => w.prepared)?.prepared
  if (!first) throw courtConflict(ctx)
  const { seriesId, booked } = await ctx.db.transaction().execute(async (trx) => {
    // A customer's series: MAX_ACTIVE_SERIES and MAX_UNPAID_BOOKINGS (unpaid-cap.ts).
    const prepared = weeks.map((w) => w.prepared)
    await assertSeriesCap(ctx, trx, booker, prepared, input.payment_method)
    // A customer without a verified phone holds no week past the payment window (holdUntil).
    const verified = await holdsAsVerified(trx, booker)
    const seriesId = await insertSeries(trx, {
      user_id: booker.userId,
      court_id: first.courtId,
      venue_id: first.venueId,
      type: booker.type,
      weekday: dayOfWeek(input.start_date),
      start_date: input.start_date,
      weeks: input.weeks,
      start_time: toTimeWithSeconds(input.start_time),
      end_time: toTimeWithSeconds(input.end_time),
      customer_name: booker.customerName,
      customer_phone: first.values.customer_phone ?? null,
      created_by: booker.createdBy,
      created_at: now,
    })
    const booked: number[] = []
    for (const week of weeks) {
      if (!week.prepared) continue
      const { values, unverifiedHold } = week.prepared
      const hold = verified ? values.hold_expires_at : unverifiedHold
      const p: PreparedBooking = { ...week.prepared, values: { ...values, hold_expires_at: hold, series_id: seriesId } }
      const insert = () => savepoint(trx, () => insertPreparedBooking(ctx, trx, p))
      const scope = { resourceId: p.courtId, date: week.date }
      const id = await insertPastLapsedHolds(ctx, 'court', scope, insert, trx)
      if (id === null) {
        if (fail) throw courtConflict(ctx)
        ctx.metrics.bookingConflicts.inc({ kind: 'court' })
        continue
      }
      booked.push(id)
    }
    if (booked.length === 0) throw courtConflict(ctx)
    return { seriesId, booked }
  })
  ctx.metrics.bookings.inc({ kind: 'court' }, booked.length)
  return showSeriesById(ctx, seriesId)
}

/** The series as the resource: every occurrence (with its customer), and the weeks without one. */
async function showSeriesById(ctx: AppContext, id: number): Promise<Series> {
  const series = (await seriesById(ctx.db, id))!
  const rows = await seriesOccurrences(ctx.db, id)
  const occurrences = await loadBookings(
    ctx,
    rows.map((r) => r.id),
    { withUser: true },
  )
  if (series.user_id === null) for (const b of occurrences) b.user = null
  const bookedDates = new Set(rows.map((r) => r.date))
  return {
    id: series.id,
    court_id: series.court_id,
    venue_id: series.venue_id,
    type: series.type as Series['type'],
    weekday: series.weekday,
    start_date: series.start_date,
    weeks: series.weeks,
    start_time: toHHmm(series.start_time),
    end_time: toHHmm(series.end_time),
    customer_name: series.customer_name,
    occurrences,
    skipped: seriesDates(series.start_date, series.weeks)
      .filter((d) => !bookedDates.has(d))
      .map((date) => ({ date, reason: COURT_UNAVAILABLE })),
    created_at: ctx.zone.format(series.created_at),
  }
}

/** The series id when the caller owns it: 404 unknown, 403 someone else's (or a desk series). */
async function ownedSeriesId(ctx: AppContext, user: AuthUser, rawId: string): Promise<number> {
  const id = parseId(rawId)
  if (id === undefined) throw new NotFound()
  const series = await seriesById(ctx.db, id)
  if (!series) throw new NotFound()
  if (series.user_id !== user.id) throw new Forbidden()
  return id
}

export async function createMySeries(ctx: AppContext, user: AuthUser, input: Static<typeof SeriesBody>) {
  return createSeries(ctx, { ...input, customer_phone: null }, onlineBooker(user))
}

export async function showMySeries(ctx: AppContext, user: AuthUser, rawId: string): Promise<Series> {
  return showSeriesById(ctx, await ownedSeriesId(ctx, user, rawId))
}

/**
 * PATCH …/series/{series}/cancel: every occurrence on or after from_date (default today) that the
 * customer may still cancel (pending or confirmed, not started) is cancelled under the normal rules
 * (refund inside the free-cancellation window; the freed slot offered to the waitlist), all in one
 * transaction. Occurrences that cannot be cancelled (already cancelled, started, completed) are left.
 */
export async function cancelMySeries(
  ctx: AppContext,
  user: AuthUser,
  rawId: string,
  input: Static<typeof SeriesCancelBody>,
): Promise<SeriesCancel> {
  return cancelSeries(ctx, await ownedSeriesId(ctx, user, rawId), input, 'customer', user.id)
}

/** The series id when it is one of the venue's (`venueId`, access already checked): 404 otherwise. */
async function venueSeriesId(ctx: AppContext, venueId: number, rawId: string): Promise<number> {
  const id = parseId(rawId)
  if (id === undefined) throw new NotFound()
  const series = await seriesById(ctx.db, id)
  if (!series || series.venue_id !== venueId) throw new NotFound()
  return id
}

/** GET /venues/{venue}/bookings/series/{series}: any series at the venue, for its desk. */
export async function showVenueSeries(ctx: AppContext, venueId: number, rawId: string): Promise<Series> {
  return showSeriesById(ctx, await venueSeriesId(ctx, venueId, rawId))
}

/**
 * PATCH /venues/{venue}/bookings/series/{series}/cancel: the desk cancels a series from a date on.
 * The same occurrences as the customer's cancel (pending or confirmed, not started), each cancelled
 * by the venue: what was paid goes back whatever the free-cancellation window (online money to the
 * customer's wallet, desk money at the desk), as PATCH /bookings/{booking}/status cancelled does.
 */
export async function cancelVenueSeries(
  ctx: AppContext,
  venueId: number,
  rawId: string,
  input: Static<typeof SeriesCancelBody>,
  actor: number,
): Promise<SeriesCancel> {
  return cancelSeries(ctx, await venueSeriesId(ctx, venueId, rawId), input, 'venue', actor)
}

async function cancelSeries(
  ctx: AppContext,
  id: number,
  input: Static<typeof SeriesCancelBody>,
  by: 'customer' | 'venue',
  actor: number,
): Promise<SeriesCancel> {
  const now = ctx.clock.now()
  const from = input.from_date ?? ctx.zone.today(now)
  const reason = input.reason?.trim() || (by === 'customer' ? CANCELLED_BY_CUSTOMER : CANCELLED_BY_VENUE)
  const candidates = await seriesOccurrences(ctx.db, id, from)
  type Line = SeriesCancel['data']['cancelled'][number]
  const cancelled = await ctx.db.transaction().execute(async (trx) => {
    const out: { line: Line; toWallet: number; atDesk: number }[] = []
    for (const c of candidates) {
      if (c.status !== 'pending' && c.status !== 'confirmed') continue
      const booking = await lockBooking(trx, 'court', c.id)
      if (!booking) continue
      if (by === 'customer') {
        try {
          assertCustomerMayCancel(booking, now, ctx.zone)
        } catch {
          continue
        }
      } else if (
        (booking.status !== 'pending' && booking.status !== 'confirmed') ||
        hasStarted(booking, now, ctx.zone)
      ) {
        continue
      }
      const outcome = await transition(ctx, trx, booking, 'cancel', { reason, by, actor })
      out.push({
        line: {
          booking_id: booking.id,
          booking_number: booking.booking_number,
          date: booking.date,
          refund_amount: formatMoney(outcome.given),
          message: cancelledMessage(outcome.note),
        },
        toWallet: outcome.givenToWallet,
        atDesk: outcome.atDesk,
      })
    }
    return out
  })
  const toWallet = cancelled.reduce((sum, c) => sum + c.toWallet, 0)
  const atDesk = cancelled.reduce((sum, c) => sum + c.atDesk, 0)
  const refund = toWallet + atDesk
  const wallet = by === 'customer' ? 'your wallet' : "the customer's wallet"
  const said =
    (toWallet > 0 ? ` ${formatRupees(toWallet)} refunded to ${wallet}.` : '') +
    (atDesk > 0 ? ` ${formatRupees(atDesk)} paid at the venue is refunded at its desk.` : '')
  const n = cancelled.length
  const message =
    n === 0 ? 'No booking of this series could be cancelled.' : `${n} booking${n === 1 ? '' : 's'} cancelled.${said}`
  return { message, refund_amount: formatMoney(refund), data: { id, cancelled: cancelled.map((c) => c.line) } }
}
