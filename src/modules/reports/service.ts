import type { AppContext } from '../../lib/context.ts'
import { Invalid } from '../../lib/errors.ts'
import { formatMoney } from '../../lib/money.ts'
import { addDays, dayOfWeek, toMinutes } from '../../lib/time.ts'
import * as q from './queries.ts'

// A venue's summary over a range of venue-local days (docs/reports.md has every formula):
// bookings by the day they are for, money by the day it moved (the ledger's revenue lines, the
// same ones the statement sums), occupancy from the courts' schedules, and the top customers.

/** The most days one report covers. */
export const REPORT_MAX_DAYS = 366
/** How many customers top_customers lists. */
export const TOP_CUSTOMERS = 10

export const STATUSES = ['pending', 'confirmed', 'playing', 'completed', 'cancelled', 'no_show'] as const
export const METHODS = ['cash', 'wallet', 'gateway_1', 'gateway_2', 'gateway_3'] as const

export interface RangeInput {
  from: string
  to: string
  kind?: 'court' | 'indoor'
}

/** The report's scope: 422 on `to` when it is before `from` or the range is longer than 366 days. */
export function scopeOf(ctx: AppContext, venueId: number, input: RangeInput): q.Scope {
  const { from, to } = input
  if (to < from) throw new Invalid('to', 'The to field must be a date after or equal to from.')
  if (addDays(from, REPORT_MAX_DAYS - 1) < to) {
    throw new Invalid('to', `A report covers at most ${REPORT_MAX_DAYS} days.`)
  }
  return {
    venueId,
    from,
    to,
    start: ctx.zone.instant(from, '00:00'),
    end: ctx.zone.instant(addDays(to, 1), '00:00'),
    kind: input.kind,
    zone: ctx.zone.name,
  }
}

/** Every date of [from, to]. */
export function datesOf(from: string, to: string): string[] {
  const out: string[] = []
  for (let d = from; d <= to; d = addDays(d, 1)) out.push(d)
  return out
}

const hours = (minutes: number) => Math.round((minutes / 60) * 100) / 100
const ratio = (part: number, whole: number, scale: number) =>
  whole > 0 ? Math.round((part / whole) * scale * 10_000) / 10_000 : 0

/** Paisa by method → the wire's decimal strings, every method named. */
function moneyByMethod(byMethod: Record<string, number>) {
  return Object.fromEntries(Object.entries(byMethod).map(([k, v]) => [k, formatMoney(v)])) as Record<
    (typeof METHODS)[number] | 'other',
    string
  >
}

export async function summary(ctx: AppContext, venueId: number, input: RangeInput) {
  const s = scopeOf(ctx, venueId, input)
  const now = ctx.clock.now()
  const [counts, noShows, money, customers, booked, open] = await Promise.all([
    q.bookingCounts(ctx.db, s),
    q.noShowParts(ctx.db, s, ctx.zone.wallClock(now)),
    q.revenueByDayAndMethod(ctx.db, s),
    q.topCustomers(ctx.db, s, TOP_CUSTOMERS),
    q.bookedMinutesByHour(ctx.db, s, now),
    openMinutesByHour(ctx, s),
  ])

  const byStatus = Object.fromEntries(STATUSES.map((k) => [k, 0])) as Record<(typeof STATUSES)[number], number>
  const noMoney = () => Object.fromEntries([...METHODS, 'other'].map((m) => [m, 0])) as Record<string, number>
  const days = new Map(datesOf(s.from, s.to).map((d) => [d, { bookings: 0, net: 0, byMethod: noMoney() }]))
  let total = 0
  for (const c of counts) {
    total += c.n
    if (c.status in byStatus) byStatus[c.status as keyof typeof byStatus] += c.n
    const day = days.get(c.date)
    if (day) day.bookings += c.n
  }

  const byMethod = noMoney()
  let gross = 0
  let refunds = 0
  for (const m of money) {
    gross += m.gross
    refunds += m.refunds
    const method = m.method && m.method in byMethod ? m.method : 'other'
    byMethod[method] += m.gross - m.refunds
    const day = days.get(m.day)
    if (day) {
      day.net += m.gross - m.refunds
      day.byMethod[method] += m.gross - m.refunds
    }
  }

  const buckets = new Map<number, { weekday: number; hour: number; booked: number; open: number }>()
  const bucket = (weekday: number, hour: number) => {
    const key = weekday * 24 + hour
    const found = buckets.get(key)
    if (found) return found
    const b = { weekday, hour, booked: 0, open: 0 }
    buckets.set(key, b)
    return b
  }
  let bookedMinutes = 0
  let openMinutes = 0
  for (const b of booked) {
    bucket(b.weekday, b.hour).booked += b.minutes
    bookedMinutes += b.minutes
  }
  for (const [key, minutes] of open) {
    bucket(Math.floor(key / 24), key % 24).open += minutes
    openMinutes += minutes
  }

  return {
    from: s.from,
    to: s.to,
    kind: s.kind ?? null,
    bookings: { total, by_status: byStatus },
    revenue: {
      gross: formatMoney(gross),
      refunds: formatMoney(refunds),
      net: formatMoney(gross - refunds),
      by_method: moneyByMethod(byMethod),
    },
    occupancy: {
      booked_hours: hours(bookedMinutes),
      open_hours: hours(openMinutes),
      percent: ratio(bookedMinutes, openMinutes, 100),
    },
    no_show_rate: ratio(noShows.noShows, noShows.started, 1),
    by_hour: [...buckets.values()]
      .sort((a, b) => a.weekday - b.weekday || a.hour - b.hour)
      .map((b) => ({ weekday: b.weekday, hour: b.hour, booked_hours: hours(b.booked), open_hours: hours(b.open) })),
    by_day: [...days.entries()].map(([date, d]) => ({
      date,
      bookings: d.bookings,
      net: formatMoney(d.net),
      by_method: moneyByMethod(d.byMethod),
    })),
    top_customers: customers.map((c) => ({
      name: c.name,
      phone: c.phone,
      bookings: c.bookings,
      net: formatMoney(c.net),
    })),
  }
}

