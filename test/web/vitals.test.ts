import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { Browser } from 'playwright-core'
import { ManualClock } from '../../src/lib/clock.ts'
import { launchBrowser, startWebServer, type WebServer } from './browser.ts'
import { calibratedSlowdown, MOBILE_PROFILE, measure, pageWorkMs, type Vitals } from './vitals.ts'

// The speed budgets of the customer web app, measured as `npm run web:vitals` measures them (one
// load per page instead of three, unless a load misses the budgets: then up to five): Chromium on a phone (390 × 844), cold cache, the network and CPU
// throttled like Lighthouse's mobile profile (150 ms round trips, 1.6 Mbps, CPU × 4).
//
// The bounds are Lighthouse's own "poor" thresholds, well above what is measured here (docs/web.md,
// "Measured speed": LCP 1.0–1.5 s, TBT at most 113 ms, CLS at most 0.039, 34 KB of JavaScript),
// because this runs on a 2-core machine shared with other test processes: CPU throttling multiplies
// whatever slowness the machine already has, and three runs of one page already spread by 50% (the
// venue page's TBT by 2×). A page that crosses them has really got slower (a heavier bundle, a
// request waterfall, a long task, a late layout shift), not unlucky.
// The CPU slowdown is calibrated before each load (Lighthouse's advice for hosts of another speed):
// a fixed piece of page work is timed unthrottled, and on a machine that runs it slower than the
// reference (busy with the other test processes, or slower cores) the throttling is lowered by as
// much, so the page runs as fast as the profile's phone would and the budgets mean the same thing
// (a CI machine at twice the reference's CPU time, under a load of 10, missed them with × 4).
// - LCP ≤ 4 s: Lighthouse's and Core Web Vitals' boundary of "poor" (2.5 s is "good").
// - TBT ≤ 600 ms: Lighthouse's boundary of "poor" on mobile (200 ms is "good").
// - CLS < 0.1: the "good" boundary itself; layout shifts do not depend on the machine's speed.
// - JavaScript ≤ 100 KB transferred on the first load of /: the budget (the server sends
//   it brotli-compressed; test/web/embed.test.ts checks the same scripts' gzipped size).

const NOW = new Date('2026-12-01T03:15:00Z')
const LCP_MS = 4000
const TBT_MS = 600
const CLS = 0.1
const FIRST_LOAD_JS = 100 * 1024
/** Cold loads of a page before it counts as over its budgets (loadsWithinBudgets). */
const LOADS = 5

describe('speed budgets on a throttled phone', () => {
  let server: WebServer
  let browser: Browser
  before(async () => {
    server = await startWebServer(new ManualClock(NOW))
    browser = await launchBrowser()
  })
  after(async () => {
    await browser?.close()
    await server?.close()
  })

  function withinBudgets(v: Vitals, what: string) {
    const shown = `${what}: ${JSON.stringify(v)}`
    assert.ok(v.fcp > 0 && v.fcp <= v.lcp, `the first paint comes before the largest: ${shown}`)
    assert.ok(v.lcp <= LCP_MS, `LCP within ${LCP_MS} ms: ${shown}`)
    assert.ok(v.tbt <= TBT_MS, `TBT within ${TBT_MS} ms: ${shown}`)
    assert.ok(v.cls < CLS, `CLS under ${CLS}: ${shown}`)
  }

  /**
   * The page measured until one cold load is within the budgets, at most LOADS times: a page that
   * got slower misses them every time, while a load that only met a busy moment of the shared
   * machine (another process's burst multiplied by the CPU throttling) is measured again. Every
   * load's figures are in the failure.
   */
  async function loadsWithinBudgets(what: string, load: (cpuSlowdown: number) => Promise<Vitals>): Promise<Vitals> {
    const misses: string[] = []
    for (let i = 0; i < LOADS; i++) {
      const workMs = await pageWorkMs(browser)
      const cpuSlowdown = calibratedSlowdown(workMs)
      const v = await load(cpuSlowdown)
      try {
        withinBudgets(v, what)
        return v
      } catch (err) {
        misses.push(`${(err as Error).message} (page work ${Math.round(workMs)} ms: CPU × ${cpuSlowdown.toFixed(2)})`)
      }
    }
    assert.fail(`${LOADS} loads missed the budgets:\n${misses.join('\n')}`)
  }

  test('the first load of / is within the budgets and fetches at most 100 KB of JavaScript', async () => {
    const v = await loadsWithinBudgets('/', (cpuSlowdown) =>
      measure(browser, server, '/', { now: NOW, ready: 'ul.venues li', cpuSlowdown }),
    )
    assert.ok(v.jsBytes > 0 && v.jsBytes <= FIRST_LOAD_JS, `${(v.jsBytes / 1024).toFixed(1)} KB of JavaScript`)
    // Sent compressed (the build writes .br and .gz next to every script).
    assert.ok(
      v.jsEncodings.every((e) => e === 'br' || e === 'gzip'),
      v.jsEncodings.join(),
    )
    // The throttling held: a 150 ms round trip for the page and one for its script come before any paint.
    assert.ok(v.fcp >= 2 * MOBILE_PROFILE.latencyMs, `FCP ${v.fcp} ms on a ${MOBILE_PROFILE.latencyMs} ms network`)
  })

  test('a venue page with its availability grid is within the budgets', async () => {
    await loadsWithinBudgets('/v/baneshwor-futsal-arena', (cpuSlowdown) =>
      measure(browser, server, '/v/baneshwor-futsal-arena', { now: NOW, ready: 'button.slot', cpuSlowdown }),
    )
  })

  test('My bookings, signed in, is within the budgets', async () => {
    await loadsWithinBudgets('/bookings', (cpuSlowdown) =>
      measure(browser, server, '/bookings', {
        now: NOW,
        cpuSlowdown,
        ready: 'fieldset.tabs',
        signedInAs: 'customer@courtside.test',
      }),
    )
  })
})
