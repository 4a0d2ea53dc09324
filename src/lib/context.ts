import type { FastifyBaseLogger } from 'fastify'
import type { Config } from '../config.ts'
import type { ReadCache } from './cache.ts'
import type { ChangeFeed } from './changes.ts'
import type { Clock } from './clock.ts'
import type { Database } from './db.ts'
import type { JobQueue } from './jobs.ts'
import type { Messenger } from './messenger.ts'
import type { Metrics } from './metrics.ts'
import type { Storage } from './storage.ts'
import type { Zone } from './zone.ts'

/** What every service gets: configuration and the shared plumbing, created once at start. */
export interface AppContext {
  config: Config
  db: Database
  dbKind: 'pglite' | 'postgres'
  jobs: JobQueue
  messenger: Messenger
  storage: Storage
  log: FastifyBaseLogger
  cache: ReadCache
  /** The database's change notifications, one LISTEN per process (lib/changes.ts). */
  changes: ChangeFeed
  metrics: Metrics
  /** "Now" for every rule (lib/clock.ts); tests set it. */
  clock: Clock
  /** The venue time zone (APP_TIMEZONE): wall-clock dates and times <-> instants. */
  zone: Zone
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext
    auth: {
      identify: (req: import('fastify').FastifyRequest) => Promise<import('./auth.ts').AuthUser | null>
      required: import('fastify').onRequestAsyncHookHandler
      optional: import('fastify').onRequestHookHandler
      roles: (...roles: import('./auth.ts').Role[]) => import('fastify').onRequestAsyncHookHandler
    }
  }
}