type Interval = [number, number]

/** [a, b) minus the blocks, as minutes of the day. */
export function subtract(open: Interval, blocks: Interval[]): Interval[] {
  let parts: Interval[] = [open]
  for (const [bs, be] of blocks) {
    const next: Interval[] = []
    for (const [s, e] of parts) {
      if (be <= s || e <= bs) next.push([s, e])
      else {
        if (s < bs) next.push([s, bs])
        if (be < e) next.push([be, e])
      }
    }
    parts = next
  }
  return parts
}

/** Adds the minutes of [s, e) to the (weekday, hour) buckets they fall in (key weekday × 24 + hour). */
function addMinutes(into: Map<number, number>, weekday: number, [s, e]: Interval) {
  for (let h = Math.floor(s / 60); h * 60 < e && h < 24; h++) {
    const minutes = Math.min(e, (h + 1) * 60) - Math.max(s, h * 60)
    if (minutes > 0) into.set(weekday * 24 + h, (into.get(weekday * 24 + h) ?? 0) + minutes)
  }
}

/**
 * Open minutes of the range by (weekday, hour): for each day, each active court's hours that
 * weekday (its schedule, else the venue's hours; none on a closed day) less its maintenance blocks,
 * and each active indoor game's venue hours. Holidays are open days here: they only change prices
 * (docs/reports.md, "Occupancy").
 */
export async function openMinutesByHour(ctx: AppContext, s: q.Scope): Promise<Map<number, number>> {
  const [setup, blocks] = await Promise.all([
    q.openingSetup(ctx.db, s.venueId),
    s.kind === 'indoor' ? Promise.resolve([]) : q.blocksIn(ctx.db, s.venueId, s.from, s.to),
  ])
  const venueHours: Interval = [toMinutes(setup.venue.opening_time), toMinutes(setup.venue.closing_time)]
  const schedule = new Map(setup.schedules.map((r) => [`${r.court_id}:${r.day_of_week}`, r]))
  const blocksOf = new Map<string, Interval[]>()
  for (const b of blocks) {
    const key = `${b.court_id}:${b.date}`
    blocksOf.set(key, [...(blocksOf.get(key) ?? []), [toMinutes(b.start_time), toMinutes(b.end_time)]])
  }
  const out = new Map<number, number>()
  for (const date of datesOf(s.from, s.to)) {
    const weekday = dayOfWeek(date)
    if (s.kind !== 'indoor') {
      for (const court of setup.courts) {
        const day = schedule.get(`${court}:${weekday}`)
        if (day?.is_closed) continue
        const hoursOfDay: Interval = day ? [toMinutes(day.open_time), toMinutes(day.close_time)] : venueHours
        if (hoursOfDay[1] <= hoursOfDay[0]) continue
        for (const part of subtract(hoursOfDay, blocksOf.get(`${court}:${date}`) ?? [])) addMinutes(out, weekday, part)
      }
    }
    if (s.kind !== 'court' && venueHours[1] > venueHours[0]) {
      for (const _ of setup.games) addMinutes(out, weekday, venueHours)
    }
  }
  return out
}
