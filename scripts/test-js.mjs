// src/ as plain JavaScript, for the test files that start the real server or a CLI as a process of
// its own (test/helpers/entry.ts). `node --import tsx src/server.ts` spends ~1 s of CPU more than
// `node <dir>/src/server.js` before the server even starts (tsx's loader resolving and reading every
// module), and ~40 of those processes start in a whole run; under OpenTelemetry's loader hook the
// difference is larger still.
//
// Each src/**/*.ts is transpiled by esbuild (what tsx runs on the fly: the same output), one file to
// one file, so modules, their order of loading and `import.meta.url` keep their shape, under
// `<root>/.tmp/test-js-<pid>/src/`; relative `.ts` specifiers become `.js` (as tsc's
// rewriteRelativeImportExtensions does for `npm run build`). `dist` and `migrations` are linked beside
// it, so what src/config.ts and src/lib/migrate.ts find next to themselves is the real thing, and a
// package is found in the root's node_modules, as from src/.
import { mkdirSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { build } from 'esbuild'

const IMPORT_TS = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s*)"(\.\.?\/[^"]*)\.ts"/g

/** Transpiles `<root>/src` into `<root>/.tmp/test-js-<pid>` and returns that directory. */
export async function compileSources(root) {
  const out = join(root, `.tmp/test-js-${process.pid}`)
  rmSync(out, { recursive: true, force: true })
  const sources = walk(join(root, 'src')).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
  const result = await build({
    entryPoints: sources,
    outdir: join(out, 'src'),
    outbase: join(root, 'src'),
    bundle: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    tsconfig: join(root, 'tsconfig.json'),
    write: false,
    logLevel: 'error',
  })
  for (const file of result.outputFiles) {
    mkdirSync(dirname(file.path), { recursive: true })
    writeFileSync(
      file.path,
      file.text.replace(IMPORT_TS, (_, head, path) => `${head}"${path}.js"`),
    )
  }
  writeFileSync(join(out, 'package.json'), '{ "type": "module" }\n')
  for (const name of ['dist', 'migrations']) symlinkSync(relative(out, join(root, name)), join(out, name))
  return out
}

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name)
    return statSync(full).isDirectory() ? walk(full) : [full]
  })
}
