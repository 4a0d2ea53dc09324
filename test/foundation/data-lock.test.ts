import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, test } from 'node:test'
import { lockDataDir } from '../../src/lib/data-lock.ts'
import { copyMigratedDataDir } from '../ops/process.ts'
import { exited, run, start, waitFor } from './helpers.ts'

// The embedded database directory is owned by one process: `npm run seed` (or migrate) next to a
// running server on the same DATA_DIR is refused, and a lock left by a dead process is taken over.

const dataDir = `.tmp/lock-${process.pid}`
after(() => rmSync(dataDir, { recursive: true, force: true }))

test('seed and migrate refuse while the server owns DATA_DIR; a clean stop releases it', async () => {
  // A migrated database already there (under npm test): the server need not create and migrate one.
  await copyMigratedDataDir(dataDir)
  const server = start('src/server.ts', { DATA_DIR: dataDir })
  try {
    await waitFor(server, /Server listening/)
    const lock = JSON.parse(readFileSync(join(dataDir, 'pglite.lock'), 'utf8'))
    assert.equal(lock.pid, server.pid)
    for (const cli of ['src/cli/seed.ts', 'src/cli/migrate.ts']) {
      const res = await run(cli, { DATA_DIR: dataDir })
      assert.equal(res.code, 1, cli)
      const lines = res.stderr.trim().split('\n')
      assert.equal(lines.length, 1, res.stderr)
      assert.match(lines[0], new RegExp(`is in use by another process \\(pid ${server.pid}`))
    }
  } finally {
    server.kill('SIGTERM')
    await exited(server)
  }
  assert.equal(existsSync(join(dataDir, 'pglite.lock')), false, 'a clean stop releases the lock')
})

test('a lock left by a dead process is taken over; one held by a live process is not', () => {
  const dir = join(dataDir, 'stale')
  mkdirSync(dataDir, { recursive: true })
  const dead = spawnSync(process.execPath, ['-e', 'process.pid'])
  assert.equal(dead.status, 0)
  writeFileSync(`${dir}.lock`, JSON.stringify({ pid: dead.pid, command: 'killed', since: '2026-01-01T00:00:00Z' }))
  const release = lockDataDir(dir)
  assert.equal(JSON.parse(readFileSync(`${dir}.lock`, 'utf8')).pid, process.pid)
  release()
  assert.equal(existsSync(`${dir}.lock`), false)

  // The parent of this test process is alive and is not us.
  writeFileSync(`${dir}.lock`, JSON.stringify({ pid: process.ppid, command: 'other', since: '2026-01-01T00:00:00Z' }))
  assert.throws(() => lockDataDir(dir), /in use by another process \(pid \d+: other/)
  assert.equal(JSON.parse(readFileSync(`${dir}.lock`, 'utf8')).pid, process.ppid, 'the owner’s lock is kept')
})
