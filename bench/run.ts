// npm run bench [-- --quick] [-- --db=pglite|postgres]
// Drives the real server with wrk (Lua scripts in bench/wrk/) and reports every read scenario as a ratio
// to a bare Node http server measured in the same run (under wrk and, for comparison, autocannon), and
// booking creation as a ratio to pgbench running the service's own INSERT on the same database.
import type { ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, totalmem } from 'node:os'
import autocannon from 'autocannon'
import { sql } from 'kysely'
import pg from 'pg'
import { openDatabase } from '../src/lib/db.ts'
import { migrate } from '../src/lib/migrate.ts'
import { Zone } from '../src/lib/zone.ts'
import { generateBookings, generateCatalogue } from './data.ts'
import { bookingScript, type InsertShape, runPgbench, type SampleRow } from './pgbench.ts'
import { SEARCH_HEADING, sectionAt } from './search.ts'
import {
  buildServer,
  CONNECTIONS,
  ensureWrk,
  median,
  type Row,
  SERVER_ENV,
  spawnServer,
  startBare,
  stopServer,
  WRK_THREADS,
  wrkLoad,
} from './wrk.ts'

const args = new Set(process.argv.slice(2))
const quick = args.has('--quick')
const dbArg = [...args].find((a) => a.startsWith('--db='))?.slice(5)
const pgUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/courtside_bench'
const kind: 'postgres' | 'pglite' = (dbArg as 'postgres' | 'pglite') ?? ((await pgReachable()) ? 'postgres' : 'pglite')
const PORT = Number(process.env.BENCH_PORT ?? 8123)
const BASE_PORT = PORT + 1
const DURATION = quick ? 3 : 10
// The full run warms each scenario for 10 s, long enough for the read cache to hold the availability
// grids asked about (a server at peak hour has been running); the quick run only checks the wiring.
const WARMUP = quick ? 1 : 10
/**
 * The reads with a target (and /health) are measured in rounds that alternate with the bare server
 * (see main): this many, each this long after a short warm-up (the first round warms for WARMUP).
 */
const READ_ROUNDS = quick ? 1 : 3
const ROUND_SECONDS = quick ? DURATION : 6
const ROUND_WARMUP = quick ? 1 : 2
const PGLITE_DIR = '.tmp/bench-data/pglite'

const size = {
  venues: quick ? 2000 : 10_000,
  courtsPerVenue: 3,
  busyVenues: kind === 'postgres' ? (quick ? 6 : 300) : quick ? 5 : 40,
  fill: 0.6,
}
const SMALL_ROWS = 1000
const CREATE_COURTS = 600

function log(msg: string) {
  process.stdout.write(`${msg}\n`)
}

async function pgReachable() {
  const c = new pg.Client({
    connectionString: 'postgres://postgres@127.0.0.1:5432/postgres',
    connectionTimeoutMillis: 1000,
  })
  try {
    await c.connect()
    await c.end()
    return true
  } catch {
    return false
  }
}

async function openBenchDb() {
  if (kind === 'postgres') {
    const admin = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' })
    await admin.connect()
    const name = new URL(pgUrl).pathname.slice(1)
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    await admin.query(`CREATE DATABASE ${name}`)
    await admin.end()
    return openDatabase({ databaseUrl: pgUrl, poolSize: 4 })
  }
  rmSync(PGLITE_DIR, { recursive: true, force: true })
  return openDatabase({ dataDir: PGLITE_DIR })
}

function reopen() {
  return kind === 'postgres' ? openDatabase({ databaseUrl: pgUrl, poolSize: 4 }) : openDatabase({ dataDir: PGLITE_DIR })
}

/**
 * What the production rows change in startServer's settings: rate limiting on with its default store
 * (memory: no REDIS_URL) and a limit the load does not reach, a log line per request at info
 * (pino's own destination, the default; LOG_BUFFER_BYTES is opt-in), metrics on as always. The log goes to /dev/null
 * (a collector reading a pipe would cost the server about the same write).
 */
const PRODUCTION = { RATE_LIMIT_ENABLED: 'true', RATE_LIMIT_DEFAULT: '1000000000', LOG_LEVEL: 'info' }
const PROD_PORT = PORT + 2

async function startServer(
  extra: Record<string, string> = {},
  port = PORT,
  output: 'inherit' | 'ignore' = 'inherit',
): Promise<ChildProcess> {
  const env: Record<string, string | undefined> = {
    ...process.env,
    ...SERVER_ENV,
    PORT: String(port),
    LOG_LEVEL: 'warn',
    DATABASE_POOL_SIZE: String(POOL_SIZE),
    RATE_LIMIT_ENABLED: 'false',
    // Booking creation books many unpaid slots per customer token: the unpaid cap (docs/bookings.md)
    // would answer 422 after three, so the bench measures the booking path instead.
    MAX_UNPAID_BOOKINGS: '1000',
    JOBS_ENABLED: 'false',
    DATA_DIR: '.tmp/bench-data',
    ...(kind === 'postgres' ? { DATABASE_URL: pgUrl } : { DATABASE_URL: '', DATA_DIR: '.tmp/bench-data' }),
    ...extra,
  }
  // On PGlite the server opens the bench's database directly: DATA_DIR/pglite is PGLITE_DIR.
  return spawnServer(env, port, output)
}

