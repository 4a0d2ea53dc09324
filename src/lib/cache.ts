// A per-instance read cache for hot public reads (availability grids, the guest venue catalogue).
// Entries carry tags; the database announces every committed change to their sources with
// NOTIFY courtside_cache '<tag>' (migrations/003_cache_invalidation.sql) and the listener drops the
// entries with that tag, so a write on any instance reaches every instance's cache within
// milliseconds. The TTL bounds staleness should a notification ever be missed; while the listener
// is not connected the cache stores nothing. CACHE_TTL_MS=0 turns it off.

import { type Clock, systemClock } from './clock.ts'

interface Entry {
  value: unknown
  expires: number
  tags: string[]
  /** Its estimated size (sizeOf), counted against the cache's byte budget. */
  bytes: number
}

/**
 * An estimate of the heap a cached value holds, in bytes: V8's usual object, array and string
 * sizes, walked to a bounded depth (a cached value is plain data: rows, grids, pages).
 */
export function sizeOf(value: unknown, depth = 0): number {
  if (value === null || value === undefined) return 8
  switch (typeof value) {
    case 'string':
      return 16 + value.length * 2
    case 'number':
    case 'boolean':
      return 8
    case 'object': {
      if (depth > 8) return 64
      if (value instanceof Date) return 32
      if (ArrayBuffer.isView(value)) return 64 + value.byteLength
      let bytes = 32
      if (Array.isArray(value)) for (const v of value) bytes += 8 + sizeOf(v, depth + 1)
      else for (const k in value) bytes += 8 + sizeOf((value as Record<string, unknown>)[k], depth + 1)
      return bytes
    }
    default:
      return 16
  }
}

/**
 * What a read answered from the cache within one synchronous call depended on (`follow`): the tags
 * and the earliest expiry of the entries it hit, and any expiry of its own (`narrow`). The front
 * cache (src/lib/front-cache.ts) keeps a whole HTTP answer under these, so it is dropped by the same
 * invalidations and expires with the entries it was made from.
 */
export interface Trail {
  tags: string[]
  expires: number
  /** The cache's generation when the read began: a store after an invalidation of its tags is refused. */
  generation: number
  hits: number
}

/** Invalidations remembered for changedSince (half are let go of when it is full). */
const CHANGE_LOG = 8192

export class ReadCache {
  private entries = new Map<string, Entry>()
  private byTag = new Map<string, Set<string>>()
  /** Loads in progress, so concurrent misses of one key share one query, with the generation each started at. */
  private inflight = new Map<string, { loading: Promise<unknown>; generation: number }>()
  /**
   * Bumped by every invalidation. A load is kept only if none of its tags was invalidated while it
   * ran (it may have read the old data): `invalidatedAt` holds each tag's last invalidation, and
   * tags forgotten to bound its size count as invalidated at `forgottenAt`.
   */
  private generation = 0
  private invalidatedAt = new Map<string, number>()
  private forgottenAt = 0
  /** The latest invalidations, [generation, tag], oldest first (`changedSince`); every one after `logFrom` is here. */
  private log: Array<[number, string]> = []
  private logFrom = 0
  /** False until the invalidation listener is connected (and again if it drops). */
  private connected = false
  /** Reads through the cache answered without / with a load (for /metrics). */
  hits = 0
  misses = 0
  /** The estimated bytes of the entries held (three times sizeOf: see set). */
  bytes = 0
  /** Set while `follow` runs: hits add their entry's tags and expiry to it. */
  private trail: Trail | null = null

  /**
   * What is made from this cache's entries and kept with `keep` (the front cache's whole answers):
   * a store of its own, with its own entry cap and a quarter of the byte budget, so that however
   * many are made (one per URL) they never push out the entries they are made from. Invalidated,
   * cleared and turned live with this cache.
   */
  private readonly derived: ReadCache | null

  constructor(
    readonly ttlMs: number,
    private readonly maxEntries = 20_000,
    /** Entries expire by the app's clock: a grid's expiry is its first running hold's end. */
    private readonly clock: Clock = systemClock,
    /** The memory budget (CACHE_MAX_MB): the oldest entries go first when a new one would exceed it. */
    private readonly maxBytes = Number.POSITIVE_INFINITY,
    derived = true,
  ) {
    this.derived = derived ? new ReadCache(ttlMs, Math.ceil(maxEntries / 2), clock, maxBytes / 4, false) : null
  }

