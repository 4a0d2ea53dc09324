#!/usr/bin/env node
// npm run check:layers: the import boundaries of docs/architecture.md, "Layers".
// 1. dependency-cruiser with .dependency-cruiser.cjs (lib → modules, module internals, index.ts
//    re-exporting routes, fastify and kysely outside their layers, file cycles);
// 2. module cycles: the file graph collapsed to one node per src/modules/<m>;
// 3. query building outside repositories and read models (scripts/check-queries.mjs).
// Prints one line per violation (rule, file, what) and exits 1 when there is any.
// Usage: node scripts/check-layers.mjs [root]   (root defaults to the repository; tests pass fixtures)
import { createRequire } from 'node:module'
import { join, resolve } from 'node:path'
import { cruise } from 'dependency-cruiser'
import { checkQueries } from './check-queries.mjs'

const require = createRequire(import.meta.url)

/** The configuration of the repository this script belongs to (fixtures are checked with it too). */
export function loadRules() {
  const config = require(join(import.meta.dirname, '..', '.dependency-cruiser.cjs'))
  const rules = new Set([...config.forbidden.map((r) => r.name), 'query-building'])
  for (const e of config.exceptions) {
    if (!rules.has(e.rule) || !e.from || !e.reason?.trim()) {
      throw new Error(
        `.dependency-cruiser.cjs: an exception needs a known rule, a path and a reason: ${JSON.stringify(e)}`,
      )
    }
  }
  return config
}

const moduleOf = (path) => /^src\/modules\/([^/]+)\//.exec(path)?.[1]

/** Cycles of the module graph (strongly connected components of more than one module). */
export function moduleCycles(cruised) {
  const edges = new Map() // module -> Map(module -> example "from → to")
  for (const m of cruised.modules) {
    const a = moduleOf(m.source)
    if (!a) continue
    for (const d of m.dependencies) {
      const b = moduleOf(d.resolved)
      if (!b || b === a) continue
      if (!edges.has(a)) edges.set(a, new Map())
      if (!edges.get(a).has(b)) edges.get(a).set(b, `${m.source} → ${d.resolved}`)
    }
  }
  // Tarjan's strongly connected components.
  let index = 0
  const idx = new Map()
  const low = new Map()
  const stack = []
  const onStack = new Set()
  const components = []
  const visit = (v) => {
    idx.set(v, index)
    low.set(v, index++)
    stack.push(v)
    onStack.add(v)
    for (const w of edges.get(v)?.keys() ?? []) {
      if (!idx.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v), low.get(w)))
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)))
    }
    if (low.get(v) === idx.get(v)) {
      const c = []
      let w
      do {
        w = stack.pop()
        onStack.delete(w)
        c.push(w)
      } while (w !== v)
      if (c.length > 1) components.push(c.sort())
    }
  }
  for (const v of [...edges.keys()].sort()) if (!idx.has(v)) visit(v)
  return components.map((c) => ({
    rule: 'no-module-cycle',
    file: `src/modules/{${c.join(',')}}`,
    what: c
      .flatMap((a) => c.filter((b) => edges.get(a)?.has(b)).map((b) => `${a} → ${b} (${edges.get(a).get(b)})`))
      .join('; '),
  }))
}

/** Every violation under `root`: [{ rule, file, what }]. */
export async function checkLayers(root) {
  const config = loadRules()
  const cwd = process.cwd()
  process.chdir(root)
  let result
  try {
    result = await cruise(['src'], { ...config.options, ruleSet: { forbidden: config.forbidden }, validate: true })
  } finally {
    process.chdir(cwd)
  }
  const cruised = result.output
  const violations = cruised.summary.violations.map((v) => ({
    rule: v.rule.name,
    file: v.from,
    what:
      v.rule.name === 'no-circular'
        ? `cycle ${[v.from, ...(v.cycle ?? []).map((c) => c.name ?? c)].join(' → ')}`
        : `imports ${v.to.replace(/^.*node_modules\//, '')}`,
  }))
  violations.push(...moduleCycles(cruised))
  for (const q of checkQueries(root, config.exceptions)) {
    violations.push({ rule: q.rule, file: `${q.file}:${q.line}`, what: `${q.call}  ${q.text}` })
  }
  return violations
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = resolve(process.argv[2] ?? join(import.meta.dirname, '..'))
  const violations = await checkLayers(root)
  for (const v of violations) console.log(`${v.rule}  ${v.file}  ${v.what}`)
  const byRule = new Map()
  for (const v of violations) byRule.set(v.rule, (byRule.get(v.rule) ?? 0) + 1)
  const counts = [...byRule].map(([r, n]) => `${r}: ${n}`)
  if (violations.length) {
    console.error(
      `\ncheck:layers: ${violations.length} violations (${counts.join(', ')}); see docs/architecture.md, "Layers"`,
    )
    process.exit(1)
  }
  console.log('check:layers: no violations')
}
