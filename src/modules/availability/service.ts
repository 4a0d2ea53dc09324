import type { AuthUser } from '../../lib/auth.ts'
import { type CacheTag, cacheTags } from '../../lib/cache-tags.ts'
import type { AppContext } from '../../lib/context.ts'
import type { Executor } from '../../lib/db.ts'
import { Invalid, NotFound } from '../../lib/errors.ts'
import { pathId } from '../../lib/ids.ts'
import { formatMoney } from '../../lib/money.ts'
import { addDays, isValidDate, toHHmm } from '../../lib/time.ts'
import type { WallClock, Zone } from '../../lib/zone.ts'
import { venueRoleOf } from '../venues/index.ts'
import { type Day, type DayKind, loadDay, type TakenRange } from './repository.ts'
import { daySlots, type Slot } from './slots.ts'

// GET /courts/{court}/availability and /indoor-games/{indoorGame}/availability: one query each
// (court or game, venue, schedule, rules, holiday, blocks and live bookings of the date).

function checkDate(date: string, today: string) {
  if (!isValidDate(date)) throw new Invalid('date', 'The date field must be a valid date.')
  if (date < today) throw new Invalid('date', 'The date field must be a date after or equal to today.')
}

type Context = Pick<AppContext, 'db' | 'cache' | 'clock' | 'zone'>

/**
 * Public when the venue is in the public catalogue and the court/game is active; the venue's own
 * people (and super_admin) also see unverified venues and inactive courts. Anyone else: 404.
 */

function visibleToAll(row: Day) {
  return row.is_active && row.verification_status === 'verified' && row.venue_active
}

async function assertVisibleToStaff(db: Executor, user: AuthUser | null, venueId: number) {
  if (user && (await venueRoleOf(db, user, venueId))) return
  throw new NotFound()
}

/** A slot is free when it has not started (venue time) and no taken range overlaps it. */
function freeTest(date: string, taken: TakenRange[], at: Date, now: { date: string; time: string }) {
  const nowMs = at.getTime()
  return (slot: Slot) => {
    const start = `${slot.start_time}:00`
    const end = `${slot.end_time}:00`
    if (date === now.date && start < now.time) return false
    return !taken.some(
      (r) => r.start_time < end && start < r.end_time && !(r.hold_expires_at && Date.parse(r.hold_expires_at) <= nowMs),
    )
  }
}

/**
 * How long a loaded day may be served from the read cache: until the first running hold in it ends
 * (that booking then stops occupying its slot). Changes to the day's sources invalidate it earlier.
 */
function cacheFor(day: { venue_id: number; bookings: TakenRange[] }, tags: CacheTag[]) {
  let expiresAt = Number.POSITIVE_INFINITY
  for (const b of day.bookings) {
    if (b.hold_expires_at) expiresAt = Math.min(expiresAt, Date.parse(b.hold_expires_at))
  }
  return { tags: [...tags, cacheTags.venue(day.venue_id)], expiresAt }
}

/**
 * The cache tags announced by changes to a court's or a game's day (migrations/003 and 005): a
 * court's own rows, schedule, rules and blocks say 'court:<id>', its bookings 'slots:<id>'; an indoor
 * game and its bookings say 'game:<id>'.
 */
const DAY_TAGS = {
  court: (id: number) => [cacheTags.court(id), cacheTags.slots(id)],
  indoor: (id: number) => [cacheTags.game(id)],
}

/** The read cache's key word of a kind's days. */
const CACHE_KEY = { court: 'court', indoor: 'game' }

/**
 * A day's answer as of one instant, kept on that day (so it dies with the cache entry, whose expiry
 * is the first running hold's end). It is reused while no slot has started since: `validThrough` is
 * the next slot start (venue time) at that instant. The route encodes it once (src/lib/rendered.ts)
 * and keeps the bytes on it; the body is built only for that, so the thousands of days of a busy
 * cache do not keep their slot objects next to their bytes. A property of the day rather than a
 * WeakMap entry: with thousands of days held, each lookup in a table is a miss in the CPU's caches
 * (docs/performance.md, "Why the hot paths look this way").
 */
export interface DayAnswer<R> {
  readonly validThrough: string
  /** `validThrough` as an instant (ms; for "9999" the end of `date`): when a copy of the answer must go. */
  readonly validUntil: number
  /** The answer's body, built afresh on each call (the route encodes it once). */
  body(): R
}
const ANSWER = Symbol('day answer')
/** A kind's body of a day: the route's shape (a court's adds its hours and prices). */
type Render<R> = (day: Day, slots: Slot[], free: (slot: Slot) => boolean) => R
type Answered<R> = { [ANSWER]?: DayAnswer<R> }

