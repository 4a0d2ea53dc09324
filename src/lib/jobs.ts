import { hostname } from 'node:os'
import { sql } from 'kysely'
import type { Database, Executor } from './db.ts'

// A small Postgres-backed job queue. Jobs are rows; a worker claims due rows with
// FOR UPDATE SKIP LOCKED, so any number of instances share one queue and each job runs once.
// `uniqueKey` makes enqueueing idempotent (e.g. one reminder per booking, one sweep per minute).
// The queue's own timing (run_at, claim locks, retry back-off, recurring periods, the heartbeat) is
// the database's now() and the system clock, not ctx.clock: it decides when code runs, not what a
// rule says (the sweeps it runs ask ctx.clock). docs/architecture.md, "Layers", rule 7.

export type JobHandler = (payload: Record<string, unknown>) => Promise<void>

export interface EnqueueOptions {
  runAt?: Date
  uniqueKey?: string
  maxAttempts?: number
}

interface Logger {
  error(obj: unknown, msg?: string): void
  debug(obj: unknown, msg?: string): void
}

const LOCK_SECONDS = 300

export class JobQueue {
  private handlers = new Map<string, JobHandler>()
  private recurring: Array<{ name: string; everyMs: number }> = []
  private timer: NodeJS.Timeout | undefined
  private running: Promise<void> | undefined
  private stopped = true
  /** When the loop last showed it is alive (a tick began or a job finished); 0 before start. */
  private beat = 0
  /** Set by stop(): the running tick finishes its claimed batch and claims no more. */
  private draining = false
  /** Jobs run to completion / failed, by job name, since start (for /metrics). */
  readonly completed = new Map<string, number>()
  readonly failed = new Map<string, number>()
  readonly workerId = `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`

  constructor(
    private readonly db: Database,
    private readonly log: Logger,
    private readonly pollMs = 1000,
  ) {}

  register(name: string, handler: JobHandler) {
    this.handlers.set(name, handler)
  }

  /** Runs `name` every `everyMs`, once per period across all instances. */
  every(name: string, everyMs: number, handler: JobHandler) {
    this.register(name, handler)
    this.recurring.push({ name, everyMs })
  }

  /** Adds a job; returns false when a job with the same uniqueKey already exists. */
  async enqueue(
    name: string,
    payload: Record<string, unknown> = {},
    opts: EnqueueOptions = {},
    db: Executor = this.db,
  ): Promise<boolean> {
    const res = await db
      .insertInto('jobs')
      .values({
        name,
        payload: JSON.stringify(payload),
        run_at: opts.runAt ?? sql<Date>`now()`,
        unique_key: opts.uniqueKey ?? null,
        max_attempts: opts.maxAttempts ?? 5,
      })
      .onConflict((oc) => oc.column('unique_key').doNothing())
      .executeTakeFirst()
    return Number(res.numInsertedOrUpdatedRows ?? 0) > 0
  }

  /** Whether the loop was started, is not stopped, and has shown life within `staleMs`. */
  isRunning(staleMs = Math.max(60_000, this.pollMs * 5)) {
    return !this.stopped && this.beat > 0 && Date.now() - this.beat < staleMs
  }

  start() {
    if (!this.stopped) return
    this.stopped = false
    this.draining = false
    this.beat = Date.now()
    const tick = async () => {
      if (this.stopped) return
      this.beat = Date.now()
      this.running = this.runDue().then(() => undefined)
      await this.running.catch((err) => this.log.error({ err }, 'job loop failed'))
      if (!this.stopped) this.timer = setTimeout(tick, this.pollMs)
    }
    this.timer = setTimeout(tick, 0)
  }

  /**
   * Stops claiming jobs and waits for the jobs already claimed (the current batch) to finish, so
   * none is left claimed for LOCK_SECONDS when the process exits.
   */
  async stop() {
    this.stopped = true
    this.draining = true
    if (this.timer) clearTimeout(this.timer)
    await this.running?.catch(() => undefined)
    this.draining = false
  }

  /** Schedules recurring jobs for the current period, then claims and runs every due job. */
  async runDue(now: Date = new Date()): Promise<number> {
    for (const r of this.recurring) {
      const bucket = Math.floor(now.getTime() / r.everyMs)
      await this.enqueue(r.name, {}, { uniqueKey: `${r.name}:${bucket}`, runAt: now, maxAttempts: 1 })
    }
    let ran = 0
    for (;;) {
      // A stopping loop (shutdown) claims nothing more; a direct call (tests, scripts) runs all due.
      if (this.draining) return ran
      const batch = await this.claim(10)
      if (batch.length === 0) return ran
      // The jobs of a batch run side by side: a slow one (a webhook receiver that takes its whole
      // timeout) delays the next claim by its own time, not by the sum of the batch.
      await Promise.all(batch.map((job) => this.execute(job)))
      ran += batch.length
      // Embedded PGlite runs queries on this thread and resolves them as microtasks: without a
      // turn of the event loop between batches, a long queue starves HTTP requests and signals.
      await new Promise((resolve) => setImmediate(resolve))
    }
  }

  private async claim(limit: number) {
    const res = await sql<{
      id: number
      name: string
      payload: Record<string, unknown>
      attempts: number
      max_attempts: number
    }>`
      UPDATE jobs SET locked_until = now() + make_interval(secs => ${LOCK_SECONDS}), attempts = attempts + 1
      WHERE id IN (
        SELECT id FROM jobs
        WHERE done_at IS NULL AND run_at <= now() AND attempts < max_attempts
          AND (locked_until IS NULL OR locked_until < now())
        ORDER BY run_at
        LIMIT ${limit}
        FOR UPDATE SKIP LOCKED
      )
      RETURNING id, name, payload, attempts, max_attempts`.execute(this.db)
    return res.rows
  }

  private async execute(job: {
    id: number
    name: string
    payload: Record<string, unknown>
    attempts: number
    max_attempts: number
  }) {
    const handler = this.handlers.get(job.name)
    try {
      if (!handler) throw new Error(`no handler for job ${job.name}`)
      const payload = typeof job.payload === 'string' ? JSON.parse(job.payload) : job.payload
      await handler(payload)
      await this.db
        .updateTable('jobs')
        .set({ done_at: sql<Date>`now()`, locked_until: null })
        .where('id', '=', job.id)
        .execute()
      bump(this.completed, job.name)
    } catch (err) {
      bump(this.failed, job.name)
      this.log.error({ err, job: job.name, id: job.id }, 'job failed')
      const backoffSeconds = Math.min(2 ** job.attempts * 5, 3600)
      await this.db
        .updateTable('jobs')
        .set({
          last_error: String((err as Error)?.message ?? err).slice(0, 2000),
          locked_until: null,
          run_at: sql<Date>`now() + make_interval(secs => ${backoffSeconds})`,
        })
        .where('id', '=', job.id)
        .execute()
    } finally {
      if (!this.stopped) this.beat = Date.now()
    }
  }
}

function bump(counts: Map<string, number>, name: string) {
  counts.set(name, (counts.get(name) ?? 0) + 1)
}
