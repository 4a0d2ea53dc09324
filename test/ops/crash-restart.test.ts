import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { lockDataDir } from '../../src/lib/data-lock.ts'
import { nodeArgs } from '../helpers/entry.ts'
import { freePort, processDatabase, SERVER_START_MS, startServer } from './process.ts'

// Restart after a crash (issue 32): after `kill -9` of a server on the embedded database, a restart
// one second later was refused ("in use by another process (pid …)") although that process was
// gone: killed but not yet reaped by its parent, it still answered kill(pid, 0). A lock whose process
// is gone (a zombie, a dead pid, a pid since reused) is stale and the restart takes it at once.

const embedded = !process.env.TEST_DATABASE_URL
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms))

function stateOf(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0]
  } catch {
    return null
  }
}

async function healthy(port: number, timeoutMs = SERVER_START_MS) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const up = await fetch(`http://127.0.0.1:${port}/health`).then(
      (r) => r.ok,
      () => false,
    )
    if (up) return
    await pause(100)
  }
  throw new Error('server did not start in time')
}

test('kill -9 of the server, restart one second later: it starts at once', { skip: !embedded }, async (t) => {
  const db = await processDatabase()
  t.after(() => db.drop())
  const first = await startServer({ ...db.env, JOBS_ENABLED: 'true' })
  const lock = JSON.parse(readFileSync(join(db.env.DATA_DIR, 'pglite.lock'), 'utf8'))
  assert.equal(lock.pid, first.child.pid)
  first.child.kill('SIGKILL')
  await first.exited
  await pause(1000)
  const second = await startServer(db.env)
  const res = await fetch(`http://127.0.0.1:${second.port}/api/venues`)
  assert.equal(res.status, 200)
  second.child.kill('SIGTERM')
  assert.equal((await second.exited).code, 0)
})

test('kill -9 of a server its supervisor has not reaped yet (a zombie): the restart takes the lock', {
  skip: !embedded,
}, async (t) => {
  const db = await processDatabase()
  t.after(() => db.drop())
  const port = await freePort()
  const { TEST_DATABASE_URL: _, DATABASE_URL: __, ...inherited } = process.env
  // The server's parent becomes `sleep`, which never waits for its children: a supervisor busy
  // elsewhere, or a container's first process that does not reap.
  const supervisor = spawn(
    'sh',
    ['-c', `"${process.execPath}" ${nodeArgs('src/server.ts').join(' ')} & echo "server $!"; exec sleep 600`],
    {
      env: {
        ...inherited,
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        RATE_LIMIT_ENABLED: 'false',
        CACHE_TTL_MS: '0',
        ARGON2_MEMORY_KIB: '1024',
        HOST: '127.0.0.1',
        PORT: String(port),
        JOBS_ENABLED: 'true',
        ...db.env,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  )
  let out = ''
  supervisor.stdout?.on('data', (d) => {
    out += d
  })
  const serverPid = () => Number(/server (\d+)/.exec(out)?.[1])
  // Whatever happens below, neither process outlives the test: the server, a child of `sleep`, would
  // otherwise keep running (and keep this process's stdout pipe open, so its test file never ends).
  t.after(() => {
    supervisor.stdout?.destroy()
    supervisor.kill('SIGKILL')
    const pid = serverPid()
    if (pid > 0 && stateOf(pid) !== null && stateOf(pid) !== 'Z') process.kill(pid, 'SIGKILL')
  })
  await healthy(port)
  const pid = serverPid()
  assert.ok(pid > 0, out)
  assert.equal(JSON.parse(readFileSync(join(db.env.DATA_DIR, 'pglite.lock'), 'utf8')).pid, pid)

  process.kill(pid, 'SIGKILL')
  for (let i = 0; i < 50 && stateOf(pid) !== 'Z'; i++) await pause(20)
  assert.equal(stateOf(pid), 'Z', 'the killed server is a zombie: gone, but its pid still answers')
  await pause(1000)

  const restarted = await startServer(db.env)
  const res = await fetch(`http://127.0.0.1:${restarted.port}/api/venues`)
  assert.equal(res.status, 200)
  restarted.child.kill('SIGTERM')
  assert.equal((await restarted.exited).code, 0)
})

test('a lock naming a live process that started after it (a reused pid) is stale; the real owner keeps it', () => {
  const dir = `.tmp/lock-reuse-${process.pid}/pglite`
  const mine = lockDataDir(dir)
  const written = JSON.parse(readFileSync(`${dir}.lock`, 'utf8'))
  mine()
  assert.ok(written.start, 'the lock records its process start time')
  // Our parent is alive, but the lock says its owner started at another time: not the owner.
  writeFileSync(
    `${dir}.lock`,
    JSON.stringify({ pid: process.ppid, command: 'old', since: '2026-01-01T00:00:00Z', start: '1' }),
  )
  const release = lockDataDir(dir)
  assert.equal(JSON.parse(readFileSync(`${dir}.lock`, 'utf8')).pid, process.pid)
  release()
  // A lock from another boot is stale too.
  writeFileSync(
    `${dir}.lock`,
    JSON.stringify({ pid: process.ppid, command: 'old', since: '2026-01-01T00:00:00Z', boot: 'another-boot' }),
  )
  lockDataDir(dir)()
  // The parent's real start time: it owns the lock, which is refused.
  const stat = readFileSync(`/proc/${process.ppid}/stat`, 'utf8')
  const start = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]
  writeFileSync(
    `${dir}.lock`,
    JSON.stringify({ pid: process.ppid, command: 'owner', since: '2026-01-01T00:00:00Z', start }),
  )
  assert.throws(() => lockDataDir(dir), /in use by another process \(pid \d+: owner/)
})