/**
 * One row for a scenario measured in rounds: the round whose ratio is the median (its rate and p50),
 * the highest p99 and peak memory of all rounds, their non-2xx summed, and the rounds' ratio spread.
 */
function medianRow(rows: Row[], ratios: number[]): Row {
  const m = median(ratios)
  const row = rows[ratios.indexOf(m)]
  return {
    ...row,
    p99: Math.max(...rows.map((r) => r.p99)),
    rssMb: row.rssMb === null ? null : Math.max(...rows.map((r) => r.rssMb ?? 0)),
    non2xx: rows.reduce((n, r) => n + r.non2xx, 0),
    errors: rows.reduce((n, r) => n + r.errors, 0),
    ratio: m,
    spread: [Math.min(...ratios), Math.max(...ratios)],
  }
}

/** " (rounds 0.271–0.334)" for a row measured in more than one round. */
function spread(r: Row) {
  return r.spread && READ_ROUNDS > 1 ? ` (rounds ${r.spread[0].toFixed(3)}–${r.spread[1].toFixed(3)})` : ''
}

/** The rates of a bare server's rounds, "25889 / 27001 / 26120". */
function rounds(rows: Row[]) {
  return rows.map((r) => fmt(r.rps)).join(' / ')
}

/** A scenario under wrk with this run's warm-up and duration unless given (bench/wrk.ts). */
function load(
  name: string,
  url: string,
  script: string,
  pid: number | null,
  args: (offset: number) => string[] = () => [],
  threads = WRK_THREADS,
  timing: { warmup?: number; duration?: number } = {},
): Promise<Row> {
  return wrkLoad(name, url, script, pid, args, threads, { warmup: WARMUP, duration: DURATION, ...timing })
}

/** The bare server under autocannon: autocannon's own ceiling on this machine, for comparison. */
async function autocannonLoad(name: string, url: string): Promise<Row> {
  const opts = (duration: number) => ({ url, connections: CONNECTIONS, duration })
  await autocannon(opts(WARMUP))
  const r = await autocannon(opts(DURATION))
  return {
    name,
    generator: 'autocannon',
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    rssMb: null,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
  }
}

/** The data the Lua scripts draw their paths, bodies and tokens from, as a Lua file. */
function writeWrkData(path: string, data: Record<string, readonly (string | number)[]>) {
  const lua = (v: string | number) => (typeof v === 'number' ? String(v) : JSON.stringify(v))
  const body = Object.entries(data)
    .map(([k, vs]) => `  ${k} = { ${vs.map(lua).join(', ')} },`)
    .join('\n')
  mkdirSync('.tmp/bench-data', { recursive: true })
  writeFileSync(path, `return {\n${body}\n}\n`)
}
const WRK_DATA = '.tmp/bench-data/wrk-data.lua'

const dayFormat = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Kathmandu' })
/** Venue-local dates from today, computed once: the load generator shares the server's two cores. */
const localDates = Array.from({ length: 400 }, (_, i) => dayFormat.format(new Date(Date.now() + i * 86400000)))
function kathmanduDate(offsetDays: number) {
  return localDates[offsetDays]
}

/**
 * The database after a bulk load as it is after a while in service: vacuumed (hint bits and the
 * visibility map set, so the first reads do not write), analysed, and checkpointed, so that neither
 * autovacuum nor the checkpoint of the load's WAL runs during a measurement.
 */
async function settle(db: Awaited<ReturnType<typeof openDatabase>>['db']) {
  await sql`VACUUM ANALYZE`.execute(db)
  // CHECKPOINT needs a superuser or pg_checkpoint (BENCH_DATABASE_URL may name neither).
  await sql`CHECKPOINT`.execute(db).catch((err: { code?: string }) => {
    if (err.code !== '42501') throw err
    log('note: not allowed to CHECKPOINT after the load; a checkpoint may run during the scenarios')
  })
}

