import { cacheTags } from '../../lib/cache-tags.ts'
import { toMinutes } from '../../lib/time.ts'
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

/** The resource's bookable starts in the window, earliest first. */
export function freeStarts(r: Resource, venue: CandidateVenue, taken: readonly Taken[], w: Window): number[] {
  if (w.duration % r.step !== 0) return []
  const own = r.schedule?.get(w.dow)
  if (own === null) return []
  const [open, close] = own ?? [toMinutes(venue.opening_time), toMinutes(venue.closing_time)]
  const earliest = Math.max(w.from, w.nowMinute + venue.min_notice_minutes)
  const first = open + r.step * Math.max(0, Math.ceil((earliest - open) / r.step))
  const last = Math.min(w.to - 1, close - w.duration)
  const out: number[] = []
  for (let s = first; s <= last; s += r.step) {
    const e = s + w.duration
    let free = true
    for (const t of taken) {
      if (t.start < e && s < t.end && (t.holdUntil === null || t.holdUntil > w.nowMs)) {
        free = false
        break
      }
    }
    if (free) out.push(s)
  }
  return out
}

/** Start order: earlier first, then courts before games, then by id. */
export function byStart(a: Start, b: Start): number {
  return a[0] - b[0] || (a[1].kind === b[1].kind ? a[1].id - b[1].id : a[1].kind === 'c' ? -1 : 1)
}

/** The earliest `keep` of many starts, in order (a partial sort: most venues offer few more). */
export function earliest(starts: Start[], keep: number): Start[] {
  return starts.sort(byStart).slice(0, keep)
}
