import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildDocument } from './openapi-tools.ts'

// npm run check:clients: the OpenAPI document /docs/json serves (built in-process, as for
// `npm run lint:openapi`) through two client generators no one here wrote, each output compiled
// with `tsc --strict --noEmit` (docs/openapi.md, "Generated clients"):
// - @hey-api/openapi-ts with its fetch client;
// - orval with its fetch client, a file per tag and one per schema (it refuses two schemas that
//   come out with the same name, such as two inline enums of one field name).
// Offline, no prompts (CI=true, stdin closed); CI runs it after `npm run lint:openapi`. The
// generated code goes to a temporary directory, kept (and named) only when a step fails.
// `npm run check:clients -- file.json` checks that document instead.

const root = new URL('..', import.meta.url).pathname
const bin = (name: string) => join(root, 'node_modules', '.bin', name)
const version = (pkg: string) =>
  (JSON.parse(readFileSync(join(root, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version

const dir = mkdtempSync(join(tmpdir(), 'courtside-clients-'))
const docFile = join(dir, 'openapi.json')
const given = process.argv[2]
writeFileSync(docFile, given ? readFileSync(given, 'utf8') : JSON.stringify(await buildDocument(), null, 2))

/** Runs a step; its output is shown only when it fails. */
function run(step: string, command: string, args: string[], cwd = dir): boolean {
  const result = spawnSync(command, args, {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
    env: { ...process.env, CI: 'true', NO_COLOR: '1', FORCE_COLOR: '0' },
    timeout: 300_000,
  })
  if (result.status === 0) return true
  console.error(`${step} failed (exit ${result.status ?? result.signal}):`)
  console.error(`${result.stdout ?? ''}${result.stderr ?? ''}${result.error ? String(result.error) : ''}`.trim())
  return false
}

/** `tsc --strict --noEmit` over a generated client, with nothing but the DOM's fetch types around it. */
function compile(name: string, outDir: string): boolean {
  const tsconfig = join(dir, `tsconfig.${name}.json`)
  const compilerOptions = {
    strict: true,
    noEmit: true,
    target: 'ES2022',
    module: 'ESNext',
    moduleResolution: 'Bundler',
    lib: ['ES2022', 'DOM', 'DOM.Iterable'],
    types: [],
    skipLibCheck: false,
  }
  writeFileSync(tsconfig, JSON.stringify({ compilerOptions, include: [`${outDir}/**/*.ts`] }, null, 2))
  return run(`tsc --strict (${name})`, bin('tsc'), ['-p', tsconfig, '--strict', '--noEmit'])
}

const heyApi = join(dir, 'hey-api')
const orvalDir = join(dir, 'orval')
mkdirSync(orvalDir)
// orval reads its configuration from a file (a CommonJS one loads without a bundler).
writeFileSync(
  join(orvalDir, 'orval.config.cjs'),
  `module.exports = ${JSON.stringify(
    {
      courtside: {
        input: { target: docFile },
        output: { mode: 'tags-split', target: './endpoints', schemas: './model', client: 'fetch', clean: true },
      },
    },
    null,
    2,
  )}\n`,
)

const results = {
  [`@hey-api/openapi-ts ${version('@hey-api/openapi-ts')}`]:
    run('@hey-api/openapi-ts', bin('openapi-ts'), [
      '--input',
      docFile,
      '--output',
      heyApi,
      '--client',
      '@hey-api/client-fetch',
      '--no-log-file',
    ]) && compile('hey-api', heyApi),
  [`orval ${version('orval')}`]:
    run('orval', bin('orval'), ['--config', join(orvalDir, 'orval.config.cjs')], orvalDir) &&
    compile('orval', orvalDir),
}

for (const [generator, passed] of Object.entries(results)) {
  console.log(`${generator}: ${passed ? 'generated, tsc --strict: 0 errors' : 'FAILED'}`)
}
if (Object.values(results).every(Boolean)) {
  rmSync(dir, { recursive: true, force: true })
} else {
  console.error(`The document and the generated code are in ${dir}`)
  process.exit(1)
}
