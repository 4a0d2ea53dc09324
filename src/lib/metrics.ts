import { Counter, collectDefaultMetrics, Gauge, type Metric, Registry } from 'prom-client'
import type { ReadCache } from './cache.ts'
import type { Database, DatabaseHandle } from './db.ts'
import type { JobQueue } from './jobs.ts'
import { RequestHistogram } from './request-histogram.ts'

// Prometheus metrics of one app (GET /metrics). Each app has its own registry: tests build many
// apps in one process. The request path costs one histogram observation (RequestHistogram); pool,
// job and cache figures are read only when Prometheus scrapes.

export interface MetricSources {
  database: Pick<DatabaseHandle, 'poolStats'>
  db: Database
  jobs: JobQueue
  cache: ReadCache
  front: { readonly hits: number }
}

export class Metrics {
  readonly registry = new Registry()
  private readonly requests = new RequestHistogram()
  readonly bookings: Counter<'kind'>
  readonly bookingConflicts: Counter<'kind'>
  readonly payments: Counter<'gateway' | 'outcome'>
  readonly webhookDeliveries: Counter<'outcome'>

  constructor(sources: MetricSources, opts: { processMetrics?: boolean } = {}) {
    const registers = [this.registry]
    if (opts.processMetrics) collectDefaultMetrics({ register: this.registry })
    // Not a prom-client class, but the shape its registry reads (name, help, type, get()).
    this.registry.registerMetric(this.requests as unknown as Metric)
    this.bookings = new Counter({
      name: 'bookings_created_total',
      help: 'Bookings created, by kind (court, indoor)',
      labelNames: ['kind'],
      registers,
    })
    this.bookingConflicts = new Counter({
      name: 'booking_conflicts_total',
      help: 'Bookings refused with 409 because the slot overlaps a live booking, by kind',
      labelNames: ['kind'],
      registers,
    })
    this.payments = new Counter({
      name: 'payments_settled_total',
      help: 'Payments settled by this instance, by gateway (gateway_1..3, or wallet) and outcome (completed, failed)',
      labelNames: ['gateway', 'outcome'],
      registers,
    })
    this.webhookDeliveries = new Counter({
      name: 'webhook_delivery_attempts_total',
      help: 'Webhook delivery attempts made by this instance, by outcome (succeeded: a 2xx answer, failed: anything else)',
      labelNames: ['outcome'],
      registers,
    })
    const { database, db, jobs, cache, front } = sources
    const pool = (name: string, help: string, pick: (s: ReturnType<DatabaseHandle['poolStats']>) => number) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          this.set(pick(database.poolStats()))
        },
      })
    pool('db_pool_in_use', 'Database connections running a query or transaction', (s) => s.total - s.idle)
    pool('db_pool_idle', 'Open database connections not in use', (s) => s.idle)
    pool('db_pool_waiting', 'Callers waiting for a database connection', (s) => s.waiting)
    new Gauge({
      name: 'jobs_pending',
      help: 'Jobs not done that may still run (due or scheduled), by job; shared by every instance',
      labelNames: ['job'],
      registers,
      async collect() {
        this.reset()
        // A scrape must not fail because the database is away; the series are then absent.
        const rows = await db
          .selectFrom('jobs')
          .select(['name'])
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('done_at', 'is', null)
          .whereRef('attempts', '<', 'max_attempts')
          .groupBy('name')
          .execute()
          .catch(() => [])
        for (const r of rows) this.set({ job: r.name }, Number(r.n))
      },
    })
    countersFrom('jobs_completed_total', 'Jobs this instance ran to completion, by job', jobs.completed, registers)
    countersFrom(
      'jobs_failed_total',
      'Job runs that failed in this instance (each retry counts), by job',
      jobs.failed,
      registers,
    )
    for (const [name, help, read] of [
      ['cache_hits_total', 'Read-cache lookups answered without a query', () => cache.hits],
      ['cache_misses_total', 'Read-cache lookups that ran the query', () => cache.misses],
      ['front_cache_hits_total', "Guests' reads answered before routing from a kept answer", () => front.hits],
    ] as const) {
      new Counter({
        name,
        help,
        registers,
        collect() {
          this.reset()
          this.inc(read())
        },
      })
    }
    new Gauge({
      name: 'cache_entries',
      help: 'Entries held by the read cache',
      registers,
      collect() {
        this.set(cache.size)
      },
    })
    new Gauge({
      name: 'front_cache_entries',
      help: "Guests' whole answers kept by the front cache (beside the read cache's entries)",
      registers,
      collect() {
        this.set(cache.keptSize.entries)
      },
    })
    new Gauge({
      name: 'front_cache_bytes',
      help: "The front cache's estimated memory, its bytes counted in full (a quarter of CACHE_MAX_MB)",
      registers,
      collect() {
        this.set(cache.keptSize.bytes)
      },
    })
    new Gauge({
      name: 'cache_bytes',
      help: "The read cache's estimated memory (its budget is CACHE_MAX_MB)",
      registers,
      collect() {
        this.set(cache.bytes)
      },
    })
  }

  /** Records one finished request; `route` is the route template ("unmatched" when none matched). */
  observeRequest(method: string, route: string, status: number, seconds: number) {
    this.requests.observe(method, route, status, seconds)
  }

  text() {
    return this.registry.metrics()
  }

  get contentType() {
    return this.registry.contentType
  }
}

/** A counter by job name whose values live in `counts` (kept by the job loop). */
function countersFrom(name: string, help: string, counts: Map<string, number>, registers: Registry[]) {
  new Counter({
    name,
    help,
    labelNames: ['job'],
    registers,
    collect() {
      this.reset()
      for (const [job, n] of counts) this.inc({ job }, n)
    },
  })
}
