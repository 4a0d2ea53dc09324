import { mkdirSync } from 'node:fs'
import type { PGlite } from '@electric-sql/pglite'
import { CompiledQuery, Kysely, PostgresDialect, type PostgresPool, sql, type Transaction } from 'kysely'
import pg from 'pg'
import { ConfigError } from '../config.ts'
import type { DB } from '../db/types.ts'
import { lockDataDir } from './data-lock.ts'
import { prepareStatements } from './prepared.ts'
import { sqlTracing } from './tracing.ts'

export type Database = Kysely<DB>
/** A handle repositories accept: the database itself or an open transaction. */
export type Executor = Kysely<DB> | Transaction<DB>

/**
 * The classes of the transaction-scoped advisory locks the service takes, in one table so that no
 * two features pick the same number (the lock's object is the second key: a user, venue or
 * resource id). Some are also taken in SQL by migrations: changing one needs a migration there too.
 */
export const LOCK_CLASS = {
  courtBooking: 1001, // booking-core/repository/numbers.ts (and the booking INSERT)
  indoorBooking: 1002, // likewise, indoor games
  customerHolds: 1003, // a customer's unpaid bookings (migrations/025 takes it in SQL)
  otp: 1032, // an OTP identifier (its object is a hash)
  venueCreator: 1040, // venues created by one owner a day
  waiter: 1041, // one customer's waitlist entries
  venueBalance: 727275, // spending a venue's balance with the platform
  commissionInvoices: 1050, // issuing a month's commission invoices (payouts/commission-invoices.ts)
} as const