/**
 * The answer of `day` as of `at`. Made here, outside the request's scope, so that what the answer
 * keeps while the day is cached is only what its body needs (not the request's user or context).
 * The grid is made once for `validThrough` and the body, and let go of when the body is built.
 */
function dayAnswer<R>(
  zone: Zone,
  day: Day,
  date: string,
  at: Date,
  now: Readonly<WallClock>,
  render: Render<R>,
): DayAnswer<R> {
  let slots: Slot[] | null = daySlots(day.setup)
  const validThrough = nextSlotStart(date, slots, now)
  // A copy kept whole goes at the next slot start, and at the latest when `date` is past (a past
  // date is 422: checkDate).
  const dayEnd = zone.instant(addDays(date, 1), '00:00').getTime()
  return {
    validThrough,
    validUntil: validThrough === '9999' ? dayEnd : zone.instant(date, validThrough.slice(11)).getTime(),
    body: () => {
      const grid = slots ?? daySlots(day.setup)
      slots = null
      return render(day, grid, freeTest(date, [...day.bookings, ...day.blocks], at, now))
    },
  }
}

/** The first slot start at or after `now` on `date`, as "YYYY-MM-DD HH:mm:ss"; "9999" when none. */
function nextSlotStart(date: string, slots: Slot[], now: { date: string; time: string }): string {
  if (date > now.date) return `${date} ${slots[0]?.start_time ?? '00:00'}:00`
  const upcoming = slots.map((s) => `${s.start_time}:00`).find((start) => start >= now.time)
  return upcoming ? `${date} ${upcoming}` : '9999'
}

/**
 * The answer for a court ('court') or indoor game ('game') on `date`: the day comes through the read
 * cache, its rendering is reused until a slot starts. Visibility is checked on every request.
 *
 * A day held by the cache and visible to everyone is answered without a promise of this service's
 * own: this is the hot path of the busiest read (docs/performance.md, "Why the hot paths look this
 * way"), where the cache's `through`, the visibility check and two async wrappers would each cost a
 * promise and a microtask turn.
 */
function availability<R>(
  ctx: Context,
  user: AuthUser | null,
  kind: DayKind,
  key: string,
  date: string,
  render: Render<R>,
): DayAnswer<R> | Promise<DayAnswer<R>> {
  const id = pathId(key)
  // "Now" (which slots of today have started, which holds have run out) is the app's clock.
  const at = ctx.clock.now()
  const now = ctx.zone.wallClock(at)
  checkDate(date, now.date)
  const answer = (day: Day) => {
    let held = (day as Answered<R>)[ANSWER]
    if (held === undefined || `${now.date} ${now.time}` > held.validThrough) {
      held = dayAnswer(ctx.zone, day, date, at, now, render)
      ;(day as Answered<R>)[ANSWER] = held
    }
    // A copy of this answer kept whole (the front cache, src/lib/front-cache.ts) goes when the next slot starts.
    ctx.cache.narrow(held.validUntil)
    return held
  }
  const visible = (day: Day | undefined): DayAnswer<R> | Promise<DayAnswer<R>> => {
    if (!day) throw new NotFound()
    if (visibleToAll(day)) return answer(day)
    return assertVisibleToStaff(ctx.db, user, day.venue_id).then(() => answer(day))
  }
  const day = ctx.cache.read(
    `availability:${CACHE_KEY[kind]}:${id}:${date}`,
    () => loadDay(ctx.db, kind, id, date, { withBookings: true, now: at }),
    (d) => (d ? cacheFor(d, DAY_TAGS[kind](id)) : null),
    at.getTime(),
  )
  return day instanceof Promise ? day.then(visible) : visible(day)
}

export function courtAvailability(ctx: Context, user: AuthUser | null, key: string, date: string) {
  return availability(ctx, user, 'court', key, date, (day, slots, free) => ({
    date,
    slot_minutes: day.setup.slotMinutes,
    is_closed: day.setup.isClosed,
    open_time: toHHmm(day.setup.openTime),
    close_time: toHHmm(day.setup.closeTime),
    slots: slots.map((slot) => ({
      start_time: slot.start_time,
      end_time: slot.end_time,
      is_available: free(slot),
      price_per_hour: formatMoney(slot.price_per_hour),
    })),
  }))
}

export function indoorAvailability(ctx: Context, user: AuthUser | null, key: string, date: string) {
  return availability(ctx, user, 'indoor', key, date, (day, slots, free) => ({
    date,
    slot_minutes: day.setup.slotMinutes,
    slots: slots.map((slot) => ({
      start_time: slot.start_time,
      end_time: slot.end_time,
      is_available: free(slot),
    })),
  }))
}
