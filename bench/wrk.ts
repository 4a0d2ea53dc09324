// What the benches share (bench/run.ts, bench/floor.ts): wrk and its result line, the bare Node
// server, the processes they start, and a row of results.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * The production settings every server of the benches starts with, with the in-service gateways
 * and the outbox file: the benches send nothing out. /metrics is served on loopback only.
 */
export const SERVER_ENV = {
  NODE_ENV: 'production',
  APP_KEY: 'bench-key-not-secret',
  PAYMENT_SANDBOX_IN_PRODUCTION: 'true',
  OUTBOX_LOG_IN_PRODUCTION: 'true',
  METRICS_PUBLIC: 'true',
  HOST: '127.0.0.1',
}

/** Connections wrk keeps open in every scenario. */
export const CONNECTIONS = 100

/** Every process the bench started and has not stopped: killed if the bench itself exits early. */
export const children = new Set<ChildProcess>()
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL')
})

export async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url)).ok
  } catch {
    return false
  }
}

/** The bare server (bench/bare-server.mjs) in a process of its own, answering `body` on `port`. */
export async function startBare(body: string, port: number): Promise<ChildProcess> {
  const file = '.tmp/bench-data/bare-body.json'
  mkdirSync('.tmp/bench-data', { recursive: true })
  writeFileSync(file, body)
  if (await answers(`http://127.0.0.1:${port}/`)) throw new Error(`port ${port} already answers`)
  const child = spawn(process.execPath, ['bench/bare-server.mjs', file, String(port)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  children.add(child)
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('bench/bare-server.mjs did not start within 10 s')), 10_000)
    child.stdout?.once('data', () => {
      clearTimeout(timer)
      resolve()
    })
    child.once('error', reject)
    child.once('exit', (code) => reject(new Error(`bench/bare-server.mjs exited (${code})`)))
  })
  return child
}

/**
 * The service's production build (dist/server.js) in a process of its own, started with the node
 * flags of `npm start` and `env`; resolves once /health answers on `port`.
 */
export async function spawnServer(
  env: Record<string, string | undefined>,
  port: number,
  output: 'inherit' | 'ignore' = 'inherit',
): Promise<ChildProcess> {
  // Something else answering on the port would be measured in the server's place (a server left
  // running by hand once was, and its own server then failed with EADDRINUSE while the run went on).
  if (await answers(`http://127.0.0.1:${port}/health`)) {
    throw new Error(`port ${port} already answers: stop what listens there (ss -ltnp) and run the bench again`)
  }
  const child = spawn(process.execPath, [...startFlags(), 'dist/server.js'], {
    env: { ...env, PORT: String(port) },
    stdio: ['ignore', output, 'inherit'],
  })
  children.add(child)
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null || child.signalCode !== null) break
    if (await answers(`http://127.0.0.1:${port}/health`)) return child
    await new Promise((r) => setTimeout(r, 200))
  }
  child.kill()
  throw new Error(`server did not start${child.exitCode !== null ? ` (it exited with ${child.exitCode})` : ''}`)
}

/** The node flags of `npm start` (package.json), so the bench runs the server as it is started. */
function startFlags(): string[] {
  const start: string = JSON.parse(readFileSync('package.json', 'utf8')).scripts.start
  const words = start.split(/\s+/)
  return words.slice(words.indexOf('node') + 1, words.indexOf('dist/server.js'))
}

/**
 * The production build (`npm run build`), which is what `npm start` runs; skipped when dist/server.js
 * is newer than every file of src/ (the type check alone takes half of the quick run's minute).
 */
export function buildServer() {
  const newest = (dir: string): number =>
    Math.max(
      0,
      ...readdirSync(dir, { withFileTypes: true }).map((e) =>
        e.isDirectory() ? newest(join(dir, e.name)) : statSync(join(dir, e.name)).mtimeMs,
      ),
    )
  const built = existsSync('dist/server.js') ? statSync('dist/server.js').mtimeMs : 0
  if (built > Math.max(newest('src'), statSync('tsconfig.build.json').mtimeMs)) return
  const res = spawnSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit' })
  if (res.status !== 0) throw new Error('npm run build failed')
}

