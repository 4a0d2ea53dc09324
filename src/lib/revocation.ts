import { randomBytes } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import { sql } from 'kysely'
import { CACHE_CHANNEL } from './cache.ts'
import type { ChangeFeed } from './changes.ts'
import type { Executor } from './db.ts'

// A revoked token is refused by every instance from the next request (docs/deployment.md, "Signing
// in and uploads"). Instances cache who a token belongs to (lib/auth.ts) and forget it when the
// database's change notification arrives, a few milliseconds after the revoking commit. So a
// revocation (logout, a token deleted, a user suspended or their roles changed) waits, after its
// commit, until every other instance that caches has heard it: it sends `sync:<nonce>` on the same
// channel; notifications arrive in commit order, so an instance that answers `ack:<nonce>:<id>` has
// already dropped the token. Instances that cache register in `cache_instances` with a heartbeat;
// one that has not been seen for STALE_SECONDS is not waited for, and nobody waits more than
// SYNC_TIMEOUT_MS (then the log says which instances did not answer).

const HEARTBEAT_MS = 5_000
const STALE_SECONDS = 15
const SYNC_TIMEOUT_MS = 2_000

export class RevocationBarrier {
  readonly id = randomBytes(8).toString('hex')
  private waiters = new Map<string, { pending: Set<string>; done: () => void }>()
  private heartbeat: NodeJS.Timeout | undefined
  private joined = false

  constructor(
    private readonly db: Executor,
    private readonly changes: ChangeFeed,
    private readonly log: FastifyBaseLogger,
  ) {
    changes.subscribe((tag) => this.heard(tag))
  }

  /** Messages of the barrier, not cache tags: the cache and the desk streams skip them. */
  static isOwnMessage(tag: string): boolean {
    return tag.startsWith('sync:') || tag.startsWith('ack:')
  }

  /** This instance caches tokens: it registers, and answers every sync from now on. */
  async join(): Promise<void> {
    this.joined = true
    await this.beat()
    this.heartbeat = setInterval(() => {
      this.beat().catch((err) => this.log.warn({ err }, 'revocation heartbeat failed'))
    }, HEARTBEAT_MS)
    this.heartbeat.unref()
  }

  async leave(): Promise<void> {
    clearInterval(this.heartbeat)
    if (!this.joined) return
    this.joined = false
    await sql`DELETE FROM cache_instances WHERE id = ${this.id}`.execute(this.db).catch(() => undefined)
  }

  /**
   * Registered only while this instance hears notifications (else it could not answer, and every
   * revocation would wait out the timeout for it; its cache stores nothing meanwhile anyway). Rows
   * of instances gone for an hour (a crash) are removed.
   */
  private async beat() {
    if (!this.changes.live) {
      await sql`DELETE FROM cache_instances WHERE id = ${this.id}`.execute(this.db)
      return
    }
    await sql`INSERT INTO cache_instances (id, seen_at) VALUES (${this.id}, now())
      ON CONFLICT (id) DO UPDATE SET seen_at = now()`.execute(this.db)
    await sql`DELETE FROM cache_instances WHERE seen_at < now() - interval '1 hour'`.execute(this.db)
  }

  private heard(tag: string) {
    if (tag.startsWith('sync:')) {
      if (!this.joined) return
      const nonce = tag.slice(5)
      sql`SELECT pg_notify(${CACHE_CHANNEL}, ${`ack:${nonce}:${this.id}`})`
        .execute(this.db)
        .catch((err) => this.log.warn({ err }, 'revocation ack failed'))
    } else if (tag.startsWith('ack:')) {
      const [, nonce, from] = tag.split(':')
      const waiter = this.waiters.get(nonce)
      if (!waiter) return
      waiter.pending.delete(from)
      if (waiter.pending.size === 0) waiter.done()
    }
  }

  /**
   * Called after a revocation has committed (and this instance has forgotten it): resolves once
   * every other live caching instance has too, or after SYNC_TIMEOUT_MS.
   */
  async sync(): Promise<void> {
    const { rows } = await sql<{ id: string }>`
      SELECT id FROM cache_instances
      WHERE id <> ${this.id} AND seen_at > now() - make_interval(secs => ${STALE_SECONDS})`.execute(this.db)
    if (rows.length === 0) return
    await this.changes.start()
    const nonce = randomBytes(8).toString('hex')
    const pending = new Set(rows.map((r) => r.id))
    let timer: NodeJS.Timeout | undefined
    const answered = new Promise<void>((resolve) => {
      this.waiters.set(nonce, { pending, done: resolve })
      timer = setTimeout(resolve, SYNC_TIMEOUT_MS)
    })
    try {
      await sql`SELECT pg_notify(${CACHE_CHANNEL}, ${`sync:${nonce}`})`.execute(this.db)
      await answered
    } finally {
      clearTimeout(timer)
      this.waiters.delete(nonce)
    }
    if (pending.size > 0) this.log.warn({ instances: [...pending] }, 'revocation: instances did not confirm in time')
  }
}