async function explain(db: Awaited<ReturnType<typeof openDatabase>>['db'], courtId: number, date: string) {
  const q1 = await sql<{ 'QUERY PLAN': string }>`EXPLAIN SELECT start_time, end_time FROM bookings
    WHERE court_id = ${courtId} AND date = ${date} AND status IN ('pending', 'confirmed', 'playing')`.execute(db)
  const q2 = await sql<{ 'QUERY PLAN': string }>`EXPLAIN SELECT id FROM venues
    WHERE deleted_at IS NULL AND latitude BETWEEN 23 AND 32 AND longitude BETWEEN 78 AND 90`.execute(db)
  // A 10 km box around Kathmandu: a selective box goes through venues_geo_idx.
  const q3 = await sql<{ 'QUERY PLAN': string }>`EXPLAIN SELECT id FROM venues
    WHERE deleted_at IS NULL AND latitude BETWEEN 27.61 AND 27.79 AND longitude BETWEEN 85.22 AND 85.42`.execute(db)
  return {
    availability: q1.rows.map((r) => r['QUERY PLAN']).join('\n'),
    venueList: q2.rows.map((r) => r['QUERY PLAN']).join('\n'),
    venueNear: q3.rows.map((r) => r['QUERY PLAN']).join('\n'),
  }
}

