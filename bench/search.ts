// npm run bench:search [-- --no-write] [-- --keep-data]
// The free-time search at marketplace size (docs/catalogue.md, "Free-time search"): 10,000 venues,
// 40,000 courts and 1,000,000 bookings over the next 30 days on the PostgreSQL server; "where can we
// play tonight" (Kathmandu centre, 10 km, 18:00–21:00, futsal, soonest first) under wrk, beside the
// same run's cached venue list of the same filters without a date. Writes the "Free-time search"
// section of docs/performance.md (bench/run.ts keeps it when it rewrites the rest).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, totalmem } from 'node:os'
import { sql } from 'kysely'
import pg from 'pg'
import { openDatabase } from '../src/lib/db.ts'
import { migrate } from '../src/lib/migrate.ts'
import { generateBookings, generateCatalogue } from './data.ts'
import { buildServer, CONNECTIONS, ensureWrk, runWrk, SERVER_ENV, spawnServer, stopServer } from './wrk.ts'

const args = new Set(process.argv.slice(2))
const url = process.env.BENCH_SEARCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/courtside_bench_search'
const PORT = Number(process.env.BENCH_PORT ?? 8123)
const SIZE = { venues: 10_000, courtsPerVenue: 4, busyVenues: 300, fill: 0 }
const BOOKINGS = 1_000_000
const DAYS = 30
/** The search's latency target at LATENCY_CONNECTIONS (issue 47). */
const P99_TARGET_MS = 50
/** Connections of the latency run: the server's database pool, so no request waits for a connection. */
const LATENCY_CONNECTIONS = 10
const WARMUP = 5
const DURATION = 15
export const SEARCH_HEADING = '## Free-time search'

const log = (line: string) => process.stdout.write(`${line}\n`)

async function loadData() {
  const admin = new pg.Client({ connectionString: new URL('/postgres', url).toString() })
  await admin.connect()
  const name = new URL(url).pathname.slice(1)
  const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])
  if (args.has('--keep-data') && exists.rowCount) {
    await admin.end()
    log(`data: kept from the last run (${name})`)
    return
  }
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
  await admin.query(`CREATE DATABASE ${name}`)
  await admin.end()
  const handle = await openDatabase({ databaseUrl: url, poolSize: 4 })
  try {
    await migrate(handle.db)
    const t0 = Date.now()
    await generateCatalogue(handle.db, SIZE)
    const courts = (await handle.db.selectFrom('courts').select('id').execute()).map((r) => r.id)
    // 16 hourly slots a day (06:00–22:00): the share of them booked that makes BOOKINGS rows.
    const rows = await generateBookings(handle.db, courts, 0, DAYS, BOOKINGS / (courts.length * DAYS * 16))
    await sql`VACUUM ANALYZE`.execute(handle.db)
    log(
      `data: ${SIZE.venues} venues, ${courts.length} courts, ${rows} bookings over ${DAYS} days in ${Date.now() - t0} ms`,
    )
  } finally {
    await handle.close()
  }
}

/** Tonight in Kathmandu: today before 18:00, else tomorrow (the next 18–21 window). */
function tonight(): string {
  const fmt = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Kathmandu', dateStyle: 'short', timeStyle: 'short' })
  const [date, time] = fmt.format(new Date()).split(' ')
  if (time! < '18:00') return date!
  return fmt.format(new Date(Date.now() + 86_400_000)).slice(0, 10)
}

interface Measured {
  name: string
  connections: number
  rps: number
  p50: number
  p99: number
  non2xx: number
}

