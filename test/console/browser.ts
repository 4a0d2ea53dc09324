import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { type AddressInfo, createServer } from 'node:net'
import { join } from 'node:path'
import { after, before } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core'
import type { App } from '../../src/app.ts'
import { type SeedSummary, seedDemo } from '../../src/cli/seed.ts'
import { type Clock, ManualClock } from '../../src/lib/clock.ts'
import { build } from '../helpers/app.ts'
import { FIXED_NOW } from '../helpers/factories.ts'
import { atTeardown } from '../helpers/teardown.ts'

// Browser tests of the staff console: the real server (test/helpers/app.ts, a fresh database) on a
// real port, the console built by Vite exactly as `npm run build` builds it, and Debian's Chromium
// driven by playwright-core (no browser download works here).

const root = new URL('../..', import.meta.url).pathname
export const consoleDir = join(root, 'dist/console')

/** Builds dist/console once per source change; parallel test files wait for one build. */
export function ensureConsoleBuilt() {
  ensureBuilt('console', consoleDir, 'scripts/build-console.mjs', [
    ...walk(join(root, 'console')),
    ...walk(join(root, 'shared-ui')),
    join(root, 'src/client/index.ts'),
    join(root, 'src/client/schema.d.ts'),
  ])
}

/**
 * Runs a front-end's build script (`script`, writing `outDir`) unless `outDir` was built from these
 * very `sources` (a hash stamped in it); parallel test files wait for one build under a lock.
 */
export function ensureBuilt(name: string, outDir: string, script: string, sources: string[]) {
  const h = createHash('sha256')
  for (const f of [...sources, join(root, script)].sort()) if (existsSync(f)) h.update(f).update(readFileSync(f))
  const hash = h.digest('hex')
  const stamp = join(outDir, '.source-hash')
  const built = () => existsSync(stamp) && readFileSync(stamp, 'utf8') === hash
  if (built()) return
  const lock = join(root, `.tmp/${name}-build.lock`)
  mkdirSync(join(root, '.tmp'), { recursive: true })
  for (let i = 0; ; i++) {
    try {
      mkdirSync(lock)
      break
    } catch {
      if (i > 600) rmSync(lock, { recursive: true, force: true })
      spawnSync('sleep', ['0.2'])
      if (built()) return
    }
  }
  try {
    const run = spawnSync(process.execPath, [join(root, script)], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, CI: 'true' },
    })
    if (run.status !== 0) throw new Error(`${name} build failed:\n${run.stdout}\n${run.stderr}`)
    writeFileSync(stamp, hash)
  } finally {
    rmSync(lock, { recursive: true, force: true })
  }
}

/** Every file under `dir`. */
export function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name)
    return statSync(full).isDirectory() ? walk(full) : [full]
  })
}

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/**
 * Where a console test stands unless it brings a clock of its own: FIXED_NOW, Tuesday 10 March 2026,
 * 09:00 in Kathmandu. startConsoleServer puts the server on a ManualClock there, and a browser
 * launched with the server's clock (launchBrowser) reads the same instant, so no console test
 * depends on the machine's date, weekday or time of day. Count a test's dates from it
 * (ordinaryDayAfter(CONSOLE_NOW, n), test/helpers/factories.ts).
 */
export const CONSOLE_NOW = FIXED_NOW

/**
 * Debian's Chromium, headless. With `clock` (the server's), every context and page it opens is in
 * venue time (Asia/Kathmandu unless the options say otherwise) and its `Date` stands at the clock's
 * instant when the context opens (timers still run): the console's own "today" (the desk's date,
 * this month on the reports) is then the service's, as on a venue's device. The instant is read when
 * a context opens: a test that moves the clock later sets the context's time again
 * (`context.clock.setFixedTime`).
 *
 * Under `npm test` (scripts/test.mjs, which sets TEST_TEARDOWN) one Chromium serves every file of a
 * test process: what this returns is that browser as the caller's own, whose close() closes the
 * contexts and pages it opened (all a test can hold: cookies, storage, service workers and clocks
 * are per context) and leaves the browser to the next file; the runner closes it when the process's
 * files are done. Launching Chromium costs about a second a file. Outside the runner (a file run
 * alone) each call launches a browser of its own, closed by close().
 */
