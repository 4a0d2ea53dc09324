#!/usr/bin/env node
// Builds the staff console (console/) into dist/console with Vite, then writes a .br and a .gz next
// to every text asset so the server sends them precompressed. Prints the compressed JavaScript size
// of the first load (the budget is 150 KB, docs/console.md).
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import { build } from 'vite'

const root = new URL('..', import.meta.url).pathname
const out = join(root, 'dist/console')
await build({ configFile: join(root, 'console/vite.config.ts'), logLevel: process.env.CI ? 'warn' : 'info' })

let js = 0
let jsGzip = 0
for (const file of walk(out)) {
  if (!/\.(js|css|html|svg|json)$/.test(file)) continue
  const data = readFileSync(file)
  const gz = gzipSync(data, { level: 9 })
  writeFileSync(`${file}.gz`, gz)
  writeFileSync(`${file}.br`, brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }))
  if (file.endsWith('.js')) {
    js += data.length
    jsGzip += gz.length
  }
}
console.log(`console: ${(js / 1024).toFixed(1)} KB of JavaScript, ${(jsGzip / 1024).toFixed(1)} KB gzipped`)

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name)
    return statSync(full).isDirectory() ? walk(full) : [full]
  })
}
