import type { Browser, BrowserContext } from 'playwright-core'
import { PHONE, signInAs, type WebServer } from './browser.ts'

// Lighthouse-style numbers of one page load in Debian's Chromium (playwright-core and the DevTools
// protocol; Lighthouse itself is not installable here): a phone (390 × 844), a fresh browser
// context (cold cache, no service worker), the network and CPU throttled like Lighthouse's mobile
// profile, and the page's own performance timeline read after the load has settled. Used by
// scripts/web-vitals.ts (the table in docs/web.md) and test/web/vitals.test.ts (the budgets).

/** Lighthouse's mobile default ("slow 4G", a mid-range phone): 150 ms, 1.6 Mbps down, 750 Kbps up, CPU × 4. */
export const MOBILE_PROFILE = {
  latencyMs: 150,
  downloadKbps: 1.6 * 1024,
  uploadKbps: 750,
  cpuSlowdown: 4,
}
export type Profile = typeof MOBILE_PROFILE

/**
 * The same profile as Lighthouse applies it when it throttles through DevTools rather than
 * simulating (`throttlingMethod: 'devtools'`): round trips × 3.75 and throughput × 0.9, because
 * DevTools delays each response rather than each packet.
 */
export const LIGHTHOUSE_DEVTOOLS_PROFILE: Profile = {
  latencyMs: 150 * 3.75,
  downloadKbps: 1.6 * 1024 * 0.9,
  uploadKbps: 750 * 0.9,
  cpuSlowdown: 4,
}

/** How long after the load event the page is watched for long tasks and layout shifts. */
export const SETTLE_MS = 3000

export interface Vitals {
  /** First contentful paint, ms after navigation start. */
  fcp: number
  /** Largest contentful paint, ms after navigation start. */
  lcp: number
  /** Total blocking time: Σ (duration − 50 ms) over long tasks from FCP to the end of the window. */
  tbt: number
  /** Cumulative layout shift: the largest session window (gaps < 1 s, at most 5 s), as Lighthouse counts it. */
  cls: number
  /** The load event, ms after navigation start. */
  load: number
  /** JavaScript transferred: compressed bytes on the wire (headers included) of every script response. */
  jsBytes: number
  /** The scripts' content encodings as the server sent them (br, gzip). */
  jsEncodings: string[]
  /** How many long tasks (> 50 ms) ran in the window. */
  longTasks: number
}

export interface MeasureOptions {
  profile?: Profile
  /** Sign the page in as this demo user first (the session the app keeps in localStorage). */
  signedInAs?: string
  /** The browser's clock starts at this instant (the server's ManualClock's now in tests). */
  now?: Date
  /** Wait for this selector before the settling window starts (besides `#main`). */
  ready?: string
  /** The CPU slowdown to apply instead of the profile's (calibratedSlowdown). */
  cpuSlowdown?: number
}

/** Loads `path` once in a fresh phone context, throttled, and reads its numbers. */
export async function measure(
  browser: Browser,
  server: WebServer,
  path: string,
  options: MeasureOptions = {},
): Promise<Vitals> {
  const profile = options.profile ?? MOBILE_PROFILE
  const context: BrowserContext = await browser.newContext(PHONE)
  try {
    if (options.now) await context.addInitScript({ content: inPage(startClockAt, options.now.getTime()) })
    if (options.signedInAs) await signInAs(context, server, options.signedInAs)
    await context.addInitScript({ content: inPage(observeTimeline) })
    const page = await context.newPage()
    const cdp = await context.newCDPSession(page)
    await cdp.send('Network.enable')
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: profile.latencyMs,
      downloadThroughput: (profile.downloadKbps * 1024) / 8,
      uploadThroughput: (profile.uploadKbps * 1024) / 8,
    })
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: options.cpuSlowdown ?? profile.cpuSlowdown })

    // The bytes on the wire of every script, from the network itself.
    const scripts = new Map<string, string>()
    let jsBytes = 0
    cdp.on('Network.responseReceived', (e) => {
      if (e.type !== 'Script') return
      const headers = Object.fromEntries(Object.entries(e.response.headers).map(([k, v]) => [k.toLowerCase(), v]))
      scripts.set(e.requestId, String(headers['content-encoding'] ?? 'identity'))
    })
    cdp.on('Network.loadingFinished', (e) => {
      if (scripts.has(e.requestId)) jsBytes += e.encodedDataLength
    })

    await page.goto(`${server.url}${path}`, { waitUntil: 'load', timeout: 60_000 })
    await page.locator('#main').waitFor({ timeout: 60_000 })
    if (options.ready) await page.locator(options.ready).first().waitFor({ timeout: 60_000 })
    await page.waitForLoadState('networkidle', { timeout: 60_000 })
    await page.waitForTimeout(SETTLE_MS)
    const timeline: ReturnType<typeof readTimeline> = await page.evaluate(inPage(readTimeline))
    await cdp.detach()
    return { ...timeline, jsBytes, jsEncodings: [...new Set(scripts.values())].sort() }
  } finally {
    await context.close()
  }
}

/**
 * The source of a call of `fn` (with JSON arguments) to run in the page. tsx (esbuild's keepNames)
 * wraps the names of inner functions in calls of a `__name` helper the page does not have: the
 * source brings its own.
 */
function inPage<A extends unknown[]>(fn: (...args: A) => unknown, ...args: A): string {
  return `(() => { const __name = (f) => f; return (${fn.toString()})(...${JSON.stringify(args)}) })()`
}

