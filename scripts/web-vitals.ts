// npm run web:vitals [-- --runs N] [-- --profile mobile|devtools]: Lighthouse-style numbers of the customer web app, measured in
// Debian's Chromium through playwright-core and the DevTools protocol (Lighthouse cannot be
// installed here). Starts the real server on a fresh embedded database with the demo data (as the
// browser tests do, test/web/browser.ts), loads each page N times (3 by default) in a fresh phone
// context (390 × 844, cold cache) throttled like Lighthouse's mobile profile, and prints a markdown
// table of the medians with the spread (min–max): first and largest contentful paint, total
// blocking time, cumulative layout shift, the load event and the JavaScript transferred.
// `--profile mobile` (the default) applies Lighthouse's mobile numbers as they are (150 ms round
// trips); `--profile devtools` applies them as Lighthouse does when it throttles through DevTools
// (562.5 ms round trips, 1.44 Mbps down), a harsher network (test/web/vitals.ts).
// docs/web.md, "Measured speed", keeps the last table.
import { availableParallelism, cpus } from 'node:os'
import { parseArgs } from 'node:util'
import { launchBrowser, startWebServer } from '../test/web/browser.ts'
import {
  LIGHTHOUSE_DEVTOOLS_PROFILE,
  MOBILE_PROFILE,
  measure,
  median,
  SETTLE_MS,
  type Vitals,
} from '../test/web/vitals.ts'

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '3' }, profile: { type: 'string', default: 'mobile' } },
})
const runs = Number(values.runs)
if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a positive whole number, not ${values.runs}`)
const PROFILES = { mobile: MOBILE_PROFILE, devtools: LIGHTHOUSE_DEVTOOLS_PROFILE }
if (!(values.profile in PROFILES)) throw new Error(`--profile is mobile or devtools, not ${values.profile}`)
const profile = PROFILES[values.profile as keyof typeof PROFILES]

const PAGES = [
  { name: 'Find (`/`)', path: '/', ready: 'ul.venues li' },
  { name: 'A venue (`/v/baneshwor-futsal-arena`)', path: '/v/baneshwor-futsal-arena', ready: 'button.slot' },
  {
    name: 'My bookings (`/bookings`, signed in)',
    path: '/bookings',
    ready: 'fieldset.tabs',
    signedInAs: 'customer@courtside.test',
  },
]

const server = await startWebServer()
const browser = await launchBrowser()
const results = new Map<string, Vitals[]>()
try {
  for (const page of PAGES) {
    const list: Vitals[] = []
    for (let i = 0; i < runs; i++) {
      const v = await measure(browser, server, page.path, {
        profile,
        ready: page.ready,
        signedInAs: page.signedInAs,
      })
      console.error(
        `${page.path} run ${i + 1}: FCP ${ms(v.fcp)}, LCP ${ms(v.lcp)}, TBT ${ms(v.tbt)}, CLS ${v.cls.toFixed(3)}, ` +
          `JS ${kb(v.jsBytes)} (${v.jsEncodings.join(', ')})`,
      )
      list.push(v)
    }
    results.set(page.name, list)
  }
} finally {
  await browser.close()
  await server.close()
}

const p = profile
console.log(
  `Chromium ${browser.version()}, ${availableParallelism()} cores (${cpus()[0]?.model.trim() ?? 'unknown CPU'}); ` +
    `390 × 844, cold cache; network ${p.latencyMs} ms RTT, ${(p.downloadKbps / 1024).toFixed(2)} Mbps down, ` +
    `${p.uploadKbps} Kbps up; CPU × ${p.cpuSlowdown}; median of ${runs} run${runs === 1 ? '' : 's'} (min–max); ` +
    `TBT and CLS over the load and ${SETTLE_MS / 1000} s after the network went quiet.\n`,
)
console.log('| Page | FCP | LCP | TBT | CLS | Load event | JS transferred |')
console.log('|---|---|---|---|---|---|---|')
for (const [name, list] of results) {
  const cell = (pick: (v: Vitals) => number, show: (n: number) => string) => {
    const all = list.map(pick)
    const [lo, hi] = [Math.min(...all), Math.max(...all)]
    return list.length > 1 ? `${show(median(all))} (${show(lo)}–${show(hi)})` : show(all[0])
  }
  console.log(
    `| ${name} | ${cell((v) => v.fcp, ms)} | ${cell((v) => v.lcp, ms)} | ${cell((v) => v.tbt, ms)} | ` +
      `${cell(
        (v) => v.cls,
        (n) => n.toFixed(3),
      )} | ${cell((v) => v.load, ms)} | ${cell((v) => v.jsBytes, kb)} |`,
  )
}

function ms(n: number) {
  return Number.isNaN(n) ? 'n/a' : `${Math.round(n)} ms`
}

function kb(n: number) {
  return `${(n / 1024).toFixed(1)} KB`
}
