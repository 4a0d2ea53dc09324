import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { readFileSync, rmSync } from 'node:fs'
import { cp, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { join } from 'node:path'
import pg from 'pg'
import { createPglite } from '../../src/lib/db.ts'
import { hashPassword, setPasswordCost } from '../../src/lib/password.ts'
import { nodeArgs } from '../helpers/entry.ts'
import { atTeardown } from '../helpers/teardown.ts'

// The real server and CLI as separate processes, on a database of their own: a copy of the
// migrated template (PostgreSQL when TEST_DATABASE_URL is set, else a PGlite data directory).

export interface ProcessDatabase {
  /** Environment that points the server or CLI at this database. */
  env: Record<string, string>
  /** Runs SQL on it (PGlite: only while no server process has it open). */
  query<T = Record<string, unknown>>(text: string): Promise<T[]>
  drop(): Promise<void>
}

export async function processDatabase(): Promise<ProcessDatabase> {
  const url = process.env.TEST_DATABASE_URL
  if (url) {
    const name = `cs_ops_${process.pid}_${randomBytes(4).toString('hex')}`
    const template = process.env.TEST_TEMPLATE_DB
    await adminQuery(url, template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`)
    // As test/helpers/app.ts: commits do not wait for the disk on a database that is thrown away.
    await adminQuery(url, `ALTER DATABASE ${name} SET synchronous_commit = off`)
    const dbUrl = new URL(url)
    dbUrl.pathname = `/${name}`
    const env = { DATABASE_URL: dbUrl.toString() }
    if (!template) await runCli(['src/cli/migrate.ts'], env)
    return {
      env,
      query: async <T>(text: string) => {
        const c = new pg.Client({ connectionString: env.DATABASE_URL })
        await c.connect()
        try {
          return (await c.query(text)).rows as T[]
        } finally {
          await c.end()
        }
      },
      drop: () => adminQuery(url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
    }
  }
  const dir = `.tmp/ops-${process.pid}-${randomBytes(4).toString('hex')}`
  const copied = await copyMigratedDataDir(dir)
  const env = { DATA_DIR: dir }
  if (!copied) {
    await (await createPglite(join(dir, 'pglite'))).close()
    await runCli(['src/cli/migrate.ts'], env)
  }
  return {
    env,
    query: async <T>(text: string) => {
      const pglite = await createPglite(join(dir, 'pglite'))
      try {
        const all = await pglite.exec(text)
        return (all.at(-1)?.rows ?? []) as T[]
      } finally {
        await pglite.close()
      }
    },
    drop: () => rm(dir, { recursive: true, force: true }),
  }
}

/**
 * Puts a copy of the migrated embedded database at `<dataDir>/pglite`, so a server started on
 * DATA_DIR=`dataDir` opens it instead of creating and migrating one (~5 s of CPU). False (nothing
 * copied) when this run prepared no PGlite dump: a PostgreSQL run, or a file run alone.
 */
export async function copyMigratedDataDir(dataDir: string): Promise<boolean> {
  const template = await migratedDataDir()
  if (template) await cp(template, join(dataDir, 'pglite'), { recursive: true })
  return template !== undefined
}

let templateDir: Promise<string> | undefined

/**
 * A PGlite data directory loaded from the migrated dump scripts/test.mjs prepared, made once per
 * test process and copied for each database (undefined when there is no dump: a file run alone).
 * Loading the dump through PGlite and writing its ~45 MB out cost ~1 s of CPU a database; copying
 * the files is a fraction of that. Removed when the process exits.
 */
function migratedDataDir(): Promise<string | undefined> {
  const dump = process.env.TEST_PGLITE_DUMP
  if (!dump) return Promise.resolve(undefined)
  templateDir ??= (async () => {
    const dir = `.tmp/ops-template-${process.pid}-${randomBytes(4).toString('hex')}`
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }))
    const pglite = await createPglite(dir, new Blob([readFileSync(dump)]))
    await pglite.close()
    return dir
  })()
  return templateDir
}

async function adminQuery(url: string, text: string) {
  const c = new pg.Client({ connectionString: url })
  await c.connect()
  try {
    await c.query(text)
  } finally {
    await c.end()
  }
}

const BASE_ENV = {
  NODE_ENV: 'test',
  LOG_LEVEL: 'warn',
  RATE_LIMIT_ENABLED: 'false',
  CACHE_TTL_MS: '0',
  ARGON2_MEMORY_KIB: '1024',
}

export interface Run {
  code: number | null
  stdout: string
  stderr: string
}

/** Runs a TypeScript entry point (`src/cli/…`) to completion. */
export function runCli(args: string[], env: Record<string, string>): Promise<Run> {
  const child = spawnTs(args, env)
  return finished(child)
}

/** Processes spawned here and still running: a test that failed before stopping its server leaves one. */
const running = new Set<ChildProcess>()
let stopsLeftovers = false

function spawnTs(args: string[], env: Record<string, string>): ChildProcess {
  const { TEST_DATABASE_URL: _, DATABASE_URL: __, ...inherited } = process.env
  const [script, ...rest] = args
  const child = spawn(process.execPath, [...nodeArgs(script), ...rest], {
    env: { ...inherited, ...BASE_ENV, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  // Left running, it would hold this process's pipes open and its test files would never end.
  if (!stopsLeftovers) {
    stopsLeftovers = true
    atTeardown(stopLeftovers)
  }
  running.add(child)
  child.once('exit', () => running.delete(child))
  return child
}

function stopLeftovers() {
  for (const child of running) {
    child.kill('SIGKILL')
    child.stdout?.destroy()
    child.stderr?.destroy()
  }
  running.clear()
}

function finished(child: ChildProcess): Promise<Run> {
  let stdout = ''
  let stderr = ''
  child.stdout?.on('data', (d) => {
    stdout += d
  })
  child.stderr?.on('data', (d) => {
    stderr += d
  })
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })))
}

export async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const address = server.address()
  await new Promise((r) => server.close(r))
  if (typeof address !== 'object' || !address) throw new Error('no port')
  return address.port
}

export interface ServerProcess {
  port: number
  child: ChildProcess
  /** Resolves when the process exits. */
  exited: Promise<Run>
}

/**
 * How long a spawned server may take to answer /health. Only a server that never starts should
 * miss it: on a 2-core machine running the whole suite (a load of 10–12, several browsers and
 * servers starting at once) a start took over 60 s.
 */
export const SERVER_START_MS = 180_000

/** Starts src/server.ts; resolves once /health answers, rejects if the process exits first (SERVER_START_MS). */
export async function startServer(env: Record<string, string>, timeoutMs = SERVER_START_MS): Promise<ServerProcess> {
  const port = await freePort()
  const child = spawnTs(['src/server.ts'], { HOST: '127.0.0.1', PORT: String(port), ...env })
  const exited = finished(child)
  let gone: Run | undefined
  exited.then((r) => {
    gone = r
  })
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (gone) throw new Error(`server exited with ${gone.code}: ${gone.stderr}${gone.stdout}`)
    const up = await fetch(`http://127.0.0.1:${port}/health`).then(
      (r) => r.ok,
      () => false,
    )
    if (up) return { port, child, exited }
    await new Promise((r) => setTimeout(r, 100))
  }
  child.kill('SIGKILL')
  throw new Error('server did not start in time')
}

/**
 * A verified venue `<tag>-arena` with one futsal court (60-minute slots, Rs 1,500/h), its owner
 * `owner@<tag>.test` and a customer `customer@<tag>.test`, both with password "password123":
 * enough for a spawned server to take a booking.
 */
export async function seedBookableVenue(db: ProcessDatabase, tag: string): Promise<void> {
  setPasswordCost(1024)
  const hash = (await hashPassword('password123')).replaceAll("'", "''")
  const owner = `owner@${tag}.test`
  const customer = `customer@${tag}.test`
  const slug = `${tag}-arena`
  await db.query(`
    INSERT INTO users (name, email, password_hash, is_active, wallet_balance)
      VALUES ('Owner', '${owner}', '${hash}', true, 0), ('Customer', '${customer}', '${hash}', true, 0);
    INSERT INTO user_roles (user_id, role_id)
      SELECT u.id, r.id FROM users u JOIN roles r ON r.name = CASE u.email WHEN '${owner}' THEN 'venue_owner' ELSE 'customer' END
      WHERE u.email IN ('${owner}', '${customer}');
    INSERT INTO venues (owner_id, name, slug, address, city, state, latitude, longitude, opening_time, closing_time,
        verification_status, is_active, free_cancellation_hours)
      SELECT id, '${tag} arena', '${slug}', 'Baneshwor', 'Kathmandu', 'Bagmati', 27.7, 85.33, '06:00', '22:00', 'verified', true, 24
      FROM users WHERE email = '${owner}';
    INSERT INTO courts (venue_id, sport_id, name, type, capacity, slot_minutes, price_per_hour, is_active)
      SELECT id, 1, 'Court 1', 'futsal', 10, 60, 150000, true FROM venues WHERE slug = '${slug}';`)
}
