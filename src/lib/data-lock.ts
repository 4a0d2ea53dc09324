import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs'
import { dirname } from 'node:path'
import { ConfigError } from '../config.ts'

// The embedded database directory belongs to one process. PGlite has no locking of its own: a
// second process (`npm run seed` while `npm start` runs) opens the same files, each keeps its own
// view in memory, ids collide, and whichever writes last wins. A lock file beside the directory
// holds the owner's pid (with its start time and boot); a lock whose process is gone (killed,
// crashed, a zombie not yet reaped, its pid since reused) is stale and taken over at once.

interface Owner {
  pid: number
  command: string
  since: string
  /** The owner's start time in clock ticks since boot (/proc/<pid>/stat field 22), where known. */
  start?: string
  /** The boot the owner ran in (/proc/sys/kernel/random/boot_id), where known. */
  boot?: string
}

/** The state letter and start time of a process from /proc (Linux); null elsewhere or when gone. */
function procStat(pid: number): { state: string; start: string } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // "pid (comm) state ppid …": comm may hold spaces and parentheses, so read after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return { state: fields[0], start: fields[19] }
  } catch {
    return null
  }
}

function bootId(): string | undefined {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || undefined
  } catch {
    return undefined
  }
}

/**
 * Whether the lock's owner still runs. Gone: no such process; a zombie (killed, not yet reaped by
 * its parent: it runs no code and holds no files, though `kill(pid, 0)` still finds it); another
 * process that got the same pid since (its start time differs; after a reboot or in a new container
 * pids repeat); a lock written in an earlier boot.
 */
function alive(owner: Owner): boolean {
  if (owner.boot && owner.boot !== bootId()) return false
  try {
    process.kill(owner.pid, 0)
  } catch (err) {
    // EPERM: the process exists but belongs to another user.
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false
  }
  const stat = procStat(owner.pid)
  if (!stat) return true
  if (stat.state === 'Z' || stat.state === 'X' || stat.state === 'x') return false
  return owner.start === undefined || owner.start === stat.start
}

function readOwner(path: string): Owner | null {
  try {
    const owner = JSON.parse(readFileSync(path, 'utf8')) as Owner
    return Number.isSafeInteger(owner.pid) && owner.pid > 0 ? owner : null
  } catch {
    return null
  }
}

/** Takes the lock of `dir` for this process; throws a ConfigError naming the owner if it is held. Returns the release. */
export function lockDataDir(dir: string): () => void {
  const path = `${dir}.lock`
  mkdirSync(dirname(path), { recursive: true })
  const mine: Owner = {
    pid: process.pid,
    command: process.argv.slice(1).join(' '),
    since: new Date().toISOString(),
    start: procStat(process.pid)?.start,
    boot: bootId(),
  }
  for (let attempt = 0; attempt < 3; attempt++) {
    let fd: number
    try {
      fd = openSync(path, 'wx')
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
      const owner = readOwner(path)
      if (owner && owner.pid !== process.pid && alive(owner)) {
        throw new ConfigError(
          `the embedded database in ${dir} is in use by another process (pid ${owner.pid}: ${owner.command}, ` +
            `since ${owner.since}). Stop it first, or use another DATA_DIR.`,
        )
      }
      // Stale (its process is gone) or half-written by a process that died at once: take it over.
      try {
        unlinkSync(path)
      } catch {}
      continue
    }
    writeSync(fd, JSON.stringify(mine))
    closeSync(fd)
    const release = () => {
      process.off('exit', release)
      if (readOwner(path)?.pid === process.pid) {
        try {
          unlinkSync(path)
        } catch {}
      }
    }
    // An exit without close() (an uncaught error) still frees it; a kill -9 leaves it stale.
    process.on('exit', release)
    return release
  }
  throw new ConfigError(`could not take the lock file ${path}; remove it if no Courtside process is running`)
}