  /** False until the invalidation listener is connected (and again if it drops): nothing is stored meanwhile. */
  get live() {
    return this.connected
  }

  set live(live: boolean) {
    this.connected = live
    if (this.derived) this.derived.live = live
  }

  get enabled() {
    return this.ttlMs > 0 && this.connected
  }

  get<T>(key: string, now = this.clock.now().getTime()): T | undefined {
    const e = this.entries.get(key)
    if (!e) return undefined
    if (e.expires <= now) {
      this.delete(key)
      return undefined
    }
    const trail = this.trail
    if (trail !== null) {
      trail.hits++
      for (const tag of e.tags) trail.tags.push(tag)
      if (e.expires < trail.expires) trail.expires = e.expires
    }
    return e.value as T
  }

  /**
   * Runs `read` (synchronous: a promise it returns is not followed) and says which entries it was
   * answered from. Only for a read that must stay true to them: its value is kept with `keep`.
   */
  follow<T>(read: () => T): { value: T; trail: Trail } {
    const outer = this.trail
    const trail: Trail = { tags: [], expires: Number.POSITIVE_INFINITY, generation: this.generation, hits: 0 }
    this.trail = trail
    try {
      return { value: read(), trail }
    } finally {
      this.trail = outer
    }
  }

  /** Within `follow`: what is being read stops being true at `expiresAt` (ms), whatever the entries say. */
  narrow(expiresAt: number) {
    const trail = this.trail
    if (trail !== null && expiresAt < trail.expires) trail.expires = expiresAt
  }

  /**
   * Stores what a followed read made from the cache (`follow`) under `key`, in the store of derived
   * values (`derived`), dropped with the entries it came from: by their tags, at their earliest
   * expiry. Not when the read hit nothing or one of its tags was invalidated since it began.
   * `bytes`: its estimated size, if not `sizeOf`'s.
   */
  keep(key: string, value: unknown, trail: Trail, bytes?: number) {
    if (!this.derived || trail.hits === 0 || !this.unchangedSince(trail.generation, trail.tags)) return
    this.derived.set(key, value, [...new Set(trail.tags)], trail.expires, bytes)
  }

  /** What `keep` stored under `key`, while none of what it was made from has changed or expired. */
  kept<T>(key: string, now?: number): T | undefined {
    return this.derived?.get<T>(key, now)
  }

  /** Entries and estimated bytes of what `keep` stored (for /metrics). */
  get keptSize() {
    return { entries: this.derived?.size ?? 0, bytes: this.derived?.bytes ?? 0 }
  }

  /**
   * The value held under `key`, counted as a hit, or undefined (nothing counted: the caller goes on
   * to `through`, which counts the miss). For a hot path that answers a hit without awaiting.
   */
  hit<T>(key: string, now?: number): T | undefined {
    if (!this.enabled) return undefined
    const value = this.get<T>(key, now)
    if (value !== undefined) this.hits++
    return value
  }

  /** Stores `value` under `key` until `expiresAt` (capped by the TTL). `size`: its estimate, if known. */
  set(key: string, value: unknown, tags: string[], expiresAt = Number.POSITIVE_INFINITY, size?: number) {
    if (!this.enabled) return
    this.delete(key)
    // The value and what is derived from it while cached (an availability grid, the encoded
    // answer), a factor calibrated against heap snapshots; it errs high for availability days,
    // which keep their encoded answer but not its body (docs/performance.md, "Why the hot paths
    // look this way").
    const bytes = size ?? 3 * sizeOf(value)
    if (bytes > this.maxBytes) return
    // Oldest first (Map keeps insertion order) until the entry count and the byte budget allow it.
    while (this.entries.size >= this.maxEntries || this.bytes + bytes > this.maxBytes) {
      const oldest = this.entries.keys().next().value
      if (oldest === undefined) break
      this.delete(oldest)
    }
    this.entries.set(key, {
      value,
      tags,
      bytes,
      expires: Math.min(expiresAt, this.clock.now().getTime() + this.ttlMs),
    })
    this.bytes += bytes
    for (const tag of tags) {
      const keys = this.byTag.get(tag)
      if (keys) keys.add(key)
      else this.byTag.set(tag, new Set([key]))
    }
  }

