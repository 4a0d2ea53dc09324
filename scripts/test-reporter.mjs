// The reporter of `npm test` (scripts/test.mjs): node's own spec reporter, unchanged, plus the ten
// slowest test files with their durations, printed just before the runner's summary lines
// (ℹ tests … ℹ duration_ms), which stay the end of a passing run. Every file's duration also goes
// to TEST_DURATIONS_FILE (scripts/test.mjs sets it, one per database kind), which scripts/test.mjs
// reads to balance the next run's processes.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname, isAbsolute, join, relative } from 'node:path'
import { spec } from 'node:test/reporters'

const root = new URL('..', import.meta.url).pathname
const DURATIONS = process.env.TEST_DURATIONS_FILE ?? join(root, '.tmp/test-durations.json')
const TEST_FILE = /\.test\.[cm]?[jt]s$/

export default async function* reporter(source) {
  const inner = spec()
  const durations = new Map()
  let summarised = false
  for await (const event of source) {
    const { type, data } = event
    // A file is a test of its own (run in a process of its own: its name is its path) or, when
    // scripts/test.mjs runs several files in one process, a suite named by its relative path.
    if (type === 'test:complete' && data.nesting === 0 && TEST_FILE.test(data.name ?? '')) {
      const file = isAbsolute(data.name) ? relative(root, data.name) : data.name
      if (!file.startsWith('.tmp/')) durations.set(file, data.details.duration_ms)
    }
    // The runner's own summary (ℹ tests N, ℹ suites …) comes last, from no file.
    if (
      !summarised &&
      type === 'test:diagnostic' &&
      data.nesting === 0 &&
      !data.file &&
      /^tests \d+$/.test(data.message)
    ) {
      summarised = true
      yield slowest(durations)
      save(durations)
    }
    inner.write(event)
    for (let chunk = inner.read(); chunk !== null; chunk = inner.read()) yield chunk
  }
  inner.end()
  for await (const chunk of inner) yield chunk
}

function slowest(durations) {
  if (durations.size === 0) return ''
  const top = [...durations].sort((a, b) => b[1] - a[1]).slice(0, 10)
  const lines = top.map(([file, ms]) => `  ${(ms / 1000).toFixed(1).padStart(6)} s  ${file}`)
  return `\nslowest test files:\n${lines.join('\n')}\n\n`
}

function save(durations) {
  if (durations.size === 0) return
  let known = {}
  try {
    known = JSON.parse(readFileSync(DURATIONS, 'utf8'))
  } catch {}
  for (const [file, ms] of durations) known[file] = Math.round(ms)
  for (const file of Object.keys(known)) if (!existsSync(join(root, file))) delete known[file]
  try {
    mkdirSync(dirname(DURATIONS), { recursive: true })
    const tmp = `${DURATIONS}.${process.pid}`
    writeFileSync(tmp, `${JSON.stringify(known, null, 1)}\n`)
    renameSync(tmp, DURATIONS)
  } catch {}
}
