// The database's change notifications (NOTIFY courtside_cache '<tag>', sent at commit by the triggers
// of migrations/003 and 005), heard over one LISTEN per process and handed to every subscriber in
// memory: the read cache (lib/cache.ts) drops its tagged entries, the desk's event streams
// (modules/desk) tell consoles what changed. The listener starts with the app when the read cache
// is on, else with the first subscriber that needs it (`start()`), and stops when the app closes.

import type { DatabaseHandle } from './db.ts'

export type ListenFn = DatabaseHandle['listen']

export class ChangeFeed {
  private messages = new Set<(tag: string) => void>()
  private states = new Set<(live: boolean) => void>()
  private starting: Promise<void> | undefined
  private unlisten: (() => Promise<void>) | undefined
  private stopped = false
  /** True while the LISTEN connection is up. */
  live = false

  constructor(
    private readonly listen: ListenFn,
    private readonly channel: string,
  ) {}

  /** Starts listening (once; later calls wait for the first). */
  start(): Promise<void> {
    if (this.stopped) return Promise.reject(new Error('The change feed is stopped.'))
    this.starting ??= this.listen(
      this.channel,
      (tag) => {
        for (const fn of this.messages) fn(tag)
      },
      (live) => {
        this.live = live
        for (const fn of this.states) fn(live)
      },
    ).then(
      (unlisten) => {
        this.unlisten = unlisten
      },
      (err) => {
        // A failed start may be tried again by the next subscriber.
        this.starting = undefined
        throw err
      },
    )
    return this.starting
  }

  get started() {
    return this.unlisten !== undefined
  }

  /** Calls `fn` with every tag heard; returns the unsubscribe function. */
  subscribe(fn: (tag: string) => void): () => void {
    this.messages.add(fn)
    return () => this.messages.delete(fn)
  }

  /** Calls `fn` whenever the listener connects (true) or loses its connection (false). */
  onState(fn: (live: boolean) => void): () => void {
    this.states.add(fn)
    return () => this.states.delete(fn)
  }

  async stop() {
    this.stopped = true
    await this.starting?.catch(() => undefined)
    await this.unlisten?.()
    this.unlisten = undefined
  }
}
