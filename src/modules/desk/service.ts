import type { AuthUser } from '../../lib/auth.ts'
import type { AppContext } from '../../lib/context.ts'
import { Invalid } from '../../lib/errors.ts'
import { formatMoney } from '../../lib/money.ts'
import { isValidDate, toHHmm } from '../../lib/time.ts'
import { daySlots, loadVenueDays, type Slot } from '../availability/index.ts'
import { bookingMoney } from '../booking-core/index.ts'
import { shareCounts } from '../splits/index.ts'
import { DESK_ROLES, venueForStaff } from '../venues/index.ts'
import {
  blocksOn,
  cashTakenOn,
  courtBookingsOn,
  type DayBookingRow,
  holidayOn,
  indoorBookingsOn,
  venueResources,
} from './queries.ts'
import type { Board, BoardBooking, BoardColumn, BoardSlot } from './resource.ts'

// The front desk's day at a venue: one column per court and indoor game on the same slot grid and
// prices as the public availability routes (availability's read model and daySlots), the day's
// bookings with the money fields of the booking resources (booking-core's bookingMoney), the
// maintenance blocks and the day's totals. A fixed number of queries whatever the size of the day.

/** Who works the desk: the venue's owner, managers and staff (and super_admin). */

/** The venue of the path, when the caller works its desk: 404 unknown, 403 otherwise. */
export async function deskVenue(ctx: AppContext, user: AuthUser, key: string) {
  return venueForStaff(ctx, user, key, DESK_ROLES)
}
export type DeskVenue = Awaited<ReturnType<typeof deskVenue>>

type Range = { start_time: string; end_time: string }
const hhmmss = (t: string) => (t.length === 5 ? `${t}:00` : t)
const overlaps = (a: Range, slot: Slot) =>
  hhmmss(a.start_time) < `${slot.end_time}:00` && `${slot.start_time}:00` < hhmmss(a.end_time)

/** A booking occupies its slots unless cancelled or a pending hold that has run out. */
function occupies(b: DayBookingRow, nowMs: number) {
  if (b.status === 'cancelled') return false
  if (b.status === 'pending' && b.hold_expires_at !== null) return instantMs(b.hold_expires_at) > nowMs
  return true
}
const instantMs = (v: Date | string) => (typeof v === 'string' ? Date.parse(v) : v.getTime())

/** A slot's end as HH:mm:ss on its own day ("00:00" as an end is the next midnight: never reached today). */
const slotEnd = (slot: Slot) => (slot.end_time <= slot.start_time ? '24:00:00' : `${slot.end_time}:00`)

function slotsOf(
  slots: Slot[],
  date: string,
  wall: { date: string; time: string },
  nowMs: number,
  bookings: DayBookingRow[],
  blocks: (Range & { id: number })[],
  priced: boolean,
): BoardSlot[] {
  return slots.map((slot) => {
    const booking = bookings.find((b) => occupies(b, nowMs) && overlaps(b, slot))
    const block = booking ? undefined : blocks.find((k) => overlaps(k, slot))
    const started = date < wall.date || (date === wall.date && `${slot.start_time}:00` <= wall.time)
    // The slot in progress stays sellable at the desk until it ends (staff may book a started hour).
    const ended = date < wall.date || (date === wall.date && slotEnd(slot) <= wall.time)
    return {
      start_time: slot.start_time,
      end_time: slot.end_time,
      price: priced ? formatMoney(slot.price_per_hour) : null,
      state: booking ? 'booked' : block ? 'blocked' : ended ? 'past' : started ? 'now' : 'free',
      booking_id: booking?.id ?? null,
      block_id: block?.id ?? null,
    }
  })
}

function toBoardBooking(
  ctx: AppContext,
  kind: BoardBooking['kind'],
  b: DayBookingRow,
  nowMs: number,
  shares: Map<number, { paid: number; total: number }>,
): BoardBooking {
  const money = bookingMoney(b)
  const isHold = b.status === 'pending' && b.hold_expires_at !== null && instantMs(b.hold_expires_at) > nowMs
  return {
    kind,
    id: b.id,
    booking_number: b.booking_number,
    resource_id: b.resource_id,
    start_time: toHHmm(b.start_time),
    end_time: toHHmm(b.end_time),
    status: b.status,
    customer_name: b.customer_name,
    customer_phone: b.customer_phone,
    booking_type: b.type,
    total_amount: money.total_amount,
    paid_amount: money.paid_amount,
    balance_due: money.balance_due,
    payment_method: b.payment_method,
    is_hold: isHold,
    hold_expires_at: ctx.zone.format(b.hold_expires_at),
    waitlist_count: b.waiting,
    is_waitlist_offer: isHold && b.waitlist_offer,
    series_id: b.series_id,
    shares: shares.get(b.id) ?? null,
  }
}

/**
 * The board of `key`'s venue on `date` (default: today, venue time). Columns: every active court
 * (by id), then every active indoor game (by sort order, id); an inactive one only when it has a
 * booking that day (so nothing booked disappears from the desk).
 */
