import { join } from 'node:path'

// How a test starts the real server or a CLI (`src/…ts`) as a process of its own. `npm test`
// (scripts/test.mjs) transpiles src/ to JavaScript once per run (scripts/test-js.mjs) and names the
// directory in TEST_SRC_JS: the process then starts from that, without tsx's loader, ~1 s of CPU
// sooner. A test file run on its own (`node --import tsx --test …`) starts the TypeScript through tsx.

/** Node's arguments that run `script` (a path under src/, relative to the repository). */
export function nodeArgs(script: string): string[] {
  const compiled = process.env.TEST_SRC_JS
  if (compiled && /^src\/.*\.ts$/.test(script)) return [join(compiled, script.replace(/\.ts$/, '.js'))]
  return ['--import', 'tsx', script]
}
