import { setFlagsFromString } from 'node:v8'

// Garbage collector settings for a long-running server, applied at start-up (src/main.ts). Measured
// under the bench's loads (docs/performance.md "Memory"):
//
// - Allocation-site pretenuring off. V8 watches which allocation sites' objects survive young
//   collections and, once a site looks long-lived, allocates its objects straight into the old
//   generation. While the read cache fills at start-up most answers do survive, so on about two
//   starts out of three V8 pretenured per-request objects for good: the old generation then filled
//   with garbage (3 MB every ~50 ms), young collections cost three times as much, full collections
//   ran several times as often, and the instance sat at 260-300 MB resident serving 7-25 % fewer
//   requests. Without it every start behaves like the good ones (~195 MB).
// - The old generation's growing factor (HEAP_GROWTH_PERCENT, default 100, i.e. 2). This replaces
//   V8's own factor, which rises to 4 when the heap limit is large (Node's default on a host with
//   plenty of memory): with a live heap of ~80 MB, the bench's booking phase peaked at 217-226 MB
//   resident with V8's factor and at 192-201 MB with 2 (starts without the pretenuring trouble).
//   With a heap cap (--max-old-space-size or --max-heap-size) V8's own factor is already lower
//   (1.3-2) and slows further near the cap, so the setting is then left to V8.
//
// Both flags are read by V8 at each collection, so setting them once the process runs applies them
// from the next one.

/** True when the process was started with a cap on V8's heap. */
export function heapCapped(execArgv = process.execArgv, nodeOptions = process.env.NODE_OPTIONS ?? ''): boolean {
  return [...execArgv, ...nodeOptions.split(/\s+/)].some((a) => /^--max[-_](old[-_]space|heap)[-_]size\b/.test(a))
}

/** Applies the settings above; `growthPercent` 0 leaves V8's own growing factor. */
export function tuneGarbageCollector(growthPercent: number): void {
  setFlagsFromString('--no-allocation-site-pretenuring')
  if (growthPercent > 0 && !heapCapped()) setFlagsFromString(`--heap-growing-percent=${Math.trunc(growthPercent)}`)
}