/**
 * Runs in the page before its own scripts (an init script): observers of every timeline entry the
 * numbers need, kept on `window.__vitals`. Long tasks are only seen by an observer registered
 * before they run, so this cannot wait until the page has loaded.
 */
function observeTimeline() {
  const seen: { paint: PerformanceEntry[]; lcp: PerformanceEntry[]; longtask: PerformanceEntry[]; shift: unknown[] } = {
    paint: [],
    lcp: [],
    longtask: [],
    shift: [],
  }
  ;(globalThis as unknown as { __vitals: typeof seen }).__vitals = seen
  const watch = (type: string, into: unknown[]) => {
    try {
      new PerformanceObserver((list) => into.push(...list.getEntries())).observe({ type, buffered: true })
    } catch {
      // An entry type this browser does not know: its number stays empty.
    }
  }
  watch('paint', seen.paint)
  watch('largest-contentful-paint', seen.lcp)
  watch('longtask', seen.longtask)
  watch('layout-shift', seen.shift)
}

/** Runs in the page after the settling window: the numbers from what observeTimeline kept. */
function readTimeline() {
  interface Shift extends PerformanceEntry {
    value: number
    hadRecentInput: boolean
  }
  const seen = (
    globalThis as unknown as {
      __vitals: { paint: PerformanceEntry[]; lcp: PerformanceEntry[]; longtask: PerformanceEntry[]; shift: Shift[] }
    }
  ).__vitals
  const fcp = seen.paint.find((e) => e.name === 'first-contentful-paint')?.startTime ?? Number.NaN
  const lcp = seen.lcp.length ? seen.lcp[seen.lcp.length - 1].startTime : Number.NaN
  // Blocking time counts only after the first paint (Lighthouse's rule); a task that straddles it
  // counts for its part after FCP.
  let tbt = 0
  let longTasks = 0
  for (const task of seen.longtask) {
    const end = task.startTime + task.duration
    if (end <= fcp) continue
    longTasks++
    const start = Math.max(task.startTime, fcp)
    tbt += Math.max(0, end - start - 50)
  }
  // Layout shifts grouped in session windows (gaps under 1 s, at most 5 s long); the largest counts.
  let cls = 0
  let session = 0
  let first = 0
  let last = 0
  for (const shift of seen.shift) {
    if (shift.hadRecentInput) continue
    if (session && shift.startTime - last < 1000 && shift.startTime - first < 5000) session += shift.value
    else {
      session = shift.value
      first = shift.startTime
    }
    last = shift.startTime
    cls = Math.max(cls, session)
  }
  const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined
  return { fcp, lcp, tbt, cls, longTasks, load: nav?.loadEventEnd ?? Number.NaN }
}

/**
 * Runs in the page before its own scripts: `Date` starts at `start` (ms since the epoch) and runs on
 * with the page's monotonic clock. Only Date: Playwright's clock would replace `performance` too,
 * and the timeline would read empty.
 */
function startClockAt(start: number) {
  const RealDate = Date
  const origin = performance.now()
  const now = () => start + (performance.now() - origin)
  globalThis.Date = new Proxy(RealDate, {
    construct: (target, args, newTarget) => Reflect.construct(target, args.length ? args : [now()], newTarget),
    apply: () => new RealDate(now()).toString(),
    get: (target, key, receiver) => (key === 'now' ? now : Reflect.get(target, key, receiver)),
  })
}

/**
 * How long a fixed piece of page work (script, JSON, DOM and layout) takes in a blank page,
 * unthrottled, right now: the median of five runs, in ms. On an idle machine of the kind the
 * budgets were set on it is about REFERENCE_WORK_MS; on a busy or slower machine it takes longer.
 */
export async function pageWorkMs(browser: Browser): Promise<number> {
  const context = await browser.newContext()
  try {
    const page = await context.newPage()
    const runs: number[] = []
    for (let i = 0; i < 5; i++) runs.push(await page.evaluate(inPage(pageWork)))
    return median(runs)
  } finally {
    await context.close()
  }
}

/**
 * pageWorkMs on an idle 2-core AMD EPYC (2.1 GHz) of this project's machines, Chromium 156: 88–111 ms
 * in five measurements (2026-11-29). Under a whole `npm test` (a load of 5–12) it took 76–416 ms.
 */
export const REFERENCE_WORK_MS = 100

/**
 * The CPU slowdown that makes the page run as fast as the profile's phone would on the reference
 * machine (Lighthouse's advice for throttling on a host of another speed): the profile's factor
 * divided by how much slower the machine is now, at least 1; never more than the profile's, so a
 * fast machine is measured as before.
 */
export function calibratedSlowdown(workMs: number, profile: Profile = MOBILE_PROFILE): number {
  const slower = workMs / REFERENCE_WORK_MS
  return Math.max(1, Math.min(profile.cpuSlowdown, profile.cpuSlowdown / slower))
}

function pageWork(): number {
  const start = performance.now()
  let x = 0
  for (let i = 0; i < 200_000; i++) x += Math.sqrt(i) % 7
  const rows = JSON.parse(JSON.stringify(Array.from({ length: 3000 }, (_, i) => ({ i, label: `18:00 slot ${i}`, x }))))
  const list = document.createElement('ul')
  for (const row of rows.slice(0, 600)) {
    const item = document.createElement('li')
    item.textContent = row.label
    list.append(item)
  }
  document.body.append(list)
  void list.offsetHeight
  list.remove()
  return performance.now() - start
}

/** The median of `values` (the mean of the middle two for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}
