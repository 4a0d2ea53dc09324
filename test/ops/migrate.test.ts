import assert from 'node:assert/strict'
import { readdirSync } from 'node:fs'
import { test } from 'node:test'
import { processDatabase, runCli, startServer } from './process.ts'

// `npm run migrate -- status`, and a server that refuses a database a newer version migrated.

// Every migration this build ships; the last one is taken back to make it pending.
const shipped = readdirSync(new URL('../../migrations/', import.meta.url))
  .filter((f) => f.endsWith('.sql'))
  .sort()
const last = shipped[shipped.length - 1]
const n = shipped.length

test('migrate status lists applied and pending migrations and changes nothing', async (t) => {
  const db = await processDatabase()
  t.after(() => db.drop())
  let run = await runCli(['src/cli/migrate.ts', 'status'], db.env)
  assert.equal(run.code, 0, run.stderr)
  assert.match(run.stdout, /^applied {2}001_init\.sql {2}\d{4}-\d\d-\d\dT/m)
  assert.match(run.stdout, new RegExp(`^applied {2}${last.replace('.', '\\.')}`, 'm'))
  assert.match(run.stdout, new RegExp(`^${n} applied, 0 pending$`, 'm'))

  await db.query(`DELETE FROM schema_migrations WHERE name = '${last}'`)
  run = await runCli(['src/cli/migrate.ts', 'status'], db.env)
  assert.equal(run.code, 0, run.stderr)
  assert.match(run.stdout, new RegExp(`^pending {2}${last.replace('.', '\\.')}$`, 'm'))
  assert.match(run.stdout, new RegExp(`^${n - 1} applied, 1 pending$`, 'm'))
  const rows = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM schema_migrations')
  assert.equal(rows[0].n, n - 1, 'status applies nothing')

  const bad = await runCli(['src/cli/migrate.ts', 'sideways'], db.env)
  assert.equal(bad.code, 2)
  assert.match(bad.stderr, /unknown command "sideways"/)
})

test('a database with a migration this build does not know: status says so, migrate and the server refuse', async (t) => {
  const db = await processDatabase()
  t.after(() => db.drop())
  await db.query(`INSERT INTO schema_migrations (name) VALUES ('900_newer_version.sql')`)

  const status = await runCli(['src/cli/migrate.ts', 'status'], db.env)
  assert.equal(status.code, 1)
  assert.match(status.stdout, /^unknown {2}900_newer_version\.sql/m)
  assert.match(status.stdout, /1 unknown to this build \(a newer version ran here\)/)

  const up = await runCli(['src/cli/migrate.ts'], db.env)
  assert.equal(up.code, 1)
  assert.match(up.stderr, /refusing to migrate: .*900_newer_version\.sql/)

  await assert.rejects(startServer(db.env), (err: Error) => {
    assert.match(err.message, /server exited with 1/)
    assert.match(err.message, /Refusing to start: the database has migrations this build does not know/)
    assert.match(err.message, /900_newer_version\.sql/)
    return true
  })
})
