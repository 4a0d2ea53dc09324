#!/usr/bin/env node
// Compares two whole runs' per-file durations (scripts/test-reporter.mjs writes them):
//   node scripts/compare-durations.mjs scripts/test-durations.json .tmp/test-durations-pglite.json [top]
// prints the sum over every file both runs have and the `top` (default 20) slowest files of the first
// run, each with both durations and the change. Wall time per file depends on what else the machine
// runs: compare runs made on the same quiet machine, and read the CPU time of the whole run
// (`/usr/bin/time -v npm test`: user + system, every child process included) beside it.
import { readFileSync } from 'node:fs'

const [beforeFile, afterFile, top = '20'] = process.argv.slice(2)
if (!beforeFile || !afterFile) {
  console.error('usage: node scripts/compare-durations.mjs <before.json> <after.json> [top]')
  process.exit(2)
}
const before = JSON.parse(readFileSync(beforeFile, 'utf8'))
const after = JSON.parse(readFileSync(afterFile, 'utf8'))
const both = Object.keys(before).filter((f) => f in after)
const s = (ms) => `${(ms / 1000).toFixed(1)} s`
const change = (a, b) => `${b < a ? '−' : '+'}${Math.abs(Math.round((100 * (b - a)) / a))}%`
const sum = (d) => both.reduce((n, f) => n + d[f], 0)

console.log(`| file | before | after | change |\n|---|---:|---:|---:|`)
for (const f of both.sort((a, b) => before[b] - before[a]).slice(0, Number(top))) {
  console.log(`| ${f} | ${s(before[f])} | ${s(after[f])} | ${change(before[f], after[f])} |`)
}
console.log(
  `| sum of ${both.length} files | ${s(sum(before))} | ${s(sum(after))} | ${change(sum(before), sum(after))} |`,
)
