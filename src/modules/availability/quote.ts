import type { Executor } from '../../lib/db.ts'
import { Conflict, Invalid, NotFound } from '../../lib/errors.ts'
import { isValidDate, toMinutes } from '../../lib/time.ts'
import type { Zone } from '../../lib/zone.ts'
import { type Day, type DayKind, loadDay, type TakenRange } from './repository.ts'
import { type DaySetup, offGridErrors, priceRange } from './slots.ts'

export const COURT_UNAVAILABLE = 'The court is not available for the selected time slot.'
export const INDOOR_UNAVAILABLE = 'The selected slot is not available.'

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/

/**
 * The instant a quote is made at (the request's one reading of ctx.clock) and the venue zone.
 * `inProgress`: venue staff booking at the desk may also book the slot in progress (the one whose
 * start has passed and whose end has not), priced as the slot; customers may not (decisions.md).
 */
export type QuoteTime = { zone: Zone; now: Date; inProgress?: boolean }

/** The venue's date and time now. */
function wallNow(time: QuoteTime): { date: string; time: string } {
  return time.zone.wallClock(time.now)
}

/**
 * 422s shared by both quotes: date and times well formed, not in the past (venue time). With
 * `slotInProgress` (the slot length, for staff) a start that has passed is accepted while the slot
 * it starts has not ended.
 */
function checkWhen(
  date: string,
  start: string,
  end: string,
  today: { date: string; time: string },
  slotInProgress?: number,
) {
  const errors: Record<string, string[]> = {}
  if (!isValidDate(date)) errors.date = ['The date field must be a valid date.']
  if (!HHMM.test(start)) errors.start_time = ['The start time field must match the format H:i.']
  if (!HHMM.test(end)) errors.end_time = ['The end time field must match the format H:i.']
  else if (HHMM.test(start) && toMinutes(end) <= toMinutes(start)) {
    errors.end_time = ['The end time field must be a time after start time.']
  }
  if (Object.keys(errors).length) throw new Invalid(errors)
  if (date < today.date) throw new Invalid('date', 'The date field must be a date after or equal to today.')
  if (date === today.date && `${start}:00` < today.time) {
    const nowMinutes = toMinutes(today.time) + Number(today.time.slice(6, 8) || 0) / 60
    if (slotInProgress !== undefined && toMinutes(start) + slotInProgress > nowMinutes) return
    throw new Invalid(
      'start_time',
      slotInProgress === undefined
        ? 'The start time must not be in the past.'
        : 'The start time must not be before the slot in progress.',
    )
  }
}

const overlaps = (ranges: TakenRange[], start: string, end: string) =>
  ranges.some((r) => r.start_time < `${end}:00` && `${start}:00` < r.end_time)

/** 422 (errors.start_time / end_time) off the slot grid; 409 outside the open hours or closed. */
function amountOrConflict(setup: DaySetup, start: string, end: string, message: string): number {
  const offGrid = offGridErrors(setup, start, end)
  if (Object.keys(offGrid).length) throw new Invalid(offGrid)
  const amount = priceRange(setup, start, end)
  if (amount === null) throw new Conflict(message)
  return amount
}

const UNAVAILABLE = { court: COURT_UNAVAILABLE, indoor: INDOOR_UNAVAILABLE }

/**
 * Validates and prices a booking [start,end) of a court or an indoor game station on a venue-local
 * date (YYYY-MM-DD, HH:mm): Invalid (422, errors.date / errors.start_time / errors.end_time) for a
 * date before today, a start before now (venue time) or a start or end off the slot grid; a Conflict
 * (409, COURT_UNAVAILABLE or INDOOR_UNAVAILABLE, the contract's messages) for a closed day, outside
 * open hours, or overlapping a court's maintenance block. The price: a court's pricing rules, else
 * its price_per_hour; an indoor game's price_per_hour. Does NOT look at other bookings (the
 * database's exclusion constraint does that).
 */
export async function quoteBooking(
  db: Executor,
  kind: DayKind,
  id: number,
  date: string,
  start: string,
  end: string,
  time: QuoteTime,
): Promise<{ baseAmount: number; slotMinutes: number }> {
  // A malformed or past time is refused before the query (the slot in progress needs the day's slot).
  if (!time.inProgress) checkWhen(date, start, end, wallNow(time))
  const day = await loadDay(db, kind, id, date, { withBookings: false, now: time.now })
  return quoteDay(kind, day, date, start, end, time)
}

/** quoteBooking over a day already loaded with loadDay (withBookings: false is enough): the same
 * checks and errors, without a query. */
export function quoteDay(
  kind: DayKind,
  day: Day | undefined,
  date: string,
  start: string,
  end: string,
  time: QuoteTime,
): { baseAmount: number; slotMinutes: number } {
  checkWhen(date, start, end, wallNow(time), time.inProgress && day ? day.setup.slotMinutes : undefined)
  if (!day) throw new NotFound()
  const baseAmount = amountOrConflict(day.setup, start, end, UNAVAILABLE[kind])
  if (overlaps(day.blocks, start, end)) throw new Conflict(UNAVAILABLE[kind])
  return { baseAmount, slotMinutes: day.setup.slotMinutes }
}
