#!/usr/bin/env node
// npm test: prepares one migrated database template, then runs the test files with node's test
// runner, TEST_CONCURRENCY processes at a time. Every file builds its app on a fresh copy of the
// template. TEST_DATABASE_URL selects the PostgreSQL server; otherwise the embedded PGlite database
// is used.
//
// Starting a process costs a test file ~3 s of CPU (tsx, loading the app's modules, the first
// PGlite and app build before the JIT is warm): most of what a whole run spent. So the files run
// in a few processes each, one file after another, each file a suite named by its path (its
// before/after hooks belong to it, and it closes its app before the next file starts). The files
// in OWN_PROCESS still get a process each; TEST_ISOLATE=1 gives every file its own (to rule out
// one file disturbing another). The processes are balanced by the durations of the last run
// (.tmp/test-durations-<database>.json, written by scripts/test-reporter.mjs), longest first. A fresh
// clone (CI) has no last run: scripts/test-durations.json, a whole run's durations kept in the
// repository, stands in for it (and for any file the last run did not include), so the slow files
// (browser pages, first start, spawned servers) start first and are spread over the processes
// instead of falling wherever the alphabet puts them. To refresh it, copy
// .tmp/test-durations-pglite.json over it after a whole `npm test`.
import { spawnSync } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { compileSources } from './test-js.mjs'

const root = new URL('..', import.meta.url).pathname
const args = process.argv.slice(2)
// Files and directories named on the command line (`npm test -- test/payments`), else every test file.
const files = (args.length ? args.map((f) => resolve(f)) : [join(root, 'test')])
  .flatMap((f) => (statSync(f, { throwIfNoEntry: false })?.isDirectory() ? findTests(f) : [f]))
  .map((f) => relative(root, f))

/** Files that must not share their process: they measure it, or read state it keeps. */
const OWN_PROCESS = new Set([
  'test/foundation/upload-memory.test.ts', // the process's resident size while uploads stream
  'test/foundation/sql-snapshot.test.ts', // every reused statement the process built so far
  'test/foundation/statements.test.ts', // how many statements the process built
])

function count(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`
}

function findTests(dir) {
  const out = []
  for (const name of readdirSync(dir)) {
    const full = join(dir, name)
    if (statSync(full).isDirectory()) out.push(...findTests(full))
    else if (name.endsWith('.test.ts')) out.push(full)
  }
  return out.sort()
}

// TEST_TEARDOWN: each process's module runs the files' teardowns after its last file (see `entries`).
const env = { ...process.env, NODE_ENV: 'test', TEST_TEARDOWN: '1' }
const prep = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'scripts/prepare-test-db.ts')], {
  env,
  stdio: ['ignore', 'pipe', 'inherit'],
  encoding: 'utf8',
})
if (prep.status !== 0) process.exit(prep.status ?? 1)
Object.assign(env, JSON.parse(prep.stdout.trim().split('\n').pop()))
// src/ as JavaScript, for the tests that start the server or a CLI as a process (test/helpers/entry.ts).
env.TEST_SRC_JS = await compileSources(root)
// Last run's durations, per database kind (scripts/test-reporter.mjs writes them).
env.TEST_DURATIONS_FILE = join(root, `.tmp/test-durations-${env.TEST_DATABASE_URL ? 'postgres' : 'pglite'}.json`)

const concurrency = Number(process.env.TEST_CONCURRENCY ?? '4')
const groups = plan(files)
console.log(
  `database: ${env.TEST_DATABASE_URL ? 'PostgreSQL server' : 'embedded PGlite'}; ${count(files.length, 'test file')} in ${count(groups.length, 'process', 'processes')}`,
)

// One small module per process: a suite per file, which imports the file.
const groupDir = join(root, `.tmp/test-groups-${process.pid}`)
mkdirSync(groupDir, { recursive: true })
const entries = groups.map((group, i) => {
  const entry = join(groupDir, `${String(i + 1).padStart(2, '0')}.test.mjs`)
  const lines = group.map(
    (f) => `describe(${JSON.stringify(f)}, () => import(${JSON.stringify(pathToFileURL(join(root, f)).href)}))`,
  )
  // After the last file: what the files left to the process (test/console/browser.ts: the shared Chromium).
  const teardown = `after(async () => { for (const fn of globalThis[Symbol.for('courtside.test.teardown')] ?? []) await fn() })`
  writeFileSync(entry, `import { after, describe } from 'node:test'\n${lines.join('\n')}\n${teardown}\n`)
  return entry
})

const run = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    '--test',
    `--test-concurrency=${concurrency}`,
    `--test-reporter=${join(root, 'scripts/test-reporter.mjs')}`,
    '--test-reporter-destination=stdout',
    ...entries,
  ],
  { env, stdio: 'inherit' },
)
rmSync(groupDir, { recursive: true, force: true })
rmSync(env.TEST_SRC_JS, { recursive: true, force: true })
mkdirSync(join(root, '.tmp'), { recursive: true })
writeFileSync(join(root, '.tmp/last-test-exit'), String(run.status))
// Drop this run's template.
if (env.TEST_PGLITE_DUMP) rmSync(env.TEST_PGLITE_DUMP, { force: true })
if (env.TEST_TEMPLATE_DB) {
  spawnSync('psql', [env.TEST_DATABASE_URL, '-qc', `DROP DATABASE IF EXISTS ${env.TEST_TEMPLATE_DB} WITH (FORCE)`], {
    stdio: 'ignore',
  })
}
process.exit(run.status ?? 1)

/**
 * The files' processes: about two per concurrent slot, so one that runs long can be made up for
 * by the others, filled longest file first into the least loaded (by last run's durations), and
 * returned longest first.
 */
function plan(all) {
  const read = (file) => {
    try {
      return JSON.parse(readFileSync(file, 'utf8'))
    } catch {
      return {}
    }
  }
  const known = { ...read(join(root, 'scripts/test-durations.json')), ...read(env.TEST_DURATIONS_FILE) }
  const seen = Object.values(known).sort((a, b) => a - b)
  const typical = seen.length ? seen[Math.floor(seen.length / 2)] : 5000
  const cost = (f) => known[f] ?? typical
  const alone = process.env.TEST_ISOLATE === '1' ? all : all.filter((f) => OWN_PROCESS.has(f))
  const shared = all.filter((f) => !alone.includes(f)).sort((a, b) => cost(b) - cost(a))
  const bins = Array.from({ length: Math.min(shared.length, concurrency * 2) }, () => ({ files: [], cost: 0 }))
  for (const f of shared) {
    const bin = bins.reduce((a, b) => (b.cost < a.cost ? b : a))
    bin.files.push(f)
    bin.cost += cost(f)
  }
  for (const f of alone) bins.push({ files: [f], cost: cost(f) })
  return bins.sort((a, b) => b.cost - a.cost).map((b) => b.files)
}