export async function launchBrowser(clock?: Clock): Promise<Browser> {
  if (process.env.TEST_TEARDOWN !== '1') return ownView(await launch(), clock, true)
  if (!sharedBrowser || !(await sharedBrowser).isConnected()) {
    const launching = launch()
    sharedBrowser = launching
    atTeardown(async () => {
      if (sharedBrowser === launching) sharedBrowser = undefined
      await (await launching).close()
    })
  }
  return ownView(await sharedBrowser, clock)
}

let sharedBrowser: Promise<Browser> | undefined

/**
 * `browser` as a caller's own: its contexts (with `clock`, at the clock's instant), closed by
 * close(), which also closes the browser when it is `owned`.
 */
function ownView(browser: Browser, clock?: Clock, owned = false): Browser {
  const own = new Set<BrowserContext>()
  const newContext: Browser['newContext'] = async (options = {}) => {
    const context = await browser.newContext(clock ? { timezoneId: 'Asia/Kathmandu', ...options } : options)
    own.add(context)
    context.once('close', () => own.delete(context))
    if (clock) await context.clock.setFixedTime(clock.now())
    return context
  }
  // As Browser.newPage: a context of the page's own, closed with the page.
  const newPage: Browser['newPage'] = async (options = {}) => {
    const context = await newContext(options)
    try {
      const page = await context.newPage()
      page.once('close', () => void context.close().catch(() => {}))
      return page
    } catch (err) {
      await context.close()
      throw err
    }
  }
  const close: Browser['close'] = async () => {
    for (const context of [...own]) await context.close().catch(() => {})
    if (owned) await browser.close()
  }
  const contexts: Browser['contexts'] = () => [...own]
  const overrides: Partial<Browser> = { newContext, newPage, close, contexts }
  return new Proxy(browser, {
    get(target, prop, receiver) {
      if (Object.hasOwn(overrides, prop)) return overrides[prop as keyof Browser]
      const value = Reflect.get(target, prop, receiver)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}

function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  })
}

export interface ConsoleServer {
  app: App
  url: string
  seed: SeedSummary
  close(): Promise<void>
}

/**
 * The real app on a fresh database with the demo data (`npm run seed`), listening on a free port;
 * on `clock` when given, else on a ManualClock at CONSOLE_NOW.
 * `history` adds the demo venue's two months of past bookings and payments (src/cli/seed-history.ts).
 * `port` (see freePort) also sets APP_URL to it, so stored files' absolute URLs are the page's origin.
 */
export async function startConsoleServer(
  env: Record<string, string> = {},
  opts: { clock?: Clock; history?: boolean; port?: number } = {},
): Promise<ConsoleServer> {
  ensureConsoleBuilt()
  const own: Record<string, string> = opts.port ? { APP_URL: `http://127.0.0.1:${opts.port}` } : {}
  const clock = opts.clock ?? new ManualClock(CONSOLE_NOW)
  const app = await build(undefined, { CONSOLE_DIR: consoleDir, ...own, ...env }, { clock })
  const seed = await seedDemo(app.ctx.db, {
    zone: app.ctx.zone,
    clock: app.ctx.clock,
    history: opts.history,
    commissionBasisPoints: app.ctx.config.platformCommissionBasisPoints,
  })
  const address = await app.listen({ port: opts.port ?? 0, host: '127.0.0.1' })
  return { app, url: address, seed, close: () => app.close() }
}

/** The id of the demo venue named `name` (the seed's Baneshwor Futsal Arena by default). */
export async function demoVenueId(server: ConsoleServer, name = 'Baneshwor Futsal Arena'): Promise<number> {
  const venue = await server.app.ctx.db
    .selectFrom('venues')
    .select('id')
    .where('name', '=', name)
    .executeTakeFirstOrThrow()
  return venue.id
}

/** Signs in through the login form and waits for the signed-in frame. */
export async function signIn(page: Page, url: string, email: string, password: string) {
  await page.goto(`${url}/console/`)
  await page.getByLabel('Email or phone').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.getByRole('button', { name: 'Sign out' }).waitFor()
}

/** A phone's viewport (390 × 844), for `pageAs`. */
export const PHONE = { width: 390, height: 844 }

