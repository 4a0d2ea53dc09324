import { type DestinationStream, pino } from 'pino'
import type { Config } from '../config.ts'

/** The one batched destination of the process: every app built in it shares it (and its exit flush). */
let shared: { bytes: number; stream: ReturnType<typeof pino.destination> } | undefined

/**
 * Where the app's log lines go. By default (LOG_BUFFER_BYTES=0) pino's own destination: standard
 * output, a write per line through libuv's thread pool, never blocking the process.
 *
 * With LOG_BUFFER_BYTES > 0 (opt-in): lines are written in batches of that many bytes, every second
 * and at exit, by the main thread itself (a synchronous write of the batch). On the framework floor
 * that measured 3–5 µs per request less than pino's default (docs/performance.md, "The floor piece by piece"), at
 * two costs: once Node has made standard output non-blocking (it does when anything touches
 * `process.stdout`), a full pipe makes the write retry after a 100 ms sleep of the main thread, so a
 * log reader that falls behind stalls every request; and a death that emits no 'exit' (out of
 * memory, `kill -9`, an unhandled signal) loses the last second's lines. Use it where stdout is
 * read by something that keeps up (a file, journald), not a collector that may pause.
 */
export function logDestination(config: Pick<Config, 'logBufferBytes'>): DestinationStream | undefined {
  const bytes = config.logBufferBytes
  if (bytes <= 0) return undefined
  if (shared?.bytes === bytes) return shared.stream
  const stream = pino.destination({ dest: 1, minLength: bytes, periodicFlush: 1000, sync: true })
  if (shared === undefined) {
    process.once('exit', () => {
      try {
        shared?.stream.flushSync()
      } catch {
        // Standard output already closed: nothing left to write to.
      }
    })
  }
  shared = { bytes, stream }
  return stream
}
