// npm run bench:floor [-- --quick]
// The framework floor piece by piece: a Fastify app with one route answering /health's 15 bytes
// (bench/floor-server.mjs), then with each of the app's global pieces added in turn, then the real
// server's /health, in the bench's quiet configuration and in production's (rate limiting on with
// its default store, metrics, LOG_LEVEL=info), each measured under wrk in rounds against a bare Node
// server answering the same bytes. Every server runs in a process of its own, all started before
// the first round. Prints a Markdown table: the median round's rate, the median of the rounds'
// ratios to their round's bare best (lowest–highest), and the server's CPU time per request
// (user + system from /proc, over the measured seconds), whose differences are what each piece costs.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import pg from 'pg'
import { answers, children, ensureWrk, median, runWrk, SERVER_ENV, startBare, stopServer, WRK_THREADS } from './wrk.ts'

const quick = process.argv.includes('--quick')
const ROUNDS = quick ? 1 : 3
const WARMUP = quick ? 1 : 2
const SECONDS = quick ? 3 : 5
const FIRST_PORT = Number(process.env.BENCH_PORT ?? 8123)
const DB_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/courtside_floor'
const HEALTH_BODY = '{"status":"ok"}'

/** Each stage adds its pieces to the previous one's (bench/floor-server.mjs names them). */
const STAGES: { name: string; pieces: string[]; drop?: string[] }[] = [
  { name: 'Fastify, one route with a response schema', pieces: [] },
  { name: '+ logger (pino at info, req.log made on use)', pieces: ['logger'] },
  { name: '+ request id (genReqId, x-request-id on send)', pieces: ['request-id'] },
  { name: '+ edge options (trust proxy, timeouts, client errors)', pieces: ['edge'] },
  { name: '+ frame options (onSend)', pieces: ['frame-options'] },
  { name: '+ error and not-found handlers', pieces: ['errors'] },
  { name: '+ metrics histogram (onResponse)', pieces: ['metrics'] },
  { name: "+ request log line at info through pino's info(), a write per line", pieces: ['log-line', 'log-line-pino'] },
  { name: '+ instead, the line as the app writes it (one template string)', pieces: [], drop: ['log-line-pino'] },
  { name: '+ log lines written in batches (LOG_BUFFER_BYTES=4096)', pieces: ['log-buffer'] },
  { name: '+ rate limit, memory store (production default)', pieces: ['rate-limit'] },
]
const REDIS_STAGE = { name: '… with the rate limit in Redis instead', swap: ['rate-limit', 'rate-limit-redis'] }

interface Target {
  name: string
  url: string
  start: (port: number) => Promise<ChildProcess>
}

function log(msg: string) {
  process.stdout.write(`${msg}\n`)
}

