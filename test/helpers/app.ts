import { randomBytes, randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import type { TestContext } from 'node:test'
import { sql } from 'kysely'
import pg from 'pg'
import { type App, buildApp } from '../../src/app.ts'
import { loadConfig } from '../../src/config.ts'
import { CACHE_CHANNEL } from '../../src/lib/cache.ts'
import type { Clock } from '../../src/lib/clock.ts'
import { type DatabaseHandle, openDatabase } from '../../src/lib/db.ts'
import { migrate } from '../../src/lib/migrate.ts'
import type { OpsState } from '../../src/lib/ops.ts'
import { setPasswordCost } from '../../src/lib/password.ts'
import { checkLedger } from '../../src/modules/ledger/index.ts'

// A fresh app on a fresh database for each test file (or each call):
// - PostgreSQL when TEST_DATABASE_URL is set: a new database cloned from the migrated template;
// - otherwise embedded PGlite, loaded from the migrated dump scripts/test.mjs prepares.

let counter = 0
/** Each app's database, for buildOn. */
const databases = new WeakMap<App, DatabaseHandle>()
let pgliteDump: Blob | undefined

/**
 * The migrated template scripts/test.mjs dumped, read once per process (several files share one).
 * PGlite reads a dump through `arrayBuffer()`, which for a Blob copies its ~30 MB in chunks on every
 * call (~40 ms of CPU a database); this one hands out the bytes it holds. PGlite only reads them: its
 * file system copies each file it writes.
 */
function templateDump(): Blob | undefined {
  const file = process.env.TEST_PGLITE_DUMP
  if (file && !pgliteDump) pgliteDump = new HeldBlob(readFileSync(file))
  return pgliteDump
}

class HeldBlob extends Blob {
  readonly #bytes: ArrayBuffer
  constructor(bytes: Buffer) {
    super([bytes as Uint8Array<ArrayBuffer>])
    this.#bytes = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer
  }
  override arrayBuffer(): Promise<ArrayBuffer> {
    return Promise.resolve(this.#bytes)
  }
}

async function freshDatabase(): Promise<{ database: DatabaseHandle; drop: () => Promise<void> }> {
  const url = process.env.TEST_DATABASE_URL
  if (url) {
    const template = process.env.TEST_TEMPLATE_DB
    const name = `cs_t_${process.pid}_${randomBytes(4).toString('hex')}`
    const admin = new pg.Client({ connectionString: url })
    await admin.connect()
    await admin.query(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`)
    // A commit need not wait for its WAL to reach the disk (~2 ms each here): a test database is
    // thrown away, and what a commit makes visible to other sessions is the same.
    await admin.query(`ALTER DATABASE ${name} SET synchronous_commit = off`)
    await admin.end()
    const dbUrl = new URL(url)
    dbUrl.pathname = `/${name}`
    const database = await openDatabase({ databaseUrl: dbUrl.toString(), poolSize: 10 })
    if (!template) await migrate(database.db)
    return {
      database,
      drop: async () => {
        const c = new pg.Client({ connectionString: url })
        await c.connect()
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined)
        await c.end()
      },
    }
  }
  const dump = templateDump()
  const database = await openDatabase({ loadDataDir: dump })
  if (!dump) await migrate(database.db)
  return { database, drop: async () => {} }
}

/**
 * Builds the real app for a test. With a test context it closes itself after that test; without
 * one, call app.close() (e.g. in after()). Pass env overrides to change configuration, and a
 * logStream to read the log lines (at LOG_LEVEL, silent unless given).
 */
export async function build(
  t?: TestContext | { after: (fn: () => Promise<void>) => void },
  env: Record<string, string> = {},
  opts: { logStream?: { write(line: string): void }; opsState?: OpsState; clock?: Clock } = {},
): Promise<App> {
  const dataDir = `.tmp/test-${process.pid}-${++counter}`
  const config = loadConfig({
    NODE_ENV: 'test',
    APP_URL: 'http://localhost:8000',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_ENABLED: 'false',
    JOBS_ENABLED: 'false',
    // Tests read their own writes at once; the cache has its own tests (test/foundation/cache.test.ts).
    CACHE_TTL_MS: '0',
    DATA_DIR: dataDir,
    ...env,
  })
  setPasswordCost(1024)
  const { database, drop } = await freshDatabase()
  const app = await buildApp({
    config,
    database,
    logger: opts.logStream !== undefined,
    logStream: opts.logStream,
    opsState: opts.opsState,
    clock: opts.clock,
  })
  // app.close() releases everything this test created. Before that, the books must balance and
  // every wallet and booking agree with the ledger, whatever the test did through the API
  // (docs/payments.md, "Ledger"); TEST_LEDGER_CHECK=off skips it.
  app.addHook('onClose', async () => {
    try {
      if (process.env.TEST_LEDGER_CHECK !== 'off') {
        const check = await checkLedger(database.db).catch(() => undefined) // a test may have broken the database on purpose
        if (check && check.problems.length > 0) {
          throw new Error(`the ledger disagrees after this test: ${check.problems.join('; ')}`)
        }
      }
    } finally {
      await database.close()
      await drop()
      await rm(dataDir, { recursive: true, force: true })
    }
  })
  databases.set(app, database)
  await app.ready()
  t?.after(() => app.close())
  return app
}

/**
 * Another app on the database of `first`, as a second instance of the service would be (its own
 * read cache, listener and job loop). Close it before `first`, which owns the database.
 */
export async function buildOn(
  first: App,
  env: Record<string, string> = {},
  opts: { clock?: Clock; logStream?: { write(line: string): void } } = {},
): Promise<App> {
  const database = databases.get(first)
  if (!database) throw new Error('buildOn: not an app made by build()')
  const config = loadConfig({
    NODE_ENV: 'test',
    APP_URL: 'http://localhost:8000',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_ENABLED: 'false',
    JOBS_ENABLED: 'false',
    CACHE_TTL_MS: '0',
    DATA_DIR: `.tmp/test-${process.pid}-${++counter}`,
    ...env,
  })
  // Closing this app must leave the shared database open.
  const shared: DatabaseHandle = { ...database, close: async () => {} }
  const app = await buildApp({
    config,
    database: shared,
    logger: opts.logStream !== undefined,
    logStream: opts.logStream,
    clock: opts.clock,
  })
  app.addHook('onClose', async () => {
    await rm(config.dataDir, { recursive: true, force: true })
  })
  await app.ready()
  return app
}

/**
 * Waits until the app's change listener has heard every change committed so far. On a PostgreSQL
 * server a NOTIFY reaches the listener some time after its commit, so a read right after a write
 * can load an entry that the write's late notification then drops. Notifications arrive in commit
 * order: hearing one sent now means every earlier one was heard.
 */
export async function heardAll(app: App): Promise<void> {
  // Started with the app when the read cache is on; otherwise started here (once).
  await app.ctx.changes.start()
  const tag = `test-settle:${randomUUID()}`
  let off: () => unknown = () => undefined
  let timer: NodeJS.Timeout | undefined
  const heard = new Promise<void>((resolve, reject) => {
    timer = setTimeout(() => reject(new Error('the change listener did not hear its own notification')), 10_000)
    off = app.ctx.changes.subscribe((t) => {
      if (t !== tag) return
      clearTimeout(timer)
      resolve()
    })
  })
  try {
    await sql`SELECT pg_notify(${CACHE_CHANNEL}, ${tag})`.execute(app.ctx.db)
    await heard
  } finally {
    clearTimeout(timer)
    off()
  }
}
