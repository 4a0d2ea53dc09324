#!/usr/bin/env node
// npm test: prepares one migrated database template, then runs every test file in parallel,
// each file on its own fresh copy. TEST_DATABASE_URL selects the PostgreSQL server; otherwise
// the embedded PGlite database is used.
import { spawnSync } from 'node:child_process'
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const root = new URL('..', import.meta.url).pathname
const args = process.argv.slice(2)
const files = args.length ? args : findTests(join(root, 'test'))

function findTests(dir) {
  const out = []
  for (const name of readdirSync(dir)) {
    const full = join(dir, name)
    if (statSync(full).isDirectory()) out.push(...findTests(full))
    else if (name.endsWith('.test.ts')) out.push(full)
  }
  return out.sort()
}

const env = { ...process.env, NODE_ENV: 'test' }
const prep = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'scripts/prepare-test-db.ts')], {
  env,
  stdio: ['ignore', 'pipe', 'inherit'],
  encoding: 'utf8',
})
if (prep.status !== 0) process.exit(prep.status ?? 1)
Object.assign(env, JSON.parse(prep.stdout.trim().split('\n').pop()))
console.log(`database: ${env.TEST_DATABASE_URL ? 'PostgreSQL server' : 'embedded PGlite'}; ${files.length} test files`)

const concurrency = process.env.TEST_CONCURRENCY ?? '3'
const run = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', ...files],
  { env, stdio: 'inherit' },
)
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
