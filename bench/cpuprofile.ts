// npx tsx bench/cpuprofile.ts <file.cpuprofile> [top=25] [--skip=<seconds>] [--callers=<function>] [--depth=<frames>]
// Summarises a V8 CPU profile (`node --cpu-prof --cpu-prof-dir=… dist/server.js`): self and
// inclusive time by function, by package or file, and for our own code (dist/). --skip leaves out
// the first seconds (start-up: module loading, schema compiling); --callers=<name> prints the call
// paths into a function instead (--depth=<n> frames of each, 4 unless given).
// It shows call paths; for where CPU goes, docs/performance.md ("What the profiles showed") uses perf.
import { readFileSync } from 'node:fs'

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number; scriptId: string | number }
  children?: number[]
}
interface Profile {
  nodes: ProfileNode[]
  samples: number[]
  timeDeltas: number[]
}

const args = process.argv.slice(2)
const file = args.find((a) => !a.startsWith('--'))
if (!file) {
  console.error('usage: tsx bench/cpuprofile.ts <file.cpuprofile> [top] [--skip=<s>] [--callers=<fn>] [--depth=<n>]')
  process.exit(1)
}
const top = Number(args.filter((a) => !a.startsWith('--'))[1] ?? 25)
const option = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3)
const skipUs = Number(option('skip') ?? 0) * 1e6

const prof = JSON.parse(readFileSync(file, 'utf8')) as Profile
const nodes = new Map(prof.nodes.map((n) => [n.id, n]))
const parent = new Map<number, number>()
for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id)

/** Sampled microseconds per node (its own frames only), after the skipped start. */
const self = new Map<number, number>()
let clock = 0
prof.samples.forEach((id, i) => {
  clock += prof.timeDeltas[i] ?? 0
  if (clock >= skipUs) self.set(id, (self.get(id) ?? 0) + (prof.timeDeltas[i] ?? 0))
})
const total = [...self.values()].reduce((a, b) => a + b, 0)

const shortUrl = (u: string) =>
  u
    .replace(/^file:\/\/.*?\/dist\//, 'dist/')
    .replace(/^file:\/\/.*\/node_modules\//, 'nm/')
    .replace(/^file:\/\//, '')
const byFunction = (n: ProfileNode) =>
  `${n.callFrame.functionName || '(anonymous)'} ${shortUrl(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`
const byPackage = (n: ProfileNode) => {
  const u = shortUrl(n.callFrame.url)
  const pkg = /^nm\/((@[^/]+\/)?[^/]+)/.exec(u)?.[1]
  if (pkg) return pkg
  if (u.startsWith('dist/')) return u
  if (u.startsWith('node:')) return 'node core'
  // Functions made with `new Function` (fast-json-stringify serializers, ajv validators) have a
  // script but no URL; native frames (writev, the garbage collector) have neither.
  if (u === '' && String(n.callFrame.scriptId) !== '0') return '(generated serializers and validators)'
  return n.callFrame.functionName || '(unknown)'
}

/** Self and inclusive time by key; a key counts once per stack (recursion is not double-counted). */
function aggregate(key: (n: ProfileNode) => string) {
  const own = new Map<string, number>()
  const inclusive = new Map<string, number>()
  for (const [id, t] of self) {
    const k = key(nodes.get(id) as ProfileNode)
    own.set(k, (own.get(k) ?? 0) + t)
    const seen = new Set<string>()
    for (let x: number | undefined = id; x !== undefined; x = parent.get(x)) {
      const kx = key(nodes.get(x) as ProfileNode)
      if (seen.has(kx)) continue
      seen.add(kx)
      inclusive.set(kx, (inclusive.get(kx) ?? 0) + t)
    }
  }
  return { own, inclusive }
}

function print(title: string, m: Map<string, number>, filter: (k: string) => boolean = () => true) {
  console.log(`\n## ${title}`)
  const rows = [...m].filter(([k]) => filter(k)).sort((a, b) => b[1] - a[1])
  for (const [k, v] of rows.slice(0, top)) {
    console.log(`${((100 * v) / total).toFixed(1).padStart(5)}%  ${(v / 1000).toFixed(0).padStart(6)} ms  ${k}`)
  }
}

function callers(name: string, depth = 4) {
  const inclusive = new Map<number, number>()
  const sum = (id: number): number => {
    const n = nodes.get(id) as ProfileNode
    let t = self.get(id) ?? 0
    for (const c of n.children ?? []) t += sum(c)
    inclusive.set(id, t)
    return t
  }
  sum(prof.nodes[0].id)
  const paths = new Map<string, number>()
  for (const n of prof.nodes) {
    if (n.callFrame.functionName !== name) continue
    const chain: string[] = []
    for (let x = parent.get(n.id), i = 0; x !== undefined && i < depth; x = parent.get(x), i++) {
      chain.push(byFunction(nodes.get(x) as ProfileNode))
    }
    const k = chain.join(' <- ')
    paths.set(k, (paths.get(k) ?? 0) + (inclusive.get(n.id) ?? 0))
  }
  print(`call paths into ${name}`, paths)
}

console.log(`${file}: ${(total / 1e6).toFixed(2)} s sampled`)
const wanted = option('callers')
if (wanted) {
  const depth = Number(option('depth') ?? 4)
  if (!Number.isInteger(depth) || depth < 1) {
    console.error('--depth takes a whole number of frames, 1 or more')
    process.exit(1)
  }
  callers(wanted, depth)
} else {
  const f = aggregate(byFunction)
  const p = aggregate(byPackage)
  print('self time by function', f.own)
  print('self time by package or file', p.own)
  print('inclusive time by package or file', p.inclusive)
  print('inclusive time, our code (dist/)', f.inclusive, (k) => k.includes(' dist/'))
}
