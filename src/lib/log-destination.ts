import { type DestinationStream, pino } from 'pino'
import type { Config } from '../config.ts'

/**
 * Where the app's log lines go: standard output, written in batches of LOG_BUFFER_BYTES (production's
 * default 4096) or at least every second, instead of one write per line, and written by the main
 * thread itself (a synchronous write of a whole batch), as Node writes `process.stdout` to a pipe on
 * Linux. pino's default (a write per line, each through libuv's thread pool) cost about 3–5 µs more
 * per request on the framework floor, and batches handed to the thread pool no less
 * (docs/performance.md, "The floor piece by piece"). The batch is written out at exit, a crash Node
 * sees included; only a `kill -9` loses the last second's lines. Like any synchronous write to
 * stdout, a reader that stops reading stalls the process once the pipe is full.
 * Undefined with LOG_BUFFER_BYTES=0 (development's default): pino's own destination, a line at once.
 */
export function logDestination(config: Pick<Config, 'logBufferBytes'>): DestinationStream | undefined {
  if (config.logBufferBytes <= 0) return undefined
  const stream = pino.destination({ dest: 1, minLength: config.logBufferBytes, periodicFlush: 1000, sync: true })
  process.once('exit', () => {
    try {
      stream.flushSync()
    } catch {
      // Standard output already closed: nothing left to write to.
    }
  })
  return stream
}
