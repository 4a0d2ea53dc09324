import { spawnSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { buildDocument, CLIENT_TYPES, clientTypes } from './openapi-tools.ts'

// npm run openapi -- <file>   writes the OpenAPI document (JSON) to <file>
// npm run client              regenerates src/client/schema.d.ts from the document
// npm run lint:openapi        lints the document with Redocly's recommended ruleset (redocly.yaml)

const root = new URL('..', import.meta.url).pathname
const [command, arg] = process.argv.slice(2)
const doc = await buildDocument()

if (command === 'write') {
  writeFileSync(arg, `${JSON.stringify(doc, null, 2)}\n`)
} else if (command === 'client') {
  writeFileSync(join(root, CLIENT_TYPES), await clientTypes(doc))
  console.log(`wrote ${CLIENT_TYPES}`)
} else if (command === 'lint') {
  mkdirSync(join(root, '.tmp'), { recursive: true })
  const file = join(root, '.tmp', 'openapi.json')
  writeFileSync(file, JSON.stringify(doc, null, 2))
  const redocly = (format: string, stdio: 'inherit' | 'pipe') =>
    spawnSync(
      join(root, 'node_modules', '.bin', 'redocly'),
      ['lint', '--config', join(root, 'redocly.yaml'), '--max-problems', '1000', `--format=${format}`, file],
      { stdio: ['ignore', stdio, 'inherit'], encoding: 'utf8', env: { ...process.env, REDOCLY_TELEMETRY: 'off' } },
    )
  // Redocly fails on errors only; CI wants no warnings either, so the totals are counted here.
  const run = redocly('json', 'pipe')
  const problems: { severity: string }[] = JSON.parse(run.stdout || '{"problems":[]}').problems ?? []
  const errors = problems.filter((p) => p.severity === 'error').length
  const warnings = problems.length - errors
  if (run.status !== 0 || problems.length > 0) redocly('stylish', 'inherit')
  console.log(`OpenAPI lint (redocly.yaml): ${errors} errors, ${warnings} warnings`)
  process.exit(problems.length > 0 || run.status !== 0 ? 1 : 0)
} else {
  console.error('usage: tsx scripts/openapi.ts write <file> | client | lint')
  process.exit(2)
}