/** Takes the transaction-scoped advisory lock `(lockClass, id)`; it is held until the transaction ends. */
export async function xactLock(trx: Executor, lockClass: number, id: number): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(${sql.lit(lockClass)}, ${id}::int)`.execute(trx)
}

/**
 * Runs `step` inside the caller's transaction under a savepoint: its failure rolls back only its own
 * changes (the transaction stays usable, e.g. after a constraint refused a row), then is rethrown.
 */
export async function savepoint<T>(trx: Executor, step: () => Promise<T>): Promise<T> {
  await sql`SAVEPOINT step`.execute(trx)
  try {
    const out = await step()
    await sql`RELEASE SAVEPOINT step`.execute(trx)
    return out
  } catch (err) {
    await sql`ROLLBACK TO SAVEPOINT step`.execute(trx)
    await sql`RELEASE SAVEPOINT step`.execute(trx)
    throw err
  }
}

// Both drivers return the same JS types: int8 as number (ids and paisa stay far below 2^53),
// numeric as string, date as 'YYYY-MM-DD' string, time as 'HH:MM:SS' string, timestamptz as Date.
const INT8 = 20
const DATE = 1082
const TIMESTAMP = 1114
pg.types.setTypeParser(INT8, (v) => Number(v))
pg.types.setTypeParser(DATE, (v) => v)
pg.types.setTypeParser(TIMESTAMP, (v) => v)

export interface DatabaseHandle {
  db: Database
  kind: 'pglite' | 'postgres'
  close(): Promise<void>
  /** Connections open and idle, and callers waiting for one (for /metrics). */
  poolStats(): { total: number; idle: number; waiting: number }
  /**
   * Subscribes to NOTIFY on `channel`. `onState(true)` once listening, `onState(false)` whenever the
   * subscription is lost (it reconnects by itself). Returns the unsubscribe function.
   */
  listen(
    channel: string,
    onMessage: (payload: string) => void,
    onState: (live: boolean) => void,
  ): Promise<() => Promise<void>>
}

export interface DatabaseOptions {
  databaseUrl?: string
  dataDir?: string
  /** A dump made by PGlite.dumpDataDir to start from (tests use a migrated template). */
  loadDataDir?: Blob | File
  poolSize?: number
  /** Send parameterised queries as named prepared statements (default true). */
  prepare?: boolean
}

export async function openDatabase(opts: DatabaseOptions): Promise<DatabaseHandle> {
  if (opts.databaseUrl) {
    await probePostgres(opts.databaseUrl)
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: opts.poolSize ?? 10 })
    // A broken idle connection must not crash the process; the pool replaces it.
    pool.on('error', () => {})
    if (opts.prepare !== false) pool.on('connect', prepareStatements)
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) })
    const url = opts.databaseUrl
    return {
      db,
      kind: 'postgres',
      close: () => db.destroy(),
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      listen: (...a) => listenPostgres(url, ...a),
    }
  }
  const unlock = opts.dataDir ? lockDataDir(opts.dataDir) : () => {}
  const pglite = await createPglite(opts.dataDir, opts.loadDataDir).catch((err) => {
    unlock()
    throw err
  })
  const pool = new PgliteSinglePool(pglite)
  const db = wrapPglite(pglite, pool)
  return {
    db,
    kind: 'pglite',
    poolStats: () => pool.stats(),
    listen: async (channel, onMessage, onState) => {
      const unsubscribe = await pglite.listen(channel, onMessage)
      onState(true)
      return async () => {
        onState(false)
        if (!pglite.closed) await unsubscribe()
      }
    },
    close: async () => {
      await db.destroy()
      await pglite.close()
      unlock()
    },
  }
}

const PROBE_TIMEOUT_MS = 5000

/**
 * Connects once before the pool is made, so a DATABASE_URL that cannot work stops the start within
 * seconds with one line naming it (the pool would otherwise retry, or hang on a peer that never
 * answers). The message carries the host and port, never the password.
 */
async function probePostgres(url: string) {
  let where = 'the server'
  try {
    const u = new URL(url)
    where = `${u.hostname || 'localhost'}:${u.port || 5432}${u.pathname}`
  } catch {}
  const client = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: PROBE_TIMEOUT_MS,
    query_timeout: PROBE_TIMEOUT_MS,
  })
  // A peer that is not PostgreSQL may send bytes the protocol parser rejects after connect().
  client.on('error', () => {})
  let version: string | undefined
  try {
    await client.connect()
    version = (await client.query<{ v: string }>('select version() as v')).rows[0]?.v
  } catch (err) {
    const e = err as NodeJS.ErrnoException
    const reason = e.code && /^[A-Z]/.test(e.code) ? `${e.code}: ${e.message}` : e.message || 'no answer'
    throw new ConfigError(`DATABASE_URL: cannot use the PostgreSQL server at ${where} (${reason.split('\n')[0]})`)
  } finally {
    client.end().catch(() => undefined)
  }
  if (!version?.startsWith('PostgreSQL')) {
    throw new ConfigError(`DATABASE_URL: the server at ${where} is not PostgreSQL`)
  }
}

/** LISTEN on a dedicated connection (outside the pool), reconnecting with backoff when it drops. */
async function listenPostgres(
  url: string,
  channel: string,
  onMessage: (payload: string) => void,
  onState: (live: boolean) => void,
): Promise<() => Promise<void>> {
  let client: pg.Client | null = null
  let stopped = false
  let retry: NodeJS.Timeout | undefined
  const connect = async (delay: number) => {
    if (stopped) return
    const c = new pg.Client({ connectionString: url })
    const lost = () => {
      if (client !== c) return
      client = null
      onState(false)
      c.end().catch(() => undefined)
      retry = setTimeout(() => connect(Math.min(delay * 2, 5000)), delay)
    }
    c.on('error', lost)
    c.on('end', lost)
    c.on('notification', (n) => {
      if (n.channel === channel) onMessage(n.payload ?? '')
    })
    try {
      client = c
      await c.connect()
      await c.query(`LISTEN ${channel}`)
      if (stopped) return void (await c.end())
      onState(true)
    } catch {
      lost()
    }
  }
  await connect(100)
  return async () => {
    stopped = true
    clearTimeout(retry)
    const c = client
    client = null
    onState(false)
    await c?.end().catch(() => undefined)
  }
}

export async function createPglite(dataDir?: string, loadDataDir?: Blob | File): Promise<PGlite> {
  if (dataDir) mkdirSync(dataDir, { recursive: true })
  // Loaded only when used: a server on PostgreSQL never pays for the embedded database's memory
  // (docs/performance.md, "Why the hot paths look this way").
  const [{ PGlite }, { btree_gist }, { citext }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/btree_gist'),
    import('@electric-sql/pglite/contrib/citext'),
  ])
  return PGlite.create({
    dataDir,
    loadDataDir,
    extensions: { btree_gist, citext },
    parsers: { [INT8]: (v: string) => Number(v), [DATE]: (v: string) => v, [TIMESTAMP]: (v: string) => v },
  })
}

/** Kysely over an embedded PGlite instance. */
export function wrapPglite(pglite: PGlite, pool = new PgliteSinglePool(pglite)): Database {
  return new Kysely<DB>({
    dialect: new PostgresDialect({ pool: pool as unknown as PostgresPool }),
  })
}

type QueryResult = { command: 'UPDATE' | 'DELETE' | 'INSERT' | 'SELECT' | 'MERGE'; rowCount: number; rows: unknown[] }

/**
 * PGlite is one embedded backend: one session at a time. This pool hands that single connection
 * to one Kysely caller at a time (a transaction holds it until it ends), so concurrent requests
 * queue here instead of interleaving statements inside each other's transactions.
 */
async function runPglite(pglite: PGlite, sql: string, params?: readonly unknown[]): Promise<QueryResult> {
  const command = sql.trimStart().slice(0, 6).toUpperCase() as QueryResult['command']
  if (!params || params.length === 0) {
    // Simple protocol: allows several statements (migrations), like pg does without parameters.
    const all = await pglite.exec(sql)
    const last = all[all.length - 1]
    return { command, rowCount: last?.affectedRows ?? last?.rows.length ?? 0, rows: last?.rows ?? [] }
  }
  const res = await pglite.query(sql, params as unknown[])
  return { command, rowCount: res.affectedRows ?? res.rows.length, rows: res.rows }
}

// Cast where used: Kysely's pool type also allows cursors, which this pool does not offer.
export class PgliteSinglePool {
  private queue: Array<() => void> = []
  private busy = false
  constructor(private readonly pglite: PGlite) {}

  async connect() {
    if (this.busy) await new Promise<void>((resolve) => this.queue.push(resolve))
    this.busy = true
    const pglite = this.pglite
    return {
      query: (sql: string, params?: readonly unknown[]): Promise<QueryResult> => {
        const traced = sqlTracing()
        return traced ? traced(sql, () => runPglite(pglite, sql, params)) : runPglite(pglite, sql, params)
      },
      release: () => this.release(),
    }
  }

  private release() {
    const next = this.queue.shift()
    if (next) next()
    else this.busy = false
  }

  /** The one session: in use or idle, and the callers queued for it. */
  stats() {
    return { total: 1, idle: this.busy ? 0 : 1, waiting: this.queue.length }
  }

  async end() {}
}

/** What `reusedStatement` needs of a Kysely query builder. */
interface Compilable<R> {
  compile(): CompiledQuery<R>
  execute(): Promise<R[]>
}

/** A placeholder a statement is first built with, to see where each argument lands. */
class Slot {
  constructor(readonly name: string) {}
}

/** How to lay out a reused statement's parameters: an argument's name, or a constant of the shape. */
type Layout = ({ arg: string } | { constant: unknown })[]

/**
 * Statements whose SQL text depends only on their shape, built with Kysely the first time and
 * reused with fresh parameters after that. Building a large query with Kysely costs more CPU than
 * PostgreSQL spends running it; hot paths (booking INSERT, a court's day) skip that work.
 *
 * `run(db, shape, args, build)` takes the statement's arguments as an object and `build(args)`
 * builds it from them: the parameter order is derived, not written down. The first run builds the
 * shape once with placeholders (which parameter is which argument, which is a constant of the
 * shape such as a status list) and once with the real arguments; the text is reused only when
 * both agree, so a builder that transforms an argument (or throws on a placeholder) is built every
 * time instead of reused wrongly. A placeholder is an object, so it cannot show a branch taken on
 * an argument's value: a call with an undefined argument (an optional filter switched off) is
 * always built as written, and a builder must not branch on other values of its arguments, null
 * included (put such a choice in the shape name, as `court-day:${withBookings}` does). `refused` names the shapes
 * that cannot be reused (test/foundation/statements.test.ts keeps it empty).
 */
export class ReusedStatements {
  private texts = new Map<string, { sql: string; layout: Layout }>()
  /** Shapes that cannot be reused (their parameters are not the arguments); built every time. */
  readonly refused = new Set<string>()

  /** Runs the statement of `shape` built by `build(args)`, reusing its SQL after the first run. */
  async run<A extends Record<string, unknown>, R>(
    db: Executor,
    shape: string,
    args: A,
    build: (args: A) => Compilable<R>,
  ): Promise<R[]> {
    // An undefined argument may have switched a branch of the builder off (an optional filter):
    // such a call is built as written, never served from the reused text. null is a value (a
    // nullable column of an INSERT) and is reused like any other.
    const plain = Object.values(args).every((v) => v !== undefined)
    if (!plain) return build(args).execute()
    const known = this.texts.get(shape)
    if (known !== undefined) {
      return (await db.executeQuery<R>(CompiledQuery.raw(known.sql, parameters(known.layout, args)))).rows
    }
    const make = build as (args: unknown) => Compilable<R>
    const query = make(args)
    const compiled = query.compile()
    const layout = layoutOf(make, args, compiled.sql)
    const expected = layout === undefined ? undefined : parameters(layout, args)
    if (layout !== undefined && expected && sameParameters(expected, compiled.parameters)) {
      this.texts.set(shape, { sql: compiled.sql, layout })
    } else this.refused.add(shape)
    return query.execute()
  }

  /** Whether `shape` is being reused (for tests). */
  has(shape: string) {
    return this.texts.has(shape)
  }

  /** How many shapes are being reused. */
  get size() {
    return this.texts.size
  }

  /** Each reused shape and its SQL, by shape (test/foundation/sql-snapshot.test.ts checks them in). */
  entries(): [shape: string, sql: string][] {
    return [...this.texts].map(([shape, t]): [string, string] => [shape, t.sql]).sort(([a], [b]) => a.localeCompare(b))
  }
}

/** Builds with a placeholder per argument; undefined when the text then differs (the builder branches). */
function layoutOf<R>(build: (args: unknown) => Compilable<R>, args: Record<string, unknown>, sqlText: string) {
  const slots = Object.fromEntries(Object.keys(args).map((name) => [name, new Slot(name)]))
  let probe: CompiledQuery<R>
  try {
    probe = build(slots).compile()
  } catch {
    return undefined // the builder computes with an argument (a method call on it): never reused
  }
  if (probe.sql !== sqlText) return undefined
  return probe.parameters.map((p) => (p instanceof Slot ? { arg: p.name } : { constant: p }))
}

function parameters(layout: Layout, args: Record<string, unknown>): unknown[] {
  return layout.map((p) => ('arg' in p ? args[p.arg] : p.constant))
}

function sameParameters(a: readonly unknown[], b: readonly unknown[]) {
  return a.length === b.length && a.every((p, i) => p === b[i])
}