  /**
   * `through`, answering a hit with the value itself instead of a promise of it, so a service can
   * hand a hit to its route without promises of its own (the busiest reads: the route's handler,
   * not async, then sends it within its own call; src/lib/rendered.ts). `now`: an instant the
   * caller already read from the same clock as the cache's (`ctx.clock`), in ms.
   */
  read<T>(
    key: string,
    load: () => Promise<T>,
    store: (value: T) => { tags: string[]; expiresAt?: number } | null,
    now?: number,
  ): T | Promise<T> {
    const held = this.hit<T>(key, now)
    return held !== undefined ? held : this.through(key, load, store)
  }

  /** Reads through the cache: `load` runs on a miss; `store` says whether and until when to keep it. */
  async through<T>(
    key: string,
    load: () => Promise<T>,
    store: (value: T) => { tags: string[]; expiresAt?: number } | null,
  ): Promise<T> {
    if (!this.enabled) return load()
    const held = this.hit<T>(key)
    if (held !== undefined) return held
    // A load that started before an invalidation may have read what it replaced: a caller arriving
    // after the invalidation (say the request after a logout) must not be handed its result.
    const running = this.inflight.get(key)
    // Joining a load already under way costs no query: a hit.
    if (running && running.generation === this.generation) {
      this.hits++
      return running.loading as Promise<T>
    }
    this.misses++
    const generation = this.generation
    const loading: Promise<T> = load()
      .then((value) => {
        const how = store(value)
        if (how && this.unchangedSince(generation, how.tags)) this.set(key, value, how.tags, how.expiresAt)
        return value
      })
      .finally(() => {
        if (this.inflight.get(key)?.loading === loading) this.inflight.delete(key)
      })
    this.inflight.set(key, { loading, generation })
    return loading
  }

  /**
   * The cache's generation now, for data a module keeps beside the cache (the free-time search's
   * courts and taken slots, src/modules/catalogue): read before loading, and ask `unchanged` later.
   */
  mark(): number {
    return this.generation
  }

  /**
   * True when data loaded at `mark` still stands: the cache is live (its invalidations are heard)
   * and no tag of `tags` was invalidated since. When the cache is off or its listener drops, false.
   */
  unchanged(mark: number, tags: string[]): boolean {
    return this.enabled && this.unchangedSince(mark, tags)
  }

  /**
   * The tags invalidated after `mark` (most recent first), for data that depends on too many tags
   * to ask `unchanged` about each: null when that is no longer known (more than the log holds
   * since, or the cache was cleared) or the cache is off, so the data must be made again.
   */
  changedSince(mark: number): string[] | null {
    if (!this.enabled || mark < this.logFrom) return null
    const tags: string[] = []
    for (let i = this.log.length - 1; i >= 0 && this.log[i]![0] > mark; i--) tags.push(this.log[i]![1])
    return tags
  }

  /** True when no tag in `tags` was invalidated after `generation`. */
  private unchangedSince(generation: number, tags: string[]) {
    return tags.every((tag) => (this.invalidatedAt.get(tag) ?? this.forgottenAt) <= generation)
  }

  invalidate(tag: string) {
    this.derived?.invalidate(tag)
    this.generation++
    if (this.invalidatedAt.size >= 50_000) {
      this.invalidatedAt.clear()
      this.forgottenAt = this.generation
    }
    this.invalidatedAt.set(tag, this.generation)
    this.log.push([this.generation, tag])
    if (this.log.length > CHANGE_LOG) this.logFrom = this.log.splice(0, CHANGE_LOG / 2).at(-1)![0]
    const keys = this.byTag.get(tag)
    if (!keys) return
    this.byTag.delete(tag)
    for (const key of keys) this.delete(key)
  }

  clear() {
    this.derived?.clear()
    this.generation++
    this.invalidatedAt.clear()
    this.forgottenAt = this.generation
    this.log = []
    this.logFrom = this.generation
    this.entries.clear()
    this.byTag.clear()
    this.bytes = 0
  }

  get size() {
    return this.entries.size
  }

  private delete(key: string) {
    const e = this.entries.get(key)
    if (!e) return
    this.entries.delete(key)
    this.bytes -= e.bytes
    for (const tag of e.tags) {
      const keys = this.byTag.get(tag)
      keys?.delete(key)
      if (keys?.size === 0) this.byTag.delete(tag)
    }
  }
}

export const CACHE_CHANNEL = 'courtside_cache'
