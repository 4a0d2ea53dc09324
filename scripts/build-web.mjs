#!/usr/bin/env node
// Builds the customer web app (web/) into dist/web with Vite, then writes a .br and a .gz next to
// every text asset so the server sends them precompressed. Prints the gzipped JavaScript of the
// first load of / (the scripts index.html loads, with their static imports) and fails when it is
// over the budget of 100 KB (docs/web.md).
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import { build } from 'vite'

export const BUDGET_KB = 100

const root = new URL('..', import.meta.url).pathname
const out = join(root, 'dist/web')
await build({ configFile: join(root, 'web/vite.config.ts'), logLevel: process.env.CI ? 'warn' : 'info' })

const gzipped = new Map()
for (const file of walk(out)) {
  if (!/\.(js|css|html|svg|json|webmanifest|txt)$/.test(file)) continue
  const data = readFileSync(file)
  const gz = gzipSync(data, { level: 9 })
  writeFileSync(`${file}.gz`, gz)
  writeFileSync(`${file}.br`, brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }))
  gzipped.set(file, gz.length)
}

// The first load: the module scripts and modulepreloads index.html names (Vite lists every static
// import of the entry as a modulepreload), not the chunks loaded later by import().
const html = readFileSync(join(out, 'index.html'), 'utf8')
const first = new Set(
  [...html.matchAll(/<(?:script[^>]*src|link[^>]*rel="modulepreload"[^>]*href)="\/([^"]+\.js)"/g)].map((m) => m[1]),
)
let firstGzip = 0
for (const path of first) firstGzip += gzipped.get(join(out, path)) ?? 0
let allGzip = 0
for (const [file, size] of gzipped) if (file.endsWith('.js')) allGzip += size
const kb = (n) => (n / 1024).toFixed(1)
writeFileSync(join(out, 'budget.json'), `${JSON.stringify({ firstLoadJsGzip: firstGzip, allJsGzip: allGzip })}\n`)
console.log(
  `web: first load of / ${kb(firstGzip)} KB of JavaScript gzipped (budget ${BUDGET_KB} KB); all chunks ${kb(allGzip)} KB`,
)
if (firstGzip > BUDGET_KB * 1024) {
  console.error(`web: the first load is over the budget of ${BUDGET_KB} KB gzipped`)
  process.exit(1)
}

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name)
    return statSync(full).isDirectory() ? walk(full) : [full]
  })
}
