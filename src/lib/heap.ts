import { setFlagsFromString } from 'node:v8'

// Garbage collector settings for a long-running server, applied at start-up (src/main.ts). What
// they were measured against: docs/performance.md, "Why the hot paths look this way".
//
// - Allocation-site pretenuring off. V8 watches which allocation sites' objects survive young
//   collections and, once a site looks long-lived, allocates its objects straight into the old
//   generation. While the read cache fills at start-up most answers do survive, so on many starts
//   V8 pretenures per-request objects for good: the old generation then fills with garbage, young
//   collections cost more, full collections run more often, and the instance holds more memory
//   and serves fewer requests. Without it every start behaves like the good ones.
// - The old generation's growing factor (HEAP_GROWTH_PERCENT, default 100, i.e. 2). This replaces
//   V8's own factor, which rises to 4 when the heap limit is large (Node's default on a host with
//   plenty of memory): a busy instance's live heap is small, and a factor of 4 over it lets the
//   resident peak grow well past what a factor of 2 allows, for no less CPU per request.
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