/** Searches that differ (windows, lengths, radii): more than the results kept, so most are worked out afresh. */
function differentSearches(date: string): string {
  const paths: string[] = []
  for (const radius of [7, 8, 9, 10, 11, 12])
    for (const duration of [60, 90, 120, 150])
      for (let from = 17 * 60; from < 21 * 60; from += 5) {
        const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`
        paths.push(
          `/api/venues?lat=27.7172&lng=85.324&radius=${radius}&sport=futsal&date=${date}&from=${hhmm(from)}&to=${hhmm(from + 180)}&duration=${duration}&sort=soonest`,
        )
      }
  const file = '.tmp/bench-data/wrk-searches.lua'
  mkdirSync('.tmp/bench-data', { recursive: true })
  writeFileSync(file, `return {\n  paths = { ${paths.map((p) => JSON.stringify(p)).join(', ')} },\n}\n`)
  return file
}

async function measure(
  name: string,
  base: string,
  path: string,
  connections: number,
  script: { lua: string; data: string } | null = null,
): Promise<Measured> {
  const url = script ? `${base}/` : `${base}${path}`
  const lua = script?.lua ?? 'static.lua'
  const luaArgs = script ? [script.data] : []
  await runWrk(url, lua, WARMUP, luaArgs, 1, connections)
  const r = await runWrk(url, lua, DURATION, luaArgs, 1, connections)
  return {
    name,
    connections,
    rps: r.requests / (r.duration_us / 1e6),
    p50: Math.round(r.p50_us / 100) / 10,
    p99: Math.round(r.p99_us / 100) / 10,
    non2xx: r.non2xx + r.errors,
  }
}

async function main() {
  ensureWrk()
  buildServer()
  await loadData()
  const server = await spawnServer(
    {
      ...process.env,
      ...SERVER_ENV,
      DATABASE_URL: url,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_ENABLED: 'false',
      JOBS_ENABLED: 'false',
    },
    PORT,
  )
  const base = `http://127.0.0.1:${PORT}`
  const date = tonight()
  const list = '/api/venues?lat=27.7172&lng=85.324&radius=10&sport=futsal'
  const search = `${list}&date=${date}&from=18:00&to=21:00&sort=soonest`
  try {
    const sample = await (await fetch(`${base}${search}`)).json()
    log(`search: ${sample.meta.total} venues with a free start tonight (${date}); first ${sample.data[0]?.name}`)
    const rows = [
      await measure('cached venue list (Kathmandu, 10 km, futsal)', base, list, CONNECTIONS),
      await measure('free-time search (the same, tonight 18–21, soonest)', base, search, CONNECTIONS),
      await measure('cached venue list (Kathmandu, 10 km, futsal)', base, list, LATENCY_CONNECTIONS),
      await measure('free-time search (the same, tonight 18–21, soonest)', base, search, LATENCY_CONNECTIONS),
      await measure(
        '1,152 different free-time searches (windows from 17:00–20:55, 1–2½ h, 7–12 km)',
        base,
        '',
        LATENCY_CONNECTIONS,
        {
          lua: 'paths.lua',
          data: differentSearches(date),
        },
      ),
    ]
    report(rows, sample.meta.total, date)
  } finally {
    await stopServer(server)
  }
}

function report(rows: Measured[], found: number, date: string) {
  const [list, search, , searchLatency, different] = rows
  const ratio = search!.rps / list!.rps
  const ok = searchLatency!.p99 <= P99_TARGET_MS && rows.every((r) => r.non2xx === 0)
  const [one, five] = loadavg().map((x) => x.toFixed(1))
  const table = [
    '| scenario | connections | req/s | p50 ms | p99 ms | non-2xx |',
    '|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.name} | ${r.connections} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.non2xx} |`),
  ]
  const lines = [
    `${ok ? 'PASS' : 'BELOW'} free-time search p99 ${searchLatency!.p99} ms at ${LATENCY_CONNECTIONS} connections (target <= ${P99_TARGET_MS})`,
    `INFO free-time search ${search!.rps.toFixed(0)} req/s = ${ratio.toFixed(3)} of the cached venue list's ${list!.rps.toFixed(0)} at ${CONNECTIONS} connections`,
    `INFO 1,152 different searches (more than the 256 results kept, so most are worked out afresh from the index in memory): ${different!.rps.toFixed(0)} req/s, p99 ${different!.p99} ms at ${LATENCY_CONNECTIONS} connections`,
  ]
  for (const l of [...table, '', ...lines]) log(l)
  if (args.has('--no-write')) return
  const section = `${SEARCH_HEADING}

\`npm run bench:search\` on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC: ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB,
Node ${process.version}, PostgreSQL server (local); load average ${one} / ${five} at the end. Data: ${SIZE.venues} venues,
${SIZE.venues * SIZE.courtsPerVenue} courts, about ${BOOKINGS.toLocaleString('en')} bookings over the next ${DAYS} days. The search: Kathmandu centre,
10 km, futsal, ${date} 18:00–21:00, soonest first (${found} venues with a free start). wrk, one thread, ${WARMUP} s warm-up,
${DURATION} s measured; the server as \`npm start\` runs it, read cache on. The design: docs/catalogue.md, "Free-time search".
The latency target is for ${LATENCY_CONNECTIONS} connections, the server's database pool: at ${CONNECTIONS} the requests queue
behind each other on the two cores. The repeated search is answered from its kept result (worked out
again each minute and after each change it depends on); the different searches are mostly worked out
afresh, which is what one search costs (\`npm run bench:search -- --keep-data\` reuses the data set).

${table.join('\n')}

\`\`\`
${lines.join('\n')}
\`\`\`
`
  const path = 'docs/performance.md'
  const text = existsSync(path) ? readFileSync(path, 'utf8') : ''
  writeFileSync(path, replaceSection(text, SEARCH_HEADING, section))
  log(`wrote the "${SEARCH_HEADING.slice(3)}" section of ${path}`)
}

/** Where the section under `heading` lies in `text` (up to the next "## "), or null. */
export function sectionAt(text: string, heading: string): [start: number, end: number] | null {
  const at = text.indexOf(`${heading}\n`)
  if (at < 0) return null
  const next = text.indexOf('\n## ', at + heading.length)
  return [at, next < 0 ? text.length : next + 1]
}

/**
 * `text` with the section under `heading` replaced by `section`; a new one goes before "## Last
 * quick run" (bench/run.ts rewrites from that heading to the end), else at the end.
 */
export function replaceSection(text: string, heading: string, section: string): string {
  const at = sectionAt(text, heading)
  if (at) return `${text.slice(0, at[0])}${section}${text.slice(at[1])}`
  const quick = text.indexOf('## Last quick run')
  if (quick < 0) return `${text.trimEnd()}\n\n${section}`
  return `${text.slice(0, quick)}${section}\n${text.slice(quick)}`
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((err) => {
    console.error(err)
    process.exit(1)
  })
}
