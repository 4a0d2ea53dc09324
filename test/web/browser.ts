import { readFileSync } from 'node:fs'
import { type AddressInfo, createServer } from 'node:net'
import { join } from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import type { App } from '../../src/app.ts'
import { type SeedSummary, seedDemo } from '../../src/cli/seed.ts'
import { createCourtsideClient } from '../../src/client/index.ts'
import type { Clock } from '../../src/lib/clock.ts'
import { build } from '../helpers/app.ts'

// Browser tests of the customer web app: the real server (test/helpers/app.ts, a fresh database
// with the demo data) on a real port, the app built by Vite exactly as `npm run build` builds it,
// and Debian's Chromium through playwright-core (launchBrowser, axeViolations and friends are
// the console's, test/console/browser.ts).

import { ensureBuilt, walk } from '../console/browser.ts'

export { axeViolations, eventually, launchBrowser, screenshot } from '../console/browser.ts'

const root = new URL('../..', import.meta.url).pathname
export const webDir = join(root, 'dist/web')

/** A phone (390 × 844, touch) and a desktop, the two viewports every page is checked at. */
export const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 }
export const DESKTOP = { viewport: { width: 1280, height: 800 } }

/** Builds dist/web once per source change; parallel test files wait for one build. */
export function ensureWebBuilt() {
  ensureBuilt('web', webDir, 'scripts/build-web.mjs', [
    ...walk(join(root, 'web')),
    ...walk(join(root, 'shared-ui')),
    join(root, 'src/client/index.ts'),
    join(root, 'src/client/schema.d.ts'),
    join(root, 'src/lib/nepali-date.ts'),
  ])
}

/** The gzipped JavaScript of the first load of / as the build measured it (scripts/build-web.mjs). */
export function measuredBudget(): { firstLoadJsGzip: number; allJsGzip: number } {
  return JSON.parse(readFileSync(join(webDir, 'budget.json'), 'utf8'))
}

export interface WebServer {
  app: App
  url: string
  seed: SeedSummary
  close(): Promise<void>
}

/**
 * The real app on a fresh database with the demo data (`npm run seed`) as of `clock`'s now (a
 * ManualClock; give pages the same now with `contextAt`), listening on a free port.
 */
export async function startWebServer(clock?: Clock, env: Record<string, string> = {}): Promise<WebServer> {
  ensureWebBuilt()
  // Gateways send the customer back under APP_URL: the address this server will listen on.
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const app = await build(undefined, { WEB_DIR: webDir, APP_URL: url, ...env }, { clock })
  const seed = await seedDemo(app.ctx.db, { zone: app.ctx.zone, clock: app.ctx.clock, storage: app.ctx.storage })
  await app.listen({ port, host: '127.0.0.1' })
  return { app, url, seed, close: () => app.close() }
}

/**
 * Signs `context` in as the user with `email` (the demo password): the token comes from
 * POST /api/auth/login and is stored where the app keeps its session, before any page loads.
 */
export async function signInAs(context: BrowserContext, server: WebServer, email: string) {
  const res = await fetch(`${server.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: server.seed.password }),
  })
  if (!res.ok) throw new Error(`login ${email}: ${res.status} ${await res.text()}`)
  const body = (await res.json()) as { token: string; data: unknown }
  const session = JSON.stringify({ token: body.token, user: body.data })
  await context.addInitScript((value: string) => localStorage.setItem('courtside.web.session', value), session)
}

/** A port nobody listens on now (the OS's choice). */
export async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const { port } = server.address() as AddressInfo
  await new Promise((done) => server.close(done))
  return port
}

/** Opens `path` of the app in a new page of `context` and waits until the app has rendered. */
export async function open(context: BrowserContext, server: WebServer, path: string): Promise<Page> {
  const page = await context.newPage()
  await page.goto(`${server.url}${path}`)
  await page.locator('#main').waitFor()
  return page
}

/** A new browser context of `browser` with `options` (PHONE, DESKTOP) whose clock reads `now`. */
export async function contextAt(browser: Browser, now: Date, options: object = PHONE): Promise<BrowserContext> {
  const context = await browser.newContext(options)
  await context.clock.setFixedTime(now)
  return context
}

/** A typed client signed in as `email` (the demo password). */
export async function login(server: WebServer, email: string) {
  const anonymous = createCourtsideClient(server.url)
  const { data } = await anonymous.POST('/api/auth/login', { body: { email, password: server.seed.password } })
  if (!data) throw new Error(`login ${email} refused`)
  return createCourtsideClient(server.url, data.token)
}

/** Adds `amount` to the wallet of `email` through the Khalti sandbox (its `simulate=success` shortcut). */
export async function topUp(server: WebServer, email: string, amount: string) {
  const client = await login(server, email)
  const { data } = await client.POST('/api/wallet/topup', { body: { amount, method: 'gateway_2' } })
  if (!data) throw new Error('the top-up was refused')
  let url = `${data.payment_url}&simulate=success`
  for (let hops = 0; hops < 5; hops++) {
    const res = await fetch(url, { redirect: 'manual' })
    const next = res.headers.get('location')
    if (!next) break
    url = new URL(next, url).toString()
  }
  const wallet = await client.GET('/api/wallet')
  if (wallet.data?.balance !== amount) throw new Error(`wallet balance ${wallet.data?.balance}, not ${amount}`)
}
