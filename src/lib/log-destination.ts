import { type DestinationStream, pino } from 'pino'
import type { Config } from '../config.ts'

/**
 * Where the app's log lines go: standard output, written in batches of LOG_BUFFER_BYTES (production's
 * default 4096) or at least every second, instead of one write per line. With a line per request
 * the writes were the largest piece of the framework floor (docs/performance.md, "The floor"). The
 * buffer is written out on a normal exit and on a crash that Node sees (pino flushes it
 * synchronously); only a `kill -9` loses the last second's lines. Undefined with LOG_BUFFER_BYTES=0:
 * pino's default destination, a write per line.
 */
export function logDestination(config: Pick<Config, 'logBufferBytes'>): DestinationStream | undefined {
  if (config.logBufferBytes <= 0) return undefined
  return pino.destination({ dest: 1, minLength: config.logBufferBytes, periodicFlush: 1000, sync: false })
}
