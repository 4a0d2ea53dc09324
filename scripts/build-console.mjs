#!/usr/bin/env node
// Builds the staff console (console/) into dist/console with Vite, then writes a .br and a .gz next
// to every text asset so the server sends them precompressed. Prints the gzipped JavaScript of the
// first load (what index.html loads; the budget is 150 KB, docs/console.md, and the build fails over
// it) and of each chunk loaded later by import().
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import { build } from 'vite'

const root = new URL('..', import.meta.url).pathname
const out = join(root, 'dist/console')
await build({ configFile: join(root, 'console/vite.config.ts'), logLevel: process.env.CI ? 'warn' : 'info' })

export const BUDGET_KB = 150

const gzipped = new Map()
for (const file of walk(out)) {
  if (!/\.(js|css|html|svg|json)$/.test(file)) continue
  const data = readFileSync(file)
  const gz = gzipSync(data, { level: 9 })
  writeFileSync(`${file}.gz`, gz)
  writeFileSync(`${file}.br`, brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }))
  if (file.endsWith('.js')) gzipped.set(file, gz.length)
}

// The first load: the module scripts and modulepreloads index.html names (Vite lists every static
// import of the entry as a modulepreload); chunks loaded later by import() (the Reports page's
// chart) are listed apart.
const html = readFileSync(join(out, 'index.html'), 'utf8')
const first = new Set(
  [...html.matchAll(/<(?:script[^>]*src|link[^>]*rel="modulepreload"[^>]*href)="\/console\/([^"]+\.js)"/g)].map((m) =>
    join(out, m[1]),
  ),
)
const kb = (n) => (n / 1024).toFixed(1)
let firstGzip = 0
const lazy = []
for (const [file, size] of gzipped) {
  if (first.has(file)) firstGzip += size
  else
    lazy.push(
      `${file
        .split('/')
        .pop()
        .replace(/-[\w-]{8}\.js$/, '')} ${kb(size)} KB`,
    )
}
let allGzip = 0
for (const size of gzipped.values()) allGzip += size
writeFileSync(join(out, 'budget.json'), `${JSON.stringify({ firstLoadJsGzip: firstGzip, allJsGzip: allGzip })}\n`)
console.log(
  `console: first load ${kb(firstGzip)} KB of JavaScript gzipped (budget ${BUDGET_KB} KB); ` +
    `loaded later: ${lazy.join(', ') || 'nothing'}; all ${kb(allGzip)} KB gzipped`,
)
if (firstGzip > BUDGET_KB * 1024) {
  console.error(`console: the first load is over the budget of ${BUDGET_KB} KB gzipped`)
  process.exit(1)
}

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name)
    return statSync(full).isDirectory() ? walk(full) : [full]
  })
}