async function main() {
  ensureWrk()
  buildServer()
  const started = Date.now()
  log(
    `Courtside bench (${quick ? 'quick' : 'full'}) on ${kind === 'postgres' ? 'PostgreSQL server' : 'embedded PGlite'}`,
  )
  log(
    `machine: ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
  )

  let handle = await openBenchDb()
  await migrate(handle.db)
  const fx = await generateCatalogue(handle.db, size)
  const busy = fx.busyCourtIds
  // Phase A: about 1,000 booking rows (the next 7 days of a few courts), for the scaling check.
  const DAYS = 7
  const smallCourts = busy.slice(0, Math.max(1, Math.round(SMALL_ROWS / (DAYS * 16 * size.fill))))
  const smallRows = await generateBookings(handle.db, smallCourts, 1, 1 + DAYS, size.fill)
  await settle(handle.db)
  await handle.close()
  log(`data: ${size.venues} venues, ${size.venues * size.courtsPerVenue} courts; phase A bookings: ${smallRows}`)

  // What the Lua scripts draw from: a random court of `courts` on one of the next 7 days (every
  // court-day asked about has ~10 bookings); a random one of 300 venues for venue show; the
  // free courts, booking days and customer tokens of the booking creation.
  const nextDays = Array.from({ length: DAYS }, (_, i) => kathmanduDate(1 + i))
  const common = {
    dates: nextDays,
    slugs: Array.from({ length: Math.min(300, size.venues) }, (_, i) => `bench-arena-${i + 1}`),
    free: fx.freeCourtIds.slice(0, CREATE_COURTS),
    tokens: fx.tokens,
  }
  writeWrkData(WRK_SMALL, { ...common, courts: smallCourts })
  writeWrkData(WRK_DATA, { ...common, courts: busy })
  const bookingData = `.tmp/bench-data/wrk-bookings.lua`
  writeWrkData(bookingData, { ...common, dates: localDates.slice(2, 2 + 60) })

  const app = `http://127.0.0.1:${PORT}`
  // The scaling check measures the database path: both of its runs have the read cache off.
  const uncached = { CACHE_TTL_MS: '0' }
  let server = await startServer(uncached)
  const small = await load(
    `availability, no cache (${smallRows} rows)`,
    `${app}/`,
    'availability.lua',
    server.pid ?? null,
    () => [WRK_SMALL],
  )
  await stopServer(server)

  // Phase B: a year of bookings (half past, half ahead) on every busy venue's courts.
  handle = await reopen()
  await generateBookings(handle.db, busy, -183, 183, size.fill)
  await settle(handle.db)
  const total = Number((await sql<{ n: string }>`SELECT count(*) AS n FROM bookings`.execute(handle.db)).rows[0].n)
  const plans = await explain(handle.db, busy[0], kathmanduDate(1))
  await handle.close()
  log(`phase B bookings: ${total} rows in total`)

  server = await startServer(uncached)
  const large = await load(
    `availability, no cache (${total} rows)`,
    `${app}/`,
    'availability.lua',
    server.pid ?? null,
    () => [WRK_DATA],
  )
  await stopServer(server)

  server = await startServer()
  const pid = server.pid ?? null
  // The bare server answers a body of the same size as an availability response, under each generator.
  const sample = await (await fetch(`${app}/api/courts/${busy[0]}/availability?date=${kathmanduDate(1)}`)).text()
  const bareServer = await startBare(sample, BASE_PORT)
  const bareUrl = `http://127.0.0.1:${BASE_PORT}/`

  // The reads with a target, and /health, in rounds: each round measures the bare server (under one
  // wrk thread and two) and then each read, and a read's ratio is the median of its rounds' ratios
  // to that round's best bare rate. Identical runs on these shared cores differ by half or more
  // (bench/profiles.md); a lone 10 s sample against the best of several bare samples was a lottery.
  // Row 0, /health, runs Fastify, the app's global hooks and a serializer and nothing of the service
  // (no auth hook, no validation, a 15-byte body): a route of the service does all that and more.
  // The same reads on a second server in production's settings (PRODUCTION), in the same rounds.
  const prod = await startServer(PRODUCTION, PROD_PORT, 'ignore')
  const reads = [
    ...readScenarios(app, '', pid),
    ...readScenarios(`http://127.0.0.1:${PROD_PORT}`, ' (production settings)', prod.pid ?? null),
  ]
  const bareRounds: Row[][] = [[], []]
  const readRounds: Row[][] = reads.map(() => [])
  for (let round = 0; round < READ_ROUNDS; round++) {
    // The first round warms each read long enough for the read cache to hold what it asks about.
    const timing = { warmup: round === 0 ? WARMUP : ROUND_WARMUP, duration: ROUND_SECONDS }
    for (const [i, threads] of [1, 2].entries()) {
      const name = `bare node http (wrk${threads === 1 ? '' : ', 2 threads'})`
      bareRounds[i].push(await load(name, bareUrl, 'static.lua', null, undefined, threads, timing))
    }
    for (const [i, r] of reads.entries()) {
      const warmup = r.manyKeys ? WARMUP : timing.warmup
      readRounds[i].push(await load(r.name, r.url, r.script, r.pid, r.args, WRK_THREADS, { ...timing, warmup }))
    }
  }
  const roundBest = bareRounds[0].map((one, i) => Math.max(one.rps, bareRounds[1][i].rps))
  const bareRps = median(roundBest)
  const ceilings = bareRounds.map((rows) =>
    medianRow(
      rows,
      rows.map((r) => r.rps / bareRps),
    ),
  )
  // The other generators' ceilings on the bare server, once (the full run): what generating the paths
  // in Lua costs, and autocannon, which the earlier benches measured instead of the server.
  if (!quick) {
    ceilings.push(
      await load('bare node http (wrk + availability script)', bareUrl, 'availability.lua', null, () => [WRK_DATA]),
    )
    ceilings.push(await autocannonLoad('bare node http (autocannon)', bareUrl))
    for (const r of ceilings.slice(2)) r.ratio = r.rps / bareRps
  }
  await stopServer(bareServer)
  await stopServer(prod)
  const readRows = readRounds.map((rows) =>
    medianRow(
      rows,
      rows.map((r, i) => r.rps / roundBest[i]),
    ),
  )
  const [health, ...cachedReads] = readRows.slice(0, 4)
  const production = readRows.slice(4)
  const results: Row[] = [...cachedReads]
  // 4. Booking creation on distinct free slots: the hourly slots of 600 courts (200 venues), court
  // after court, hour after hour, day after day, as a peak-hour rush on the popular venues would.
  const firstNewId = await nextBookingId()
  const create = await load('4. booking creation (distinct slots)', `${app}/`, 'bookings.lua', pid, (offset) => [
    bookingData,
    String(WRK_THREADS),
    String(offset),
  ])
  results.push(create)

  // The database's own limit: pgbench running the same INSERT on other free courts of the same
  // database, as many clients as the server's pool has connections; then the plain INSERT of a desk
  // booking (no cap), for comparison.
  const dbs = kind === 'postgres' ? await pgbenchBookings(fx.freeCourtIds, firstNewId) : null
  const db = dbs?.held ?? null

  // 5. Contention: 1,000 concurrent creates aimed at 10 slots.
  const contested = fx.freeCourtIds[fx.freeCourtIds.length - 1]
  const t0 = Date.now()
  const statuses = await Promise.all(
    Array.from({ length: 1000 }, (_, i) =>
      fetch(`${app}/api/bookings`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${fx.tokens[i % fx.tokens.length]}` },
        body: JSON.stringify({
          court_id: contested,
          date: kathmanduDate(3),
          start_time: `${String(8 + (i % 10)).padStart(2, '0')}:00`,
          end_time: `${String(9 + (i % 10)).padStart(2, '0')}:00`,
        }),
      })
        .then((r) => r.status)
        .catch(() => 0),
    ),
  )
  const contentionMs = Date.now() - t0
  const count = (s: number) => statuses.filter((x) => x === s).length
  const created = count(201)
  const conflicts = count(409)
  const fivexx = statuses.filter((s) => s >= 500 || s === 0).length
  await stopServer(server)

  // Every ratio but the reads' own (their rounds' median) is to the bare server's median best.
  for (const r of [large, small]) r.ratio = r.rps / bareRps
  if (db) create.ratio = create.rps / db.rps
  const rows = [...ceilings, health, ...results, ...(dbs ? [dbs.held, dbs.plain] : []), small, large, ...production]
  log('')
  log(tableHead)
  for (const r of rows) log(tableRow(r, create, db))
  const [a, l, s, c] = results
  const scaling = large.p50 / Math.max(small.p50, 0.001)
  const peakRss = Math.max(...[health, ...results, large, small, ...production].map((r) => r.rssMb ?? 0))
  const [ph, pa, pl, ps] = production
  const r3 = (x: number) => x.toFixed(3)
  const checks: Check[] = [
    [
      `generators: bare server ${fmt(bareRps)} req/s (the median over ${READ_ROUNDS} round${READ_ROUNDS === 1 ? '' : 's'} of the better of wrk with one thread, ${rounds(bareRounds[0])}, and with two, ${rounds(bareRounds[1])}; the denominator of the rows not measured in rounds, while each read's rounds are to their own round's best)` +
        (quick
          ? ''
          : `; ${ceilings
              .slice(2)
              .map((r) => `${fmt(r.rps)} under ${r.name.slice(r.name.indexOf('(') + 1, -1)}`)
              .join(', ')}`),
      null,
    ],
    [
      `framework floor: /health ${r3(health.ratio!)} of bare${spread(health)} (Fastify, the global hooks, a 15-byte answer; target >= 0.8)`,
      health.ratio! >= 0.8,
      health.ratio!,
      0.8,
    ],
    [`cached availability ${r3(a.ratio!)} of bare${spread(a)} (target >= 0.6)`, a.ratio! >= 0.6, a.ratio!, 0.6],
    [`venue show ${r3(s.ratio!)} of bare${spread(s)} (target >= 0.6)`, s.ratio! >= 0.6, s.ratio!, 0.6],
    [`venue list ${r3(l.ratio!)} of bare${spread(l)} (target >= 0.5)`, l.ratio! >= 0.5, l.ratio!, 0.5],
    [
      `production settings (rate limit, log line at info, metrics): /health ${r3(ph.ratio!)}${spread(ph)}, ` +
        `cached availability ${r3(pa.ratio!)}${spread(pa)}, venue list ${r3(pl.ratio!)}${spread(pl)}, ` +
        `venue show ${r3(ps.ratio!)}${spread(ps)} of bare (the targets above are for the quiet settings)`,
      null,
    ],
    [`uncached availability ${r3(large.ratio!)} of bare (target >= 0.15)`, large.ratio! >= 0.15, large.ratio!, 0.15],
    db
      ? [
          `booking creation ${fmt(c.rps)}/s = ${r3(c.ratio!)} of pgbench ${fmt(db.rps)} tps, non-2xx ${c.non2xx} (target >= 0.8; ` +
            `${r3(c.rps / dbs!.plain.rps)} of pgbench's ${fmt(dbs!.plain.rps)} tps with a desk booking's plain INSERT, no cap)`,
          c.ratio! >= 0.8 && c.non2xx === 0,
          c.ratio!,
          0.8,
        ]
      : [`booking creation ${fmt(c.rps)}/s, non-2xx ${c.non2xx} (pgbench needs the PostgreSQL server)`, null],
    [
      `reads p99 availability ${a.p99} ms, list ${l.p99} ms, show ${s.p99} ms at ${CONNECTIONS} connections (target <= 20)`,
      Math.max(a.p99, l.p99, s.p99) <= 20,
    ],
    // The embedded database lives in the server's own process: the memory target is for the
    // PostgreSQL server, and PGlite's number is only reported.
    [
      `peak server RSS ${peakRss} MB (target <= 250${kind === 'pglite' ? '; includes the embedded database' : ''})`,
      kind === 'pglite' ? null : peakRss <= 250,
    ],
    [
      `contention: ${created} created, ${conflicts} x 409, ${fivexx} 5xx/errors in ${contentionMs} ms (target 10 / 990 / 0)`,
      created === 10 && conflicts === 990 && fivexx === 0,
    ],
    [
      `availability p50 without cache at ${total} rows / at ${smallRows} rows = ${fmt(scaling, 2)} (target <= 1.5)`,
      scaling <= 1.5,
    ],
  ]
  log('')
  for (const check of checks) log(`ratio: ${checkLine(check)}`)
  log(`bench finished in ${Math.round((Date.now() - started) / 1000)} s; ${loadNote()}`)

  if (quick && !args.has('--no-write')) {
    writeQuickSection(
      [tableHead, ...rows.map((r) => tableRow(r, create, db))],
      checks.map((c) => `ratio: ${checkLine(c)}`),
    )
    log('wrote the "Last quick run" section of docs/performance.md')
  }
  if (!quick && !args.has('--no-write')) {
    writeReport({ rows, create, db, checks, total, plans, created, conflicts, fivexx, contentionMs })
    log('wrote docs/performance.md')
  }
}

const WRK_SMALL = '.tmp/bench-data/wrk-small.lua'

/**
 * Row 0 and the three cached reads against the server at `base` (`pid` for its memory). Court
 * availability asks about 6,300 court-days, and the read cache keeps an entry for 30 s
 * (CACHE_TTL_MS): a round lasts longer, so every round warms it for the full WARMUP (`manyKeys`);
 * the others ask about at most 300 keys and are warm again within ROUND_WARMUP.
 */
function readScenarios(base: string, suffix: string, pid: number | null) {
  return [
    { name: `0. /health (the framework alone)${suffix}`, url: `${base}/health`, script: 'static.lua' },
    {
      name: `1. court availability${suffix}`,
      url: `${base}/`,
      script: 'availability.lua',
      args: () => [WRK_DATA],
      manyKeys: true,
    },
    {
      name: `2. venue list (coords, radius 500, sort distance)${suffix}`,
      url: `${base}/api/venues?lat=27.7&lng=85.32&radius=500&sort=distance`,
      script: 'static.lua',
    },
    {
      name: `3. venue show by slug (300 venues)${suffix}`,
      url: `${base}/`,
      script: 'venue-show.lua',
      args: () => [WRK_DATA],
    },
  ].map((r) => ({ ...r, pid, manyKeys: r.manyKeys ?? false }))
}

/** The 1/5/15-minute load averages: above the core count, other processes shared the cores with the run. */
function loadNote() {
  const [one, five, fifteen] = loadavg().map((x) => x.toFixed(1))
  return `load average ${one} / ${five} / ${fifteen} on ${cpus().length} cores`
}
const fmt = (x: number, d = 0) => x.toFixed(d)

/** A target line: its text, PASS/BELOW (null: INFO, no target here), and the ratio and its target for the bar. */
type Check = readonly [text: string, ok: boolean | null, value?: number, target?: number]

/** `PASS [##########|####    ] text`: the bar's `|` is the target, its length twice the target. */
function checkLine([text, ok, value, target]: Check) {
  if (value === undefined || target === undefined) return `${verdict(ok)} ${text}`
  const width = 20
  const filled = Math.max(0, Math.min(width, Math.round((value / (2 * target)) * width)))
  const cells: string[] = Array.from({ length: width }, (_, i) => (i < filled ? '#' : ' '))
  cells.splice(width / 2, 0, '|')
  return `${verdict(ok)} [${cells.join('')}] ${text}`
}

const tableHead =
  '| scenario | generator | req/s | p50 ms | p99 ms | peak RSS MB | non-2xx | ratio |\n|---|---|---|---|---|---|---|---|'

/** A table row; booking creation's ratio is to pgbench, every other to the bare server (see main). */
function tableRow(r: Row, create: Row, db: Row | null) {
  const of = r === create ? (db ? ' of pgbench' : '') : ' of bare'
  const ratio = r.ratio === undefined ? '-' : `${r.ratio.toFixed(3)}${of}${spread(r)}`
  const rss = r.rssMb ?? '-'
  const lat = (x: number) => (r.generator === 'pgbench' ? `${x} (avg)` : String(x))
  return `| ${r.name} | ${r.generator} | ${fmt(r.rps)} | ${r.generator === 'pgbench' ? '-' : r.p50} | ${lat(r.p99)} | ${rss} | ${r.non2xx} | ${ratio} |`
}

/**
 * pgbench with the service's booking INSERT (bench/pgbench.ts) on the free courts the HTTP
 * scenarios leave alone, with as many clients as the server's pool (DATABASE_POOL_SIZE, 10), a
 * warm-up on one day and the measured run on the next.
 */
async function pgbenchBookings(freeCourtIds: number[], firstNewId: number): Promise<{ held: Row; plain: Row }> {
  const client = new pg.Client({ connectionString: pgUrl })
  await client.connect()
  try {
    const layout = await client.query<{ bad: string; max: string }>(
      `SELECT count(*) FILTER (WHERE venue_id <> (id - 1) / ${size.courtsPerVenue} + 1) AS bad, max(id) AS max FROM courts`,
    )
    if (Number(layout.rows[0].bad) !== 0) throw new Error('pgbench: courts are not numbered venue after venue')
    // A booking the server just created: the values of the columns pgbench does not vary.
    const sample = await client.query<{ row: SampleRow }>(
      `SELECT row_to_json(b) AS row FROM bookings b WHERE type = 'online' AND created_by IS NOT NULL ORDER BY id DESC LIMIT 1`,
    )
    if (!sample.rows[0]) throw new Error('pgbench: the server created no booking to take values from')
    // The held INSERT counts its customer's unpaid bookings, and pgbench books as the same customers:
    // it starts from the state the server started from (the server's bookings of scenario 4 removed),
    // and adds its own as it goes, as the server did.
    await client.query('DELETE FROM bookings WHERE id >= $1', [firstNewId])
    const players = await client.query<{ lo: string; hi: string }>(
      `SELECT min(id) AS lo, max(id) AS hi FROM users WHERE email LIKE 'player%'`,
    )
    const firstCourt = freeCourtIds[freeCourtIds.length - 1] + 1
    const clients = POOL_SIZE
    const perClient = Math.floor((Number(layout.rows[0].max) - firstCourt + 1) / clients)
    const run = async (shape: InsertShape, days: [number, number], name: string): Promise<Row> => {
      const script = bookingScript(
        sample.rows[0].row,
        {
          firstCourt,
          perClient,
          courtsPerVenue: size.courtsPerVenue,
          players: [Number(players.rows[0].lo), Number(players.rows[0].hi)],
          now: new Date(),
          wall: new Zone('Asia/Kathmandu').format(new Date()),
        },
        shape,
      )
      const file = '.tmp/bench-data/booking-insert.pgbench'
      await runPgbench(pgUrl, file, script, clients, WARMUP, kathmanduDate(days[0]))
      const r = await runPgbench(pgUrl, file, script, clients, DURATION, kathmanduDate(days[1]))
      return {
        name: `pgbench: ${name} (${clients} clients)`,
        generator: 'pgbench',
        rps: r.tps,
        p50: 0,
        p99: r.latencyMs,
        rssMb: null,
        non2xx: r.failed,
        errors: 0,
      }
    }
    const held = await run('insert-held:', [300, 301], "the service's booking INSERT, its unpaid cap included")
    const plain = await run('insert:', [302, 303], "a desk booking's plain INSERT (no cap), for comparison")
    return { held, plain }
  } finally {
    await client.end()
  }
}

/** The id the next booking row will get (the bookings created from here on have this id or more). */
async function nextBookingId(): Promise<number> {
  if (kind !== 'postgres') return 0
  const client = new pg.Client({ connectionString: pgUrl })
  await client.connect()
  try {
    const { rows } = await client.query<{ next: string }>('SELECT coalesce(max(id), 0) + 1 AS next FROM bookings')
    return Number(rows[0].next)
  } finally {
    await client.end()
  }
}
const POOL_SIZE = 10

/** PASS, BELOW, or INFO for a number reported without a target. */
function verdict(ok: boolean | null) {
  return ok === null ? 'INFO' : ok ? 'PASS' : 'BELOW'
}

function writeReport(r: {
  rows: Row[]
  create: Row
  db: Row | null
  checks: readonly Check[]
  total: number
  plans: { availability: string; venueList: string; venueNear: string }
  created: number
  conflicts: number
  fivexx: number
  contentionMs: number
}) {
  const text = `# Performance

The current state: how \`npm run bench\` measures, its latest full run, and what each target needs.
bench/run.ts writes this file (the quick run only "Last quick run"); the history is in git (below).

## Method

- **Ratios, not rates**, which do not compare across machines. Reads are to a bare Node \`http\` server
  in the same run (bench/bare-server.mjs, its own process, sending an availability answer's size);
  booking creation is to **pgbench** running the service's own booking INSERT on the same database.
- **Load generator.** wrk (${WRK_THREADS} thread${WRK_THREADS === 1 ? '' : 's'}, ${CONNECTIONS} connections, bench/wrk/*.lua) on the server's cores. The bare
  server runs under one wrk thread and two; ratios are to the better. A second thread took CPU from the
  server (cached availability: 37–40 µs of its user time per request beside two, 32–33 beside one).
- **Rounds.** Identical runs on shared cores differ by half or more, so \`/health\` and the three cached
  reads run in ${READ_ROUNDS} rounds of ${ROUND_SECONDS} s after ${ROUND_WARMUP} s (${WARMUP} s in the first round and for court availability,
  whose cached days last 30 s), each after the bare server. A read's ratio is the median of its rounds'
  ratios to their round's bare best (lowest–highest in brackets); its row has the median round's rate
  and p50 and the highest p99. Other rows run ${DURATION} s after ${WARMUP} s, against the median bare best.
- **Scenarios.** Row 0 is \`/health\`: Fastify, the global hooks, a 15-byte answer. Reads 1–3 have the
  read cache on (a random busy court on one of the next 7 days; one of 300 venues); "no cache" is
  \`CACHE_TTL_MS=0\` at about ${SMALL_ROWS} rows and at the full count. Scenario 4 books distinct free hourly
  slots on ${CREATE_COURTS} courts as 200 customers; pgbench runs its INSERT (bench/pgbench.ts, cap included,
  prepared) on other free courts with ${POOL_SIZE} clients, the server's pool. Scenario 5: 1,000 creates at 10 slots.
- **Settings.** Servers run as \`npm start\` does (dist/, \`NODE_ENV=production\`), quiet: \`LOG_LEVEL=warn\`,
  no rate limit, a pool of ${POOL_SIZE}, \`MAX_UNPAID_BOOKINGS=1000\`. The "(production settings)" rows run the
  same reads in the same rounds on a second server with rate limiting on (memory store), a log line
  per request at info and metrics. The targets are for the quiet settings.
- **Full and quick.** The full run takes eight to ten minutes. \`-- --quick\` takes about a minute: a
  smaller data set, one round, 1 s warm-up, 3 s measured; colder and noisier.

## Latest full run

Measured by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}: ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}),
${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, database: ${kind === 'postgres' ? 'PostgreSQL server (local)' : 'embedded PGlite'}.
Data: ${size.venues} venues, ${size.venues * size.courtsPerVenue} courts, ${r.total} booking rows (a year on ${size.busyVenues} venues).
At the end of the run: ${loadNote()}.

${tableHead}
${r.rows.map((x) => tableRow(x, r.create, r.db)).join('\n')}

Contention: 1,000 concurrent creates at 10 slots → ${r.created} created, ${r.conflicts} × 409, ${r.fivexx} 5xx (${r.contentionMs} ms).

## Targets

${r.checks.map((c) => `- ${checkLine(c)}`).join('\n')}

## What the profiles showed, and what changed

${readFileSync('bench/profiles.md', 'utf8').trim()}

## Query plans (with ${r.total} booking rows)

A court's bookings on a date (availability); the venue list's 500 km box around Kathmandu, all of
Nepal, so the planner rightly reads the whole table (the distance filter and sort follow); a 10 km
box, through the (latitude, longitude) index:

\`\`\`
${r.plans.availability}

${r.plans.venueList}

${r.plans.venueNear}
\`\`\`

## Reproduce

\`\`\`sh
npm install
apt-get install wrk        # the bench installs it itself when run as root
npm run bench              # full run on the local PostgreSQL server; rewrites this file
npm run bench -- --quick   # about a minute; rewrites "Last quick run" only
npm run bench -- --no-write   # either run, printed only; --db=pglite: the embedded database, no pgbench
# BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/courtside_bench), BENCH_PORT (default 8123)
npm run bench:floor        # the framework floor piece by piece, about four minutes; -- --quick: one round
npm run bench:search       # the free-time search at marketplace size (PostgreSQL), about seven minutes; rewrites its section
# a server by hand: as bench/run.ts startServer starts it; compare builds in alternating starts, pinned
# (taskset -c 0 for the server, -c 1 for wrk)
# CPU per request of the server, every PostgreSQL process and the load generator, over the same seconds
bench/cpu-split.sh <server pid> -- wrk -t1 -c100 -d10s -s bench/wrk/availability.lua http://127.0.0.1:8123/ -- .tmp/bench-data/wrk-data.lua
# the database alone: bench/pgbench/court-day.sql (its header has the pgbench line) or court-day-bookings.sql
bench/cpu-split.sh 0 -- pgbench -h 127.0.0.1 -U postgres -n -M prepared -c 10 -T 8 -D courts=<n> -D first=<day> -f bench/pgbench/court-day.sql courtside_bench
# where the CPU goes: perf, of the server started with node --perf-basic-prof, and of the database's backends
perf record -F 2999 -p <server pid> -o node.data -- sleep 8; perf report -i node.data --no-children --sort dso,sym
perf record -F 2999 -p "$(pgrep -f 'postgres: .*courtside_bench' | paste -sd,)" -o pg.data -- sleep 8
# call paths only (V8 samples wall time, waiting for a core included)
node --cpu-prof --cpu-prof-dir=/tmp/prof dist/server.js
npx tsx bench/cpuprofile.ts /tmp/prof/<file>.cpuprofile 25 --skip=4   # or --callers=<function> --depth=8
\`\`\`
`
  const report = readReport()
  writeFileSync('docs/performance.md', text + section(report, SEARCH_HEADING) + quickSection(report))
}

const QUICK_HEADING = '## Last quick run'

function readReport() {
  return existsSync('docs/performance.md') ? readFileSync('docs/performance.md', 'utf8') : ''
}

/** The "Last quick run" section of a report (kept when the full run rewrites the rest), or ''. */
function quickSection(report: string) {
  const at = report.indexOf(QUICK_HEADING)
  return at < 0 ? '' : `\n${report.slice(at).trimEnd()}\n`
}

/** A section of the report written by another bench, kept by the full run, or ''. */
function section(report: string, heading: string) {
  const at = sectionAt(report, heading)
  return at ? `\n${report.slice(at[0], at[1]).trimEnd()}\n` : ''
}

/** `npm run bench -- --quick` replaces the report's "Last quick run" section with its table and ratio lines. */
function writeQuickSection(table: string[], lines: string[]) {
  const report = readReport()
  const at = report.indexOf(QUICK_HEADING)
  const head = (at < 0 ? report : report.slice(0, at)).trimEnd()
  const section = `${QUICK_HEADING}

\`npm run bench -- --quick\` on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC (${size.venues} venues, ${WARMUP} s warm-up,
${DURATION} s measured: colder and noisier than the full run; ${loadNote()}):

${table.join('\n')}

\`\`\`
${lines.join('\n')}
\`\`\`
`
  writeFileSync('docs/performance.md', `${head}\n\n${section}`)
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
