import {
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
} from 'kysely'
import type { DB } from '../../src/db/types.ts'
import type { Executor } from '../../src/lib/db.ts'

// SQL as the app sends it, for test/foundation/sql-snapshot.test.ts: a Kysely instance that runs
// every query on a real database and records its compiled text, and a formatter that puts each
// clause on its own line so a changed query reads as a small diff.

/** A Kysely over `real` that records every query it runs into `sink` (no transactions). */
export function recordingDb(real: Executor, sink: CompiledQuery[]): Kysely<DB> {
  const connection: DatabaseConnection = {
    async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
      sink.push(query)
      return real.executeQuery<R>(query)
    },
    // biome-ignore lint/correctness/useYield: never streams; it refuses
    async *streamQuery() {
      throw new Error('recordingDb does not stream')
    },
  }
  const driver: Driver = {
    async init() {},
    async acquireConnection() {
      return connection
    },
    async beginTransaction() {
      throw new Error('recordingDb runs no transactions')
    },
    async commitTransaction() {},
    async rollbackTransaction() {},
    async releaseConnection() {},
    async destroy() {},
  }
  return new Kysely<DB>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => driver,
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  })
}

const CLAUSE =
  /\s+(?=(?:select|from|inner join|left join|where|group by|order by|limit|offset|returning|values|on conflict|union all|union|with)\b)/gi

/**
 * One clause per line, indented by parenthesis depth; quoted identifiers and strings are left
 * alone. Only whitespace changes, so the text stays the statement Kysely compiled.
 */
export function formatSql(text: string): string {
  const parts = text.split(/('(?:[^']|'')*'|"(?:[^"]|"")*")/)
  let out = ''
  let depth = 0
  parts.forEach((part, i) => {
    if (i % 2 === 1) {
      out += part
      return
    }
    let chunk = ''
    let last = 0
    for (const m of part.matchAll(CLAUSE)) {
      const before = part.slice(last, m.index)
      depth += count(before, '(') - count(before, ')')
      chunk += `${before}\n${'  '.repeat(Math.max(depth, 0))}`
      last = m.index + m[0].length
    }
    const rest = part.slice(last)
    depth += count(rest, '(') - count(rest, ')')
    out += chunk + rest
  })
  return out.trim()
}

const count = (s: string, c: string) => s.split(c).length - 1
