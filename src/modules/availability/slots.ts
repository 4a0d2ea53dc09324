import { dayOfWeek, fromMinutes, toMinutes } from '../../lib/time.ts'

// The slot grid of one court (or indoor game) on one venue-local date, and its prices. Pure: the
// callers load the day's setup from the database and pass it in.
//
// Grid: slots of `slotMinutes` laid from the day's open time; the last slot must end at or before
// the close time (a trailing remainder shorter than a slot is not offered). Times are compared at
// minute precision (seconds of stored HH:mm:ss values are ignored). A day whose close time is not
// after its open time has no slots: schedule and venue input refuse overnight ranges, so this only
// guards against bad data.
//
// Price of a slot (docs/catalogue.md, "Price of a slot"). A rule COVERS a slot when the slot's START lies
// inside the rule's [start_time, end_time) range: a peak rule from 17:30 covers the 17:30 slot but
// not the 17:00 one, even though it overlaps its second half. Only active rules whose day_of_week is
// the date's weekday or null (every day) are considered. Then:
//   1. on a venue holiday, the covering `holiday` rule, if there is one;
//   2. otherwise the covering non-holiday rule that is most specific: a weekday rule beats an
//      every-day rule; among those, peak and off_peak beat standard;
//   3. otherwise the court's own price_per_hour.
// Holiday rules never apply on other days. Two equally specific rules (e.g. a weekday peak and a
// weekday off_peak both covering a slot) resolve to the most recently created one (highest id).
//
// Amount: a booking costs the sum over its slots of price_per_hour × slot_minutes / 60, each slot
// rounded to whole paisa, half up.

export interface PriceRuleInput {
  id?: number
  type: string
  day_of_week: number | null
  start_time: string
  end_time: string
  price_per_hour: number
  is_active: boolean
}

export interface DaySetup {
  /** Venue-local date, YYYY-MM-DD (its weekday picks the rules). */
  date: string
  slotMinutes: number
  /** The court's schedule entry for that weekday, else the venue's opening/closing time. */
  openTime: string
  closeTime: string
  isClosed: boolean
  isHoliday: boolean
  /** The court's (or game's) base price, paisa per hour. */
  pricePerHour: number
  rules: PriceRuleInput[]
}

export interface Slot {
  /** Minutes since midnight. */
  start: number
  end: number
  start_time: string
  end_time: string
  /** Paisa per hour. */
  price_per_hour: number
}

/** A slot's amount in paisa: price_per_hour × minutes / 60, rounded half up. */
export function slotAmount(pricePerHour: number, minutes: number): number {
  return Math.floor((pricePerHour * minutes + 30) / 60)
}

function rank(rule: PriceRuleInput): number {
  const weekday = rule.day_of_week === null ? 0 : 2
  const kind = rule.type === 'peak' || rule.type === 'off_peak' ? 1 : 0
  return weekday + kind
}

type Candidate = { rule: PriceRuleInput; index: number; from: number; to: number }

const better = (a: Candidate, b: Candidate) => {
  const byRank = rank(a.rule) - rank(b.rule)
  if (byRank !== 0) return byRank > 0
  return (a.rule.id ?? a.index) > (b.rule.id ?? b.index)
}

function pick(list: Candidate[], start: number): Candidate | null {
  let best: Candidate | null = null
  for (const c of list) {
    if (c.from <= start && start < c.to && (best === null || better(c, best))) best = c
  }
  return best
}

/** A price lookup for the setup's date: the rules of that weekday are filtered once. */
export function pricer(
  setup: Pick<DaySetup, 'date' | 'isHoliday' | 'pricePerHour' | 'rules'>,
): (start: number) => number {
  const dow = dayOfWeek(setup.date)
  const holiday: Candidate[] = []
  const regular: Candidate[] = []
  setup.rules.forEach((rule, index) => {
    if (!rule.is_active || (rule.day_of_week !== null && rule.day_of_week !== dow)) return
    const c = { rule, index, from: toMinutes(rule.start_time), to: toMinutes(rule.end_time) }
    if (rule.type === 'holiday') holiday.push(c)
    else regular.push(c)
  })
  return (start) => {
    if (setup.isHoliday) {
      const h = pick(holiday, start)
      if (h) return h.rule.price_per_hour
    }
    const r = pick(regular, start)
    return r ? r.rule.price_per_hour : setup.pricePerHour
  }
}

/** The day's slots with their prices; empty on a closed day. */
export function daySlots(setup: DaySetup): Slot[] {
  if (setup.isClosed) return []
  const open = toMinutes(setup.openTime)
  const close = toMinutes(setup.closeTime)
  const step = setup.slotMinutes
  const slots: Slot[] = []
  if (!(step > 0) || close <= open) return slots
  const price = pricer(setup)
  for (let start = open; start + step <= close; start += step) {
    slots.push({
      start,
      end: start + step,
      start_time: fromMinutes(start),
      end_time: fromMinutes(start + step),
      price_per_hour: price(start),
    })
  }
  return slots
}

/**
 * The slots making up [start, end) ("HH:mm"), or null when the range is empty, not on the grid or
 * outside the day's open hours (or the day is closed).
 */
export function slotsInRange(setup: DaySetup, start: string, end: string): Slot[] | null {
  const s = toMinutes(start)
  const e = toMinutes(end)
  if (!(e > s)) return null
  const grid = daySlots(setup)
  const first = grid.findIndex((slot) => slot.start === s)
  if (first < 0) return null
  const last = grid.findIndex((slot) => slot.end === e)
  if (last < first) return null
  return grid.slice(first, last + 1)
}

/**
 * Field errors for a range whose start or end is not a slot boundary of the day's grid (slots of
 * slotMinutes laid from the open time, extended both ways), e.g. 10:15 on an hourly grid from
 * 06:00. Such a range is a malformed request, not a taken slot; whether an aligned range lies
 * inside the open hours is judged by slotsInRange. Empty on a closed day (it has no grid).
 */
export function offGridErrors(setup: DaySetup, start: string, end: string): Record<string, string[]> {
  const errors: Record<string, string[]> = {}
  const step = setup.slotMinutes
  if (setup.isClosed || !(step > 0)) return errors
  const open = toMinutes(setup.openTime)
  const onGrid = (time: string) => (((toMinutes(time) - open) % step) + step) % step === 0
  const grid = `every ${step} minutes from ${fromMinutes(open)}`
  if (!onGrid(start)) errors.start_time = [`The start time must be on a slot boundary (${grid}).`]
  if (!onGrid(end)) errors.end_time = [`The end time must be on a slot boundary (${grid}).`]
  return errors
}

/** The base amount (paisa) of a booking [start, end), or null when the range cannot be booked. */
export function priceRange(setup: DaySetup, start: string, end: string): number | null {
  const slots = slotsInRange(setup, start, end)
  if (!slots) return null
  return slots.reduce((sum, slot) => sum + slotAmount(slot.price_per_hour, setup.slotMinutes), 0)
}
