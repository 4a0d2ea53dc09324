import { cacheTags } from '../../lib/cache-tags.ts'
import type { AppContext } from '../../lib/context.ts'
import type { FreeSlot } from '../venues/index.ts'
import { courtResource, type Found, gameResource, type Resource, type Taken, takenRange } from './free-time.ts'
import { liveCourts, liveGames, takenOn } from './repository.ts'

// What the free-time search keeps in memory between requests (docs/catalogue.md, "Free-time
// search"): each venue's live courts and games, and per date what is taken on each of them. Each
// piece carries the read cache's mark of when it was loaded and is used only while the cache says
// nothing it came from has changed since (the same NOTIFY that drops cached availability): a
// court's bookings announce 'slots:<id>', its blocks 'court:<id>', a game's bookings 'game:<id>',
// and courts, games, schedules, venues and sports 'catalogue'. A piece that changed, or that was
// never loaded, is loaded again for this request's venues in one query per table. With the read
// cache off or its listener down, nothing is kept and every search reads the database.

/** Dates whose taken slots are kept (today, tonight's search, the next days); the oldest goes first. */
const DATES_KEPT = 8
/** Searches whose venues found are kept; the oldest goes first. */
const RESULTS_KEPT = 256
/**
 * How long after its time ran out a result may still answer while it is worked out again (ms): a
 * start that passed, or a hold that ended, a moment ago shown for the milliseconds of that work
 * (booking a started slot is refused by the booking rules).
 */
const STALE_FOR = 60_000

/**
 * A search's venues found, kept until the minute ends or a hold in it runs out (`validUntil`), or a
 * court, game or the catalogue it was read from changes (`tags`, asked with `changedSince`).
 */
export interface Result {
  mark: number
  validUntil: number
  tags: Set<string>
  found: Found[]
  /** The priced free slots of the pages asked for, by "offset:perPage". */
  prices: Map<string, Map<number, FreeSlot[]>>
}

interface Held<T> {
  mark: number
  value: T
}

export class FreeTimeIndex {
  private venues = new Map<number, Held<Resource[]>>()
  /** Per date; weak, so a venue's courts loaded again let go of what was kept for the old ones. */
  private days = new Map<string, WeakMap<Resource, Held<Taken[]>>>()

  private results = new Map<string, Result>()
  private working = new Map<string, Promise<Result>>()

  constructor(private readonly ctx: Pick<AppContext, 'db' | 'cache'>) {}

  /**
   * The kept result of a search: `fresh` when it still stands at `nowMs`. One that went out of date
   * only by the clock (the minute ended, a hold ran out) less than STALE_FOR ago may still answer
   * while it is worked out again (`fresh: false`). One that something it was read from changed
   * since is never answered (a player who just booked must not see the slot free): null.
   */
  result(key: string, nowMs: number): { result: Result; fresh: boolean } | null {
    const held = this.results.get(key)
    if (!held) return null
    const mark = this.ctx.cache.mark()
    const changed = this.ctx.cache.changedSince(held.mark)
    // The cache cleared, its listener down, or more changes than it remembers: nothing to vouch for it.
    if (changed === null || nowMs >= held.validUntil + STALE_FOR || changed.some((tag) => held.tags.has(tag))) {
      this.results.delete(key)
      return null
    }
    // Nothing it depends on changed up to now: later checks start from here.
    held.mark = mark
    return { result: held, fresh: nowMs < held.validUntil }
  }

  /** `work`'s promise, shared by every caller asking with `key` while it runs. */
  once(key: string, work: () => Promise<Result>): Promise<Result> {
    let running = this.working.get(key)
    if (!running) {
      running = work().finally(() => this.working.delete(key))
      this.working.set(key, running)
    }
    return running
  }

  /** Keeps a search's result (made from data read after `mark`). */
  keep(key: string, result: Result) {
    if (!this.ctx.cache.enabled) return
    if (this.results.size >= RESULTS_KEPT) this.results.delete(this.results.keys().next().value!)
    this.results.set(key, result)
  }

  /** The live courts and games of each venue, by venue id. */
  async resources(venueIds: number[]): Promise<Map<number, Resource[]>> {
    const { cache } = this.ctx
    const out = new Map<number, Resource[]>()
    const stale: number[] = []
    for (const id of venueIds) {
      const held = this.venues.get(id)
      if (held && cache.unchanged(held.mark, [cacheTags.catalogue])) out.set(id, held.value)
      else stale.push(id)
    }
    if (stale.length === 0) return out
    const mark = cache.mark()
    const [courts, games] = await Promise.all([liveCourts(this.ctx.db, stale), liveGames(this.ctx.db, stale)])
    for (const id of stale) out.set(id, [])
    for (const r of courts) out.get(r.venue_id)?.push(courtResource(r))
    for (const r of games) out.get(r.venue_id)?.push(gameResource(r))
    if (cache.enabled) for (const id of stale) this.venues.set(id, { mark, value: out.get(id)! })
    return out
  }

  /** What is taken on `date` on each resource. */
  async taken(date: string, resources: Resource[]): Promise<Map<Resource, Taken[]>> {
    const { cache } = this.ctx
    const day = this.days.get(date)
    const out = new Map<Resource, Taken[]>()
    const stale: Resource[] = []
    for (const r of resources) {
      const held = day?.get(r)
      if (held && cache.unchanged(held.mark, r.tags)) out.set(r, held.value)
      else stale.push(r)
    }
    if (stale.length === 0) return out
    const mark = cache.mark()
    const rows = await takenOn(this.ctx.db, date, [...new Set(stale.map((r) => r.venueId))])
    const byKey = new Map<string, Taken[]>()
    for (const r of stale) {
      const list: Taken[] = []
      out.set(r, list)
      byKey.set(`${r.kind}${r.id}`, list)
    }
    for (const row of rows) byKey.get(`${row.kind}${row.rid}`)?.push(takenRange(row))
    if (cache.enabled) {
      const kept = day ?? this.newDay(date)
      for (const r of stale) kept.set(r, { mark, value: out.get(r)! })
    }
    return out
  }

  private newDay(date: string) {
    if (this.days.size >= DATES_KEPT) this.days.delete(this.days.keys().next().value!)
    const day = new WeakMap<Resource, Held<Taken[]>>()
    this.days.set(date, day)
    return day
  }
}

const indexes = new WeakMap<object, FreeTimeIndex>()

/** The app's one index (its context's). */
export function freeTimeIndex(ctx: Pick<AppContext, 'db' | 'cache'>): FreeTimeIndex {
  let index = indexes.get(ctx)
  if (!index) {
    index = new FreeTimeIndex(ctx)
    indexes.set(ctx, index)
  }
  return index
}
