import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { after, describe, test } from 'node:test'
// @ts-expect-error: a plain .mjs script without type declarations
import { checkLayers } from '../../scripts/check-layers.mjs'

// npm run check:layers on small trees written here: one that follows every rule of
// docs/architecture.md "Layers" passes, one that breaks each rule once fails naming each rule.

const repo = resolve(import.meta.dirname, '../..')
const script = join(repo, 'scripts/check-layers.mjs')
const roots: string[] = []
after(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true })
})

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'layers-'))
  roots.push(root)
  symlinkSync(join(repo, 'node_modules'), join(root, 'node_modules'))
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  return root
}

const clean = {
  'src/lib/db.ts': `import { Kysely } from 'kysely'\nexport const make = () => Kysely\n`,
  'src/modules/index.ts': `import courts from './courts/routes.ts'\nexport default courts\n`,
  'src/modules/courts/index.ts': `export { findCourt } from './repository.ts'\n`,
  'src/modules/courts/routes.ts': `import type { FastifyInstance } from 'fastify'\nimport { showCourt } from './service.ts'\nexport default async (app: FastifyInstance) => { app.get('/', () => showCourt()) }\n`,
  'src/modules/courts/hooks.ts': `import type { FastifyRequest } from 'fastify'\nexport const hook = async (_req: FastifyRequest) => {}\n`,
  'src/modules/courts/service.ts': `import type { Transaction } from 'kysely'\nimport { findCourt } from './repository.ts'\nexport const showCourt = (trx?: Transaction<object>) => findCourt(trx)\n`,
  'src/modules/courts/repository.ts': `import { sql } from 'kysely'\nexport const findCourt = (db: any) => db.selectFrom('courts').where(sql\`true\`)\n`,
  'src/modules/courts/queries/day.ts': `export const day = (db: any) => db.with('d', (q: any) => q.selectFrom('x')).selectFrom('d')\n`,
  // A comment that names .selectFrom( is no query; Array#with takes a number.
  'src/modules/venues/service.ts': `import { findCourt } from '../courts/index.ts'\n// ctx.db.selectFrom('x') lives in the repository\nexport const v = () => [findCourt, [1].with(0, 2)]\n`,
}

const violating = {
  ...clean,
  'src/lib/uses-module.ts': `import { showCourt } from '../modules/courts/service.ts'\nexport const x = showCourt\n`,
  'src/modules/venues/service.ts': `import { showCourt } from '../courts/service.ts'\nexport const v = (ctx: any) => [showCourt, ctx.db.selectFrom('venues')]\n`,
  'src/modules/courts/index.ts': `export { findCourt } from './repository.ts'\nexport { default as routes } from './routes.ts'\n`,
  'src/modules/courts/policy.ts': `import type { FastifyRequest } from 'fastify'\nimport { sql } from 'kysely'\nexport const p = (r: FastifyRequest) => [r, sql\`1\`]\n`,
  'src/modules/courts/a.ts': `import { b } from './b.ts'\nexport const a = () => b\n`,
  'src/modules/courts/b.ts': `import { a } from './a.ts'\nexport const b = () => a\n`,
  'src/modules/courts/cycle.ts': `import { v } from '../venues/index.ts'\nexport const c = v\n`,
  'src/modules/venues/index.ts': `export { v } from './service.ts'\n`,
}

describe('check:layers', () => {
  test('a tree that follows the layers passes', async () => {
    const root = tree(clean)
    assert.deepEqual(await checkLayers(root), [])
    const run = spawnSync(process.execPath, [script, root], { encoding: 'utf8' })
    assert.equal(run.status, 0, run.stdout + run.stderr)
  })

  test('each broken rule is reported with the rule and the file', async () => {
    const root = tree(violating)
    const found: { rule: string; file: string; what: string }[] = await checkLayers(root)
    const seen = (rule: string, file: string) => found.some((v) => v.rule === rule && v.file.startsWith(file))
    assert.ok(seen('lib-imports-module', 'src/lib/uses-module.ts'))
    assert.ok(seen('module-internals', 'src/modules/venues/service.ts'))
    assert.ok(seen('index-exports-routes', 'src/modules/courts/index.ts'))
    assert.ok(seen('fastify-outside-http', 'src/modules/courts/policy.ts'), 'a type-only import of fastify counts')
    assert.ok(seen('kysely-outside-repository', 'src/modules/courts/policy.ts'))
    assert.ok(seen('no-circular', 'src/modules/courts/a.ts') || seen('no-circular', 'src/modules/courts/b.ts'))
    assert.ok(seen('no-module-cycle', 'src/modules/{courts,venues}'))
    assert.ok(seen('query-building', 'src/modules/venues/service.ts:2'))
    // What the clean tree allows stays allowed: type-only kysely in a service, fastify in hooks.ts.
    assert.ok(!seen('kysely-outside-repository', 'src/modules/courts/service.ts'))
    assert.ok(!seen('fastify-outside-http', 'src/modules/courts/hooks.ts'))
    assert.ok(!seen('query-building', 'src/modules/courts/queries/day.ts'))

    const run = spawnSync(process.execPath, [script, root], { encoding: 'utf8' })
    assert.equal(run.status, 1)
    assert.match(
      run.stdout,
      /^module-internals {2}src\/modules\/venues\/service\.ts {2}imports src\/modules\/courts\/service\.ts$/m,
    )
    assert.match(run.stderr, /check:layers: \d+ violations/)
  })
})