async function startFloor(pieces: string[], port: number) {
  const child = spawn(process.execPath, ['bench/floor-server.mjs', pieces.join(','), String(port)], {
    env: { ...process.env, ...SERVER_ENV },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  children.add(child)
  await new Promise<void>((resolve, reject) => {
    child.stdout?.once('data', () => resolve())
    child.once('exit', (code) => reject(new Error(`bench/floor-server.mjs ${pieces.join(',')} exited (${code})`)))
  })
  // Its log lines go nowhere from here on (production sends them to a collector).
  child.stdout?.resume()
  return child
}

/** The real server (dist/server.js) on the floor's database, production settings plus `extra`. */
async function startApp(port: number, extra: Record<string, string>) {
  const child = spawn(process.execPath, ['dist/server.js'], {
    env: {
      ...process.env,
      ...SERVER_ENV,
      PORT: String(port),
      DATABASE_URL: DB_URL,
      JOBS_ENABLED: 'false',
      DATA_DIR: '.tmp/bench-data',
      ...extra,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  children.add(child)
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`dist/server.js exited (${child.exitCode})`)
    if (await answers(`http://127.0.0.1:${port}/health`)) return child
    await new Promise((r) => setTimeout(r, 200))
  }
  throw new Error('dist/server.js did not start')
}

/** The process's user + system CPU time in microseconds (/proc/<pid>/stat, clock ticks of 10 ms). */
function cpuMicros(pid: number) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 10_000
}

async function measure(url: string, pid: number | null, threads = WRK_THREADS) {
  await runWrk(url, 'static.lua', WARMUP, [], threads)
  const before = pid ? cpuMicros(pid) : 0
  const r = await runWrk(url, 'static.lua', SECONDS, [], threads)
  const rps = r.requests / (r.duration_us / 1e6)
  return { rps, p99: r.p99_us / 1000, cpu: pid ? (cpuMicros(pid) - before) / r.requests : Number.NaN, non2xx: r.non2xx }
}

async function main() {
  ensureWrk()
  if (!existsSync('dist/server.js')) {
    if (spawnSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit' }).status !== 0) process.exit(1)
  }
  const admin = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' })
  await admin.connect()
  const dbName = new URL(DB_URL).pathname.slice(1)
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`)
  await admin.query(`CREATE DATABASE ${dbName}`)
  await admin.end()

  const targets: Target[] = []
  let pieces: string[] = []
  for (const stage of STAGES) {
    pieces = [...pieces, ...stage.pieces].filter((p) => !stage.drop?.includes(p))
    const these = pieces
    targets.push({ name: stage.name, url: '/api/floor', start: (port) => startFloor(these, port) })
  }
  const redisPieces = pieces.map((p) => (p === REDIS_STAGE.swap[0] ? REDIS_STAGE.swap[1] : p))
  targets.push({ name: REDIS_STAGE.name, url: '/api/floor', start: (port) => startFloor(redisPieces, port) })
  const quiet = { LOG_LEVEL: 'warn', RATE_LIMIT_ENABLED: 'false' }
  targets.push({
    name: "the server: /health, the bench's quiet settings",
    url: '/health',
    start: (p) => startApp(p, quiet),
  })
  targets.push({ name: 'the server: /health, production settings', url: '/health', start: (p) => startApp(p, {}) })

  const bare = await startBare(HEALTH_BODY, FIRST_PORT)
  const servers: ChildProcess[] = []
  for (const [i, t] of targets.entries()) {
    servers.push(await t.start(FIRST_PORT + 1 + i))
  }
  // Every server answers before the first round (a production /api/sports is a query once, then cached).
  for (const [i, t] of targets.entries()) {
    const res = await fetch(`http://127.0.0.1:${FIRST_PORT + 1 + i}${t.url}`)
    if (!res.ok) throw new Error(`${t.name}: ${res.status}`)
  }

  const bareRows: { rps: number; cpu: number }[] = []
  const rows = targets.map(() => [] as { rps: number; ratio: number; cpu: number; p99: number; non2xx: number }[])
  for (let round = 0; round < ROUNDS; round++) {
    const one = await measure(`http://127.0.0.1:${FIRST_PORT}/`, bare.pid ?? null, 1)
    const two = await measure(`http://127.0.0.1:${FIRST_PORT}/`, bare.pid ?? null, 2)
    const best = one.rps >= two.rps ? one : two
    bareRows.push(best)
    for (const [i, t] of targets.entries()) {
      const m = await measure(`http://127.0.0.1:${FIRST_PORT + 1 + i}${t.url}`, servers[i].pid ?? null)
      rows[i].push({ ...m, ratio: m.rps / best.rps })
    }
  }
  for (const s of [bare, ...servers]) await stopServer(s)

  const f = (x: number, d = 0) => x.toFixed(d)
  const bareCpu = median(bareRows.map((r) => r.cpu))
  log(
    `\nfloor: ${ROUNDS} round(s) of ${SECONDS} s after ${WARMUP} s, wrk 1 thread, 100 connections; ${cpus().length} cores`,
  )
  log('')
  log('| server | req/s | ratio to bare | p99 ms | CPU µs / request | added by this piece |')
  log('|---|---|---|---|---|---|')
  log(`| bare Node http, the same 15 bytes | ${f(median(bareRows.map((r) => r.rps)))} | 1 | - | ${f(bareCpu, 1)} | |`)
  let previous = bareCpu
  for (const [i, t] of targets.entries()) {
    const ratios = rows[i].map((r) => r.ratio)
    const mid = rows[i][ratios.indexOf(median(ratios))]
    const cpu = median(rows[i].map((r) => r.cpu))
    const spread = ROUNDS > 1 ? ` (${f(Math.min(...ratios), 3)}–${f(Math.max(...ratios), 3)})` : ''
    const added =
      t.name.startsWith('…') || t.name.startsWith('the server')
        ? ''
        : `${cpu - previous >= 0 ? '+' : ''}${f(cpu - previous, 1)}`
    if (!t.name.startsWith('…')) previous = cpu
    const bad = rows[i].reduce((n, r) => n + r.non2xx, 0)
    log(
      `| ${t.name} | ${f(mid.rps)} | ${f(median(ratios), 3)}${spread} | ${f(Math.max(...rows[i].map((r) => r.p99)), 1)} | ${f(cpu, 1)} | ${added}${bad ? ` (${bad} non-2xx!)` : ''} |`,
    )
  }
  const [a, b, c] = loadavg().map((x) => x.toFixed(1))
  log(`\nload average ${a} / ${b} / ${c}`)
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err)
    process.exit(1)
  },
)
