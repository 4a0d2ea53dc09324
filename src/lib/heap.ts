import { setFlagsFromString } from 'node:v8'

// Garbage collector settings for a long-running server, applied at start-up (src/main.ts). Measured
// under the bench's loads (docs/performance.md "Memory"):
//
// - Allocation-site pretenuring off. V8 watches which allocation sites' objects survive young
//   collections and, once a site looks long-lived, allocates its objects straight into the old
//   generation. While the read cache fills at start-up most answers do survive, so on about two
//   starts out of three V8 pretenured per-request objects for good: the old generation then filled
//   with garbage (3 MB every ~50 ms), young collections cost three times as much, full collections
//   ran every few seconds, and the instance sat at 260-280 MB resident serving 10-15 % fewer
//   requests. Without it every start behaves like the good ones (~195 MB).
// - The old generation's growing factor (HEAP_GROWTH_PERCENT, default 100, i.e. 2). V8's own
//   factor rises to 4 on a host with plenty of memory, so a busy instance with ~75 MB live sat at
//   290-430 MB resident, most of it garbage not yet collected. Capping the heap with
//   --max-old-space-size instead also shrinks the young generation and cost a third of the requests.
//
// Both flags are read by V8 at each collection, so setting them once the process runs applies them
// from the next one.

/** Applies the settings above; `growthPercent` 0 leaves V8's own growing factor. */
export function tuneGarbageCollector(growthPercent: number): void {
  setFlagsFromString('--no-allocation-site-pretenuring')
  if (growthPercent > 0) setFlagsFromString(`--heap-growing-percent=${Math.trunc(growthPercent)}`)
}
