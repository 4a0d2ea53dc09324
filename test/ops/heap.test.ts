import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { test } from 'node:test'
import { loadConfig } from '../../src/config.ts'
import { heapCapped } from '../../src/lib/heap.ts'

// The garbage collector settings of src/lib/heap.ts, as V8 itself reports them: a child process
// applies them the way src/main.ts does (or not), then makes objects that survive young
// collections. --trace-gc-verbose prints the growing factor behind each new old-generation limit
// ("[HeapController] Limit: … (2.0)" in Node 20's V8; newer ones print it as "[HeapController]
// factor 2.0 based on …"); --trace-pretenuring-statistics prints the survival statistics of each
// allocation site V8 weighs for pretenuring ("pretenuring: AllocationSite(…): …"), and nothing
// when it weighs none.

/** Mostly garbage, a tenth kept: full collections. */
const GARBAGE = `
    const kept = []
    let junk = []
    for (let i = 0; i < 3e6; i++) {
      junk.push({ i, s: 'x' + i })
      if (junk.length > 50000) { kept.push(junk.slice(0, 5000)); junk = [] }
    }`
/** Every object of one allocation site survives: what makes V8 pretenure the site. */
const SURVIVORS = `
    const kept = []
    const make = (i) => ({ i, s: 'x' + i })
    for (let i = 0; i < 2e6; i++) kept.push(make(i))`

function traceOf(apply: string, v8Flags: string[], workload: string): string {
  const script = `
    const { tuneGarbageCollector } = await import('./src/lib/heap.ts')
    ${apply}
    ${workload}`
  const run = spawnSync(process.execPath, ['--import', 'tsx', ...v8Flags, '--input-type=module', '-e', script], {
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '' },
  })
  assert.equal(run.status, 0, run.stderr)
  return run.stdout
}

/** The factors V8 used for the old generation's limits (with `heapFlags`, e.g. a heap cap). */
function factors(apply: string, heapFlags: string[] = []): string[] {
  const out = traceOf(apply, [...heapFlags, '--trace-gc', '--trace-gc-verbose'], GARBAGE)
  // Node 20's V8 prints the factor it applied on the Limit line, and a factor line before the
  // flag is applied; later V8s apply the flag first and print only the factor line.
  const limits = [...out.matchAll(/\[HeapController\] Limit: .*\(([\d.]+)\)/g)].map((m) => m[1])
  return limits.length > 0 ? limits : [...out.matchAll(/\[HeapController\] factor ([\d.]+) based/g)].map((m) => m[1])
}

/** How many times V8 weighed an allocation site for pretenuring. */
function pretenuringVerdicts(apply: string): number {
  return traceOf(apply, ['--trace-pretenuring-statistics'], SURVIVORS).split('pretenuring: AllocationSite').length - 1
}

test('HEAP_GROWTH_PERCENT=100 makes V8 grow the old generation by a factor of 2 at each full collection', () => {
  const seen = factors('tuneGarbageCollector(100)')
  assert.ok(seen.length >= 2, `expected full collections, saw ${seen.length}`)
  assert.deepEqual(new Set(seen), new Set(['2.0']))
})

test("HEAP_GROWTH_PERCENT=0 leaves V8's own factor, which grows a large heap by more than 2", () => {
  // A 4 GB limit, as Node sets on a host with plenty of memory: V8's own factor may reach 4.
  const seen = factors('tuneGarbageCollector(0)', ['--max-old-space-size=4096'])
  assert.ok(seen.length >= 1, 'expected a full collection')
  assert.ok(
    seen.some((f) => Number(f) > 2),
    `V8's own factors: ${seen.join(', ')}`,
  )
})

test('with a heap cap the growing factor is left to V8 (it is lower there, and slows near the cap)', () => {
  const seen = factors('tuneGarbageCollector(100)', ['--max-old-space-size=512'])
  assert.ok(seen.length >= 1, 'expected a full collection')
  assert.ok(!seen.includes('2.0'), `V8's own factors under a 512 MB cap: ${seen.join(', ')}`)
  assert.equal(heapCapped(['--max-old-space-size=512'], ''), true)
  assert.equal(heapCapped([], '--max_heap_size=1024 --enable-source-maps'), true)
  assert.equal(heapCapped(['--enable-source-maps'], '--max-semi-space-size=16'), false)
})

test('allocation sites are not weighed for pretenuring once the settings are applied (V8 does by default)', () => {
  assert.ok(pretenuringVerdicts('') >= 1, 'left alone, V8 weighs the surviving site for pretenuring')
  assert.equal(pretenuringVerdicts('tuneGarbageCollector(100)'), 0)
  assert.equal(pretenuringVerdicts('tuneGarbageCollector(0)'), 0)
})

test('HEAP_GROWTH_PERCENT defaults to 100 and is refused unless a whole number from 0 to 300', () => {
  assert.equal(loadConfig({}).heapGrowthPercent, 100)
  assert.equal(loadConfig({ HEAP_GROWTH_PERCENT: '0' }).heapGrowthPercent, 0)
  assert.equal(loadConfig({ HEAP_GROWTH_PERCENT: '300' }).heapGrowthPercent, 300)
  for (const bad of ['-1', '1.5', 'lots', '301']) {
    assert.throws(() => loadConfig({ HEAP_GROWTH_PERCENT: bad }), /HEAP_GROWTH_PERCENT/)
  }
})