/** The board of `venue` (resolved and access-checked by deskVenue) on `date`, today by default. */
export async function deskBoard(ctx: AppContext, venue: DeskVenue, date?: string): Promise<Board> {
  const at = ctx.clock.now()
  const wall = ctx.zone.wallClock(at)
  const day = date ?? wall.date
  if (!isValidDate(day)) throw new Invalid('date', 'The date field must be a valid date.')
  const nowMs = at.getTime()

  const [resources, courtDays, gameDays, courtRows, gameRows, blocks, holiday, cash] = await Promise.all([
    venueResources(ctx.db, venue.id),
    loadVenueDays(ctx.db, 'court', venue.id, day, at),
    loadVenueDays(ctx.db, 'indoor', venue.id, day, at),
    courtBookingsOn(ctx.db, venue.id, day),
    indoorBookingsOn(ctx.db, venue.id, day),
    blocksOn(ctx.db, venue.id, day),
    holidayOn(ctx.db, venue.id, day),
    cashTakenOn(ctx.db, venue.id, day),
  ])

  const group = <T extends { resource_id?: number; court_id?: number }>(rows: T[], id: (r: T) => number) => {
    const out = new Map<number, T[]>()
    for (const r of rows) {
      const list = out.get(id(r))
      if (list) list.push(r)
      else out.set(id(r), [r])
    }
    return out
  }
  const courtBookings = group(courtRows, (b) => b.resource_id)
  const gameBookings = group(gameRows, (b) => b.resource_id)
  const courtBlocks = group(blocks, (k) => k.court_id)
  const courtDay = new Map(courtDays.map((d) => [d.id, d]))
  const gameDay = new Map(gameDays.map((d) => [d.id, d]))

  const columns: BoardColumn[] = []
  for (const c of resources.courts) {
    const d = courtDay.get(c.id)
    const booked = courtBookings.get(c.id) ?? []
    if (!d || (!c.is_active && booked.length === 0)) continue
    const setup = d.setup
    columns.push({
      kind: 'court',
      id: c.id,
      name: c.name,
      type: c.type,
      is_active: c.is_active,
      slot_minutes: setup.slotMinutes,
      is_closed: setup.isClosed,
      open_time: setup.isClosed ? null : toHHmm(setup.openTime),
      close_time: setup.isClosed ? null : toHHmm(setup.closeTime),
      slots: slotsOf(daySlots(setup), day, wall, nowMs, booked, courtBlocks.get(c.id) ?? [], true),
    })
  }
  for (const g of resources.games) {
    const d = gameDay.get(g.id)
    const booked = gameBookings.get(g.id) ?? []
    if (!d || (!g.is_active && booked.length === 0)) continue
    const setup = d.setup
    columns.push({
      kind: 'indoor_game',
      id: g.id,
      name: g.name,
      type: g.type,
      is_active: g.is_active,
      slot_minutes: setup.slotMinutes,
      is_closed: false,
      open_time: toHHmm(setup.openTime),
      close_time: toHHmm(setup.closeTime),
      slots: slotsOf(daySlots(setup), day, wall, nowMs, booked, [], true),
    })
  }

  // Split bookings show how many shares are paid (docs/payments.md, "Split payment").
  const [courtShares, gameShares] = await Promise.all([
    splitCounts(ctx, 'court', courtRows),
    splitCounts(ctx, 'indoor', gameRows),
  ])
  const bookings = [
    ...courtRows.map((b) => toBoardBooking(ctx, 'court', b, nowMs, courtShares)),
    ...gameRows.map((b) => toBoardBooking(ctx, 'indoor_game', b, nowMs, gameShares)),
  ]
  let paid = 0
  let due = 0
  let count = 0
  for (const b of [...courtRows, ...gameRows]) {
    if (b.status === 'cancelled') continue
    count++
    paid += b.paid_amount
    due += Math.max(b.total_amount - b.paid_amount, 0)
  }

  return {
    date: day,
    now: ctx.zone.format(at),
    time_zone: ctx.zone.name,
    venue: {
      id: venue.id,
      name: venue.name,
      slug: venue.slug,
      opening_time: toHHmm(venue.opening_time),
      closing_time: toHHmm(venue.closing_time),
    },
    is_holiday: holiday !== undefined,
    holiday_reason: holiday?.reason ?? null,
    columns,
    bookings,
    blocks: blocks.map((k) => ({
      id: k.id,
      court_id: k.court_id,
      start_time: toHHmm(k.start_time),
      end_time: toHHmm(k.end_time),
      reason: k.reason,
    })),
    totals: { bookings: count, paid: formatMoney(paid), due: formatMoney(due), cash_taken: formatMoney(cash) },
  }
}

/** How many shares of each split booking among `rows` are paid, by booking id. */
async function splitCounts(ctx: AppContext, kind: 'court' | 'indoor', rows: DayBookingRow[]) {
  const counts = await shareCounts(
    ctx.db,
    kind,
    rows.map((r) => r.id),
  )
  return new Map(counts.map((c) => [Number(c.booking_id), { paid: Number(c.paid), total: Number(c.shares) }]))
}
