import type { AppContext } from '../../lib/context.ts'
import { AppError } from '../../lib/errors.ts'
import { venueOfResource } from './queries.ts'

// The desk's change stream (GET /venues/{venue}/events). The database announces every committed
// change of a board's sources on `courtside_cache` (migrations/003 and 005: 'slots:<court>' for a
// court's bookings, their payments and charges, 'court:<court>' for the court, its blocks, schedule
// and rules, 'game:<game>' for a game and its bookings, 'venue:<venue>' for the venue and its
// holidays). One listener per process (ctx.changes) feeds this hub, which maps a court or game to
// its venue (an in-memory map, loaded on a miss) and writes `change` events to the streams open on
// that venue. Several notifications for one thing within a tick go out as one event. A token's or
// user's change ('token:<id>', 'user:<id>') has the streams it concerns check their access at once.

export type ChangeKind = 'court' | 'indoor_game' | 'venue'
export interface Change {
  kind: ChangeKind
  id: number
}

/** What a stream needs from the hub: a way to send text, to end, and to check its access again. */
export interface EventSink {
  userId: number
  /** The id of the token the stream was opened with. */
  tokenId: number
  venueId: number
  send(text: string): void
  end(): void
  /** Asks the database whether the token and the user's place at the venue still hold; ends the stream if not. */
  recheck(): void
}

/** `token:<id>` or `user:<id>`: a token deleted, or a user suspended, changed, or added to or removed from a staff. */
function parseRevocation(tag: string): { token: number } | { user: number } | null {
  const m = /^(token|user):(\d+)$/.exec(tag)
  if (!m) return null
  const id = Number(m[2])
  return m[1] === 'token' ? { token: id } : { user: id }
}

/** Streams one user may hold open on one instance. */
export const MAX_STREAMS_PER_USER = 10
const MAX_KNOWN_RESOURCES = 10_000

/** A server-sent event: `event: <name>` and one `data:` line of JSON. */
export function sseEvent(name: string, data: unknown): string {
  return `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`
}

function parseTag(tag: string): Change | null {
  const m = /^(slots|court|game|venue):(\d+)$/.exec(tag)
  if (!m) return null
  const id = Number(m[2])
  if (!Number.isSafeInteger(id)) return null
  const kind: ChangeKind = m[1] === 'game' ? 'indoor_game' : m[1] === 'venue' ? 'venue' : 'court'
  return { kind, id }
}

export class DeskEvents {
  private byVenue = new Map<number, Set<EventSink>>()
  private perUser = new Map<number, number>()
  /** "court:<id>" / "indoor_game:<id>" → venue id. */
  private venues = new Map<string, number>()
  private pending = new Map<string, Change>()
  private flushing = false
  private unsubscribe: (() => void)[] = []
  private wasLive = true

  constructor(private readonly ctx: Pick<AppContext, 'db' | 'changes' | 'log'>) {
    this.unsubscribe.push(
      ctx.changes.subscribe((tag) => this.heard(tag)),
      ctx.changes.onState((live) => this.state(live)),
    )
  }

  get size() {
    let n = 0
    for (const set of this.byVenue.values()) n += set.size
    return n
  }

  /**
   * Adds a stream; 429 beyond MAX_STREAMS_PER_USER for its user. Starts the database listener if
   * nothing started it yet (the read cache off). Returns the function that removes the stream.
   */
  async open(sink: EventSink): Promise<() => void> {
    if ((this.perUser.get(sink.userId) ?? 0) >= MAX_STREAMS_PER_USER) {
      throw new AppError(429, `Too many open event streams (at most ${MAX_STREAMS_PER_USER} per user).`)
    }
    this.perUser.set(sink.userId, (this.perUser.get(sink.userId) ?? 0) + 1)
    const set = this.byVenue.get(sink.venueId) ?? new Set()
    set.add(sink)
    this.byVenue.set(sink.venueId, set)
    let removed = false
    const remove = () => {
      if (removed) return
      removed = true
      set.delete(sink)
      if (set.size === 0 && this.byVenue.get(sink.venueId) === set) this.byVenue.delete(sink.venueId)
      const left = (this.perUser.get(sink.userId) ?? 1) - 1
      if (left > 0) this.perUser.set(sink.userId, left)
      else this.perUser.delete(sink.userId)
    }
    try {
      await this.ctx.changes.start()
    } catch (err) {
      remove()
      throw err
    }
    return remove
  }

  /** Ends every stream (the app is closing) and stops hearing changes. */
  close() {
    for (const fn of this.unsubscribe) fn()
    this.unsubscribe = []
    for (const set of [...this.byVenue.values()]) {
      for (const sink of [...set]) sink.end()
    }
    this.byVenue.clear()
    this.perUser.clear()
  }

  private heard(tag: string) {
    if (this.byVenue.size === 0) return
    const revoked = parseRevocation(tag)
    if (revoked) return this.recheck(revoked)
    const change = parseTag(tag)
    if (!change) return
    this.pending.set(`${change.kind}:${change.id}`, change)
    if (this.flushing) return
    this.flushing = true
    setImmediate(() => {
      this.flushing = false
      const changes = [...this.pending.values()]
      this.pending.clear()
      for (const c of changes) {
        this.deliver(c).catch((err) => this.ctx.log.warn({ err }, 'desk events: venue look-up failed'))
      }
    })
  }

  /**
   * A token or user changed (logout, a device revoked, suspension, staff removal): that user's streams
   * (or the token's) check their access now rather than at the next heartbeat, on every instance,
   * since the change arrives as the database's notification.
   */
  private recheck(revoked: { token: number } | { user: number }) {
    for (const set of this.byVenue.values()) {
      for (const sink of set) {
        if ('token' in revoked ? sink.tokenId === revoked.token : sink.userId === revoked.user) sink.recheck()
      }
    }
  }

  /** After the listener was down, notifications may be lost: every open board reloads. */
  private state(live: boolean) {
    if (live && !this.wasLive) {
      for (const [venueId, set] of this.byVenue) {
        const text = sseEvent('change', { kind: 'venue', id: venueId })
        for (const sink of set) sink.send(text)
      }
    }
    this.wasLive = live
  }

  private async deliver(change: Change) {
    const venueId = change.kind === 'venue' ? change.id : await this.venueOf(change.kind, change.id)
    if (venueId === undefined) return
    const set = this.byVenue.get(venueId)
    if (!set) return
    const text = sseEvent('change', change)
    for (const sink of set) sink.send(text)
  }

  private async venueOf(kind: 'court' | 'indoor_game', id: number): Promise<number | undefined> {
    const key = `${kind}:${id}`
    const known = this.venues.get(key)
    if (known !== undefined) return known
    const venueId = await venueOfResource(this.ctx.db, kind, id)
    if (venueId === undefined) return undefined
    if (this.venues.size >= MAX_KNOWN_RESOURCES) this.venues.clear()
    this.venues.set(key, venueId)
    return venueId
  }
}