/**
 * A console page suite's setting, for a `describe` block: its `before` starts the server
 * (startConsoleServer with `env`, `clock` and `history`; on a port of its own with `ownPort`) and
 * Chromium, and finds the demo venue; its `after` closes every page's context, the browser and the
 * server. Hooks the suite adds itself run after these. `server`, `browser` and `venueId` are there
 * once `before` has run.
 */
export function withConsole(
  opts: { env?: Record<string, string>; clock?: Clock; history?: boolean; ownPort?: boolean; timeout?: number } = {},
) {
  const contexts: BrowserContext[] = []
  let server: ConsoleServer
  let browser: Browser
  let venueId = 0
  before(async () => {
    const port = opts.ownPort ? await freePort() : undefined
    server = await startConsoleServer(opts.env, { clock: opts.clock, history: opts.history, port })
    browser = await launchBrowser(server.app.ctx.clock)
    venueId = await demoVenueId(server)
  })
  after(async () => {
    for (const c of contexts) await c.close()
    await browser?.close()
    await server?.close()
  })
  const inject = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, token: string, payload?: object) =>
    server.app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, payload })
  return {
    get server() {
      return server
    },
    get browser() {
      return browser
    },
    get venueId() {
      return venueId
    },
    /** An API call with `token`. */
    inject,
    /** A bearer token for `email` (the demo password unless given). */
    async login(email: string, password = server.seed.password): Promise<string> {
      const res = await server.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } })
      if (res.statusCode !== 200) throw new Error(`login ${email}: ${res.statusCode} ${res.body}`)
      return res.json().token as string
    },
    /** The id of the demo venue's court `name`. */
    async courtId(name: string): Promise<number> {
      const court = await server.app.ctx.db
        .selectFrom('courts')
        .select('id')
        .where('venue_id', '=', venueId)
        .where('name', '=', name)
        .executeTakeFirstOrThrow()
      return court.id
    },
    /**
     * A new page (its own context, venue time, 1280 × 900 unless given) signed in as `email` (the
     * demo password unless given); each step waits at most `timeout` (15 s unless given).
     */
    async pageAs(email: string, page: { password?: string; width?: number; height?: number } = {}): Promise<Page> {
      const { password = server.seed.password, width = 1280, height = 900 } = page
      const context = await browser.newContext({ viewport: { width, height } })
      contexts.push(context)
      const opened = await context.newPage()
      opened.setDefaultTimeout(opts.timeout ?? 15_000)
      await signIn(opened, server.url, email, password)
      return opened
    },
  }
}

const require = createRequire(import.meta.url)
const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8')

export interface AxeViolation {
  id: string
  impact: string | null
  help: string
  nodes: { target: string[] }[]
}

/** axe-core's WCAG 2 A/AA checks on the page as it is now: every violation, whatever its impact. */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  // Evaluated through the DevTools protocol: the console's CSP (script-src 'self') refuses inline scripts.
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(axeSource)
  const violations = await page.evaluate(async () => {
    // axe is the global the injected script defines.
    const axe = (
      globalThis as unknown as {
        axe: { run: (ctx: Document, opts: object) => Promise<{ violations: AxeViolation[] }> }
      }
    ).axe
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    })
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target })),
    }))
  })
  return violations
}

/** Saves a screenshot under .tmp/screenshots, and under docs/ when UPDATE_SCREENSHOTS=1 (the README's pictures). */
export async function screenshot(page: Page, name: string) {
  mkdirSync(join(root, '.tmp/screenshots'), { recursive: true })
  await page.screenshot({ path: join(root, '.tmp/screenshots', `${name}.png`) })
  if (process.env.UPDATE_SCREENSHOTS === '1') await page.screenshot({ path: join(root, 'docs', `${name}.png`) })
}

/** A TCP port that was free a moment ago (for a server whose APP_URL must name its own port). */
export async function freePort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const { port } = probe.address() as AddressInfo
  await new Promise((resolve) => probe.close(resolve))
  return port
}

/** Polls `check` until it holds (for effects outside the page, such as database rows). */
export async function eventually(check: () => Promise<boolean>, ms = 5000) {
  const end = Date.now() + ms
  while (Date.now() < end) {
    if (await check()) return
    await sleep(50)
  }
  throw new Error('condition not met in time')
}