export async function stopServer(child: ChildProcess) {
  children.delete(child)
  if (child.exitCode !== null || child.signalCode !== null) return
  const done = new Promise((r) => child.once('exit', r))
  child.kill('SIGTERM')
  await done
}

export function rssSampler(pid: number) {
  let peak = 0
  const read = () => {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
      if (m) peak = Math.max(peak, Number(m[1]) * 1024)
    } catch {}
  }
  read()
  const t = setInterval(read, 100)
  return () => {
    clearInterval(t)
    read()
    return peak
  }
}

export interface Row {
  name: string
  /** The load generator that measured it. */
  generator: 'wrk' | 'autocannon' | 'pgbench'
  rps: number
  p50: number
  p99: number
  rssMb: number | null
  non2xx: number
  errors: number
  ratio?: number
  /** A read measured in rounds: the lowest and highest of its rounds' ratios. */
  spread?: [number, number]
}

/** The middle value (the lower of the two middle ones for an even count). */
export function median(xs: number[]) {
  const sorted = [...xs].sort((a, b) => a - b)
  return sorted[Math.floor((sorted.length - 1) / 2)]
}

/**
 * One wrk thread. The generator shares the machine's two cores with the server, and a second thread
 * competes with the server for its core, most in the scripted scenarios, whose Lua builds every
 * request. The bare server is measured under one thread and two in every round, and the ratios
 * take the better of them, so a generator that held it back cannot flatter them.
 * docs/performance.md, "Method".
 */
export const WRK_THREADS = 1

/**
 * wrk on PATH, or installed with apt-get when the bench runs as root (the Debian package `wrk`);
 * otherwise the bench stops, naming the package.
 */
export function ensureWrk() {
  const has = () => spawnSync('wrk', ['-v'], { stdio: 'ignore' }).error === undefined
  if (has()) return
  if (process.getuid?.() === 0) {
    console.log('wrk not found: installing it (apt-get install -y wrk)')
    spawnSync('apt-get', ['install', '-y', 'wrk'], { stdio: 'inherit' })
    if (has()) return
  }
  console.log('wrk not found: install it with `apt-get install wrk` (Debian/Ubuntu; `brew install wrk` on macOS)')
  process.exit(1)
}

/**
 * Runs wrk with one of bench/wrk/*.lua (each prints a WRKJSON line when done), a warm-up first;
 * `args(offset)` are the script's arguments, offset being the first request index of that run.
 */
export async function wrkLoad(
  name: string,
  url: string,
  script: string,
  pid: number | null,
  args: (offset: number) => string[] = () => [],
  threads: number,
  { warmup, duration }: { warmup: number; duration: number },
): Promise<Row> {
  const warm = await runWrk(url, script, warmup, args(0), threads)
  const stop = pid ? rssSampler(pid) : () => 0
  const r = await runWrk(url, script, duration, args(warm.last_index + 1), threads)
  const rss = stop()
  return {
    name,
    generator: 'wrk',
    rps: r.requests / (r.duration_us / 1e6),
    p50: Math.round(r.p50_us / 100) / 10,
    p99: Math.round(r.p99_us / 100) / 10,
    rssMb: pid ? Math.round(rss / 1048576) : null,
    non2xx: r.non2xx,
    errors: r.errors,
  }
}

export interface WrkResult {
  requests: number
  duration_us: number
  p50_us: number
  p99_us: number
  non2xx: number
  errors: number
  last_index: number
}

export function runWrk(
  url: string,
  script: string,
  seconds: number,
  args: string[],
  threads: number,
  connections = CONNECTIONS,
): Promise<WrkResult> {
  const argv = [
    `-t${threads}`,
    `-c${connections}`,
    `-d${seconds}s`,
    '--timeout',
    '10s',
    '--latency',
    '-s',
    `bench/wrk/${script}`,
    url,
    '--',
    ...args,
  ]
  return new Promise((resolve, reject) => {
    const child = spawn('wrk', argv, { stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    child.stdout.on('data', (d) => {
      out += d
    })
    child.on('error', reject)
    child.on('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('WRKJSON '))
      if (code !== 0 || !line) return reject(new Error(`wrk ${argv.join(' ')} failed (${code}):\n${out}`))
      resolve(JSON.parse(line.slice(8)) as WrkResult)
    })
  })
}
