import { cacheTags } from '../../lib/cache-tags.ts'
import { toMinutes } from '../../lib/time.ts'
import type { CatalogueFilter } from '../venues/index.ts'
import type { CandidateVenue, CourtRow, GameRow, TakenRow } from './repository.ts'

// The free-time search's arithmetic (docs/catalogue.md, "Free-time search"), pure: a court's or
// game's grid on the date, the starts of the window that are bookable, and per venue the earliest.
// The grid and the price are availability's (src/modules/availability/slots.ts): slots of the
// court's slot_minutes laid from its opening time, a booking being whole slots inside the hours.

/** A court ('c') or an indoor game ('g') as the search reads it. */
export interface Resource {
  kind: 'c' | 'g'
  id: number
  venueId: number
  name: string
  step: number
  /** What a sport filter matches: a court's sport name, slug, key and type; a game's type. */
  keys: string[]
  /** A court's sport category (indoor, outdoor); null for a game. */
  category: string | null
  /** A court's own hours by weekday (0 = Sunday): [open, close] minutes, or null on a closed day. */
  schedule: Map<number, [number, number] | null> | null
  /** The read cache's tags of what is taken on it (free-index.ts). */
  tags: string[]
}

export function courtResource(r: CourtRow): Resource {
  const schedule = new Map<number, [number, number] | null>()
  for (const [dow, open, close, closed] of r.schedules) {
    schedule.set(dow, closed ? null : [toMinutes(open), toMinutes(close)])
  }
  const keys = [r.sport_name?.toLowerCase(), r.sport_slug, r.sport_key, r.type.toLowerCase()]
  return {
    kind: 'c',
    id: r.id,
    venueId: r.venue_id,
    name: r.name,
    step: r.slot_minutes,
    keys: keys.filter((k): k is string => typeof k === 'string'),
    category: r.sport_category,
    schedule,
    tags: [cacheTags.slots(r.id), cacheTags.court(r.id)],
  }
}

export function gameResource(r: GameRow): Resource {
  return {
    kind: 'g',
    id: r.id,
    venueId: r.venue_id,
    name: r.name,
    step: r.slot_minutes,
    keys: [r.game_type],
    category: null,
    schedule: null,
    tags: [cacheTags.game(r.id)],
  }
}

/** Whether a resource is of the sport, as the catalogue's filter reads a sport (venues/repository.ts). */
export function ofSport(r: Resource, sport: string | undefined): boolean {
  if (sport === undefined) return true
  if (sport === 'indoor' || sport === 'outdoor') return r.kind === 'g' ? sport === 'indoor' : r.category === sport
  return r.keys.includes(sport)
}

/** A taken range in minutes, with the hold's end (ms) of a pending booking. */
export interface Taken {
  start: number
  end: number
  holdUntil: number | null
}

export function takenRange(row: TakenRow): Taken {
  return {
    start: toMinutes(row.start_time),
    end: toMinutes(row.end_time),
    holdUntil: row.hold_expires_at === null ? null : new Date(row.hold_expires_at).getTime(),
  }
}

export interface Window {
  dow: number
  from: number
  to: number
  duration: number
  /** Now in minutes since the date's midnight, rounded up (negative for a later date). */
  nowMinute: number
  /** Now, ms: a hold that ended by then takes nothing. */
  nowMs: number
}

/** A bookable start: minute of the day and the resource. */
export type Start = [minute: number, resource: Resource]

/** A venue's hours on the date in minutes: [open, close], read once per venue. */
export function venueHours(v: CandidateVenue): [number, number] {
  return [toMinutes(v.opening_time), toMinutes(v.closing_time)]
}

/**
 * Adds the resource's bookable starts in the window to `best`, the venue's earliest `keep` starts
 * in order (byStart); returns how many starts it found.
 */
export function addFreeStarts(
  r: Resource,
  hours: [number, number],
  notice: number,
  taken: readonly Taken[],
  w: Window,
  best: Start[],
  keep: number,
): number {
  if (w.duration % r.step !== 0) return 0
  const own = r.schedule?.get(w.dow)
  if (own === null) return 0
  const [open, close] = own ?? hours
  const earliest = Math.max(w.from, w.nowMinute + notice)
  const first = open + r.step * Math.max(0, Math.ceil((earliest - open) / r.step))
  const last = Math.min(w.to - 1, close - w.duration)
  let found = 0
  for (let s = first; s <= last; s += r.step) {
    const e = s + w.duration
    let free = true
    for (const t of taken) {
      if (t.start < e && s < t.end && (t.holdUntil === null || t.holdUntil > w.nowMs)) {
        free = false
        break
      }
    }
    if (!free) continue
    found++
    const start: Start = [s, r]
    if (best.length < keep) insert(best, start)
    else if (byStart(start, best[keep - 1]!) < 0) {
      best.pop()
      insert(best, start)
    }
  }
  return found
}

function insert(list: Start[], start: Start) {
  let i = list.length
  while (i > 0 && byStart(start, list[i - 1]!) < 0) i--
  list.splice(i, 0, start)
}

/** Start order: earlier first, then courts before games, then by id. */
function byStart(a: Start, b: Start): number {
  return a[0] - b[0] || (a[1].kind === b[1].kind ? a[1].id - b[1].id : a[1].kind === 'c' ? -1 : 1)
}

/** A venue found by the search: its earliest starts (the first is its soonest). */
export interface Found {
  venue: CandidateVenue
  starts: Start[]
}

const desc = (a: number, b: number) => b - a
/** Ascending with nulls last (the SQL sorts' `asc nulls last`), or descending with nulls last. */
const nullsLast = (a: number | null, b: number | null, dir: 1 | -1) =>
  a === null ? (b === null ? 0 : 1) : b === null ? -1 : dir * (a - b)

/**
 * The order of the catalogue's sorts (venues/repository.ts, sortKeys) over the venues found, the id
 * descending last; `soonest` puts the earliest start first, then as Recommended.
 */
export function foundOrder(sort: CatalogueFilter['sort'], geo: boolean): (a: Found, b: Found) => number {
  const recommended = (a: CandidateVenue, b: CandidateVenue) =>
    Number(b.verified) - Number(a.verified) ||
    nullsLast(a.rating, b.rating, -1) ||
    desc(a.reviews_count, b.reviews_count) ||
    (geo ? nullsLast(a.distance, b.distance, 1) : 0)
  const keys: Record<CatalogueFilter['sort'], (a: CandidateVenue, b: CandidateVenue) => number> = {
    recommended,
    distance: geo ? (a, b) => nullsLast(a.distance, b.distance, 1) : recommended,
    rating: (a, b) => nullsLast(a.rating, b.rating, -1) || desc(a.reviews_count, b.reviews_count),
    price: (a, b) => nullsLast(a.min_price, b.min_price, 1),
    newest: (a, b) => desc(a.created_at, b.created_at),
    soonest: recommended,
  }
  const key = keys[sort]
  const soonest = sort === 'soonest'
  return (a, b) =>
    (soonest ? a.starts[0]![0] - b.starts[0]![0] : 0) || key(a.venue, b.venue) || desc(a.venue.id, b.venue.id)
}
