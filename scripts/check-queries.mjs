// Query building outside repositories and read models (docs/architecture.md, "Layers", rule 4).
// dependency-cruiser sees imports only, and `ctx.db.selectFrom(…)` needs none, so this reads the
// text of every src/modules file that is not a repository/queries file and names each line that
// builds a query. Exceptions live in .dependency-cruiser.cjs (rule "query-building").
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'

export const queryCalls = [
  { name: '.selectFrom(', pattern: /\.selectFrom\(/ },
  { name: '.insertInto(', pattern: /\.insertInto\(/ },
  { name: '.updateTable(', pattern: /\.updateTable\(/ },
  { name: '.deleteFrom(', pattern: /\.deleteFrom\(/ },
  // Kysely's common table expressions: db.with('name', …); Array#with takes a number.
  { name: '.with(', pattern: /\.with\(\s*['"`]/ },
  { name: 'sql`', pattern: /\bsql\s*`/ },
  { name: 'sql<', pattern: /\bsql</ },
]

const queryFile = /^src\/modules\/[^/]+\/(repository|queries)(\.ts$|\/)/

function files(dir) {
  const out = []
  for (const name of readdirSync(dir)) {
    const full = join(dir, name)
    if (statSync(full).isDirectory()) out.push(...files(full))
    else if (name.endsWith('.ts')) out.push(full)
  }
  return out.sort()
}

/** Blanks comments (keeping line numbers) so a comment that names a call is not a violation. */
function withoutComments(text) {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' '))
    .replace(/(^|[^:'"`\\])\/\/.*$/gm, (_m, before) => before)
}

/**
 * Violations under `root` (a checkout: src/modules is read from there), each
 * { rule: 'query-building', file, line, call, text }.
 */
export function checkQueries(root, exceptions = []) {
  const dir = join(root, 'src/modules')
  const allowed = exceptions.filter((e) => e.rule === 'query-building').map((e) => new RegExp(e.from))
  const found = []
  for (const full of statSync(dir, { throwIfNoEntry: false }) ? files(dir) : []) {
    const file = relative(root, full).split('\\').join('/')
    if (queryFile.test(file) || allowed.some((re) => re.test(file))) continue
    const lines = withoutComments(readFileSync(full, 'utf8')).split('\n')
    lines.forEach((text, i) => {
      for (const call of queryCalls) {
        if (call.pattern.test(text))
          found.push({ rule: 'query-building', file, line: i + 1, call: call.name, text: text.trim() })
      }
    })
  }
  return found
}
