import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs'
import { dirname } from 'node:path'
import { ConfigError } from '../config.ts'

// The embedded database directory belongs to one process. PGlite has no locking of its own: a
// second process (`npm run seed` while `npm start` runs) opens the same files, each keeps its own
// view in memory, ids collide, and whichever writes last wins. A lock file beside the directory
// holds the owner's pid; a lock whose process is gone (killed, crashed) is taken over.

interface Owner {
  pid: number
  command: string
  since: string
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    // EPERM: the process exists but belongs to another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
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
  const mine: Owner = { pid: process.pid, command: process.argv.slice(1).join(' '), since: new Date().toISOString() }
  for (let attempt = 0; attempt < 3; attempt++) {
    let fd: number
    try {
      fd = openSync(path, 'wx')
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
      const owner = readOwner(path)
      if (owner && owner.pid !== process.pid && alive(owner.pid)) {
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
