import type { FastifyBaseLogger } from 'fastify'
import type { Config } from '../config.ts'
import type { ReadCache } from './cache.ts'
import type { ChangeFeed } from './changes.ts'
import type { Clock } from './clock.ts'
import type { Database, Executor } from './db.ts'
import type { FrontCache } from './front-cache.ts'
import type { JobQueue } from './jobs.ts'
import type { Messenger } from './messenger.ts'
import type { Metrics } from './metrics.ts'
import type { Storage } from './storage.ts'
import type { Zone } from './zone.ts'

/**
 * Steps one module runs inside another module's transaction, where the module that runs them may
 * not import the one that provides them. The composition root (src/modules/index.ts, wireSteps)
 * sets each one when the app is built; until then calling one throws, so a missing wire is loud.
 */
export interface Steps {
  /**
   * A booking was cancelled, expired or marked no-show in `trx` (booking-core's transition): its
   * slot is free. The waitlist offers it to the next customer waiting for it.
   */
  slotFreed(trx: Executor, kind: 'court' | 'indoor', bookingId: number): Promise<unknown>
  /**
   * User `userId` verified a phone in `trx` (accounts' OTP verify): booking-core gives their pending
   * bookings held only the payment window while they had none the hold a verified customer's has.
   */
  phoneVerified(trx: Executor, userId: number): Promise<unknown>
  /** A user's phone is no longer verified (a new number): their holds are cut back (booking-core). */
  phoneUnverified(trx: Executor, userId: number): Promise<unknown>
  /**
   * A completed payment is being received for a booking in `trx` (booking-core's receivePayment,
   * the booking locked); the booking would take `room` paisa of it. Splits marks the shares the
   * payment was started for as paid and answers how much the booking takes: all of `room` for a
   * payment of no share, 0 for one whose shares are gone or paid meanwhile (it goes back to its payer).
   * `forShares`: the shares a wallet payment made in this transaction is for (the payment row is new,
   * so it is not linked to them yet).
   */
  paymentArriving(
    trx: Executor,
    booking: { kind: 'court' | 'indoor'; id: number },
    payment: { id: number; user_id: number | null; amount: number },
    room: number,
    forShares?: readonly number[],
  ): Promise<number>
}

/** Steps before the composition root wires them: each throws. */
export function unwiredSteps(): Steps {
  return {
    slotFreed: () => Promise.reject(new Error('ctx.steps.slotFreed is not wired (src/modules/index.ts)')),
    phoneVerified: () => Promise.reject(new Error('ctx.steps.phoneVerified is not wired (src/modules/index.ts)')),
    phoneUnverified: () => Promise.reject(new Error('ctx.steps.phoneUnverified is not wired (src/modules/index.ts)')),
    paymentArriving: () => Promise.reject(new Error('ctx.steps.paymentArriving is not wired (src/modules/index.ts)')),
  }
}

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
  /** Whole answers of guests' cached reads, sent before routing (lib/front-cache.ts). */
  front: FrontCache
  /** The database's change notifications, one LISTEN per process (lib/changes.ts). */
  changes: ChangeFeed
  /** After a token is revoked: waits until every instance has forgotten it (lib/revocation.ts). */
  revocation: { sync(): Promise<void> }
  metrics: Metrics
  /** "Now" for every rule (lib/clock.ts); tests set it. */
  clock: Clock
  /** The venue time zone (APP_TIMEZONE): wall-clock dates and times <-> instants. */
  zone: Zone
  /** Cross-module steps, wired by the composition root (Steps). */
  steps: Steps
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
