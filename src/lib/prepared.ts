import pg from 'pg'

// Named prepared statements on the PostgreSQL server (src/lib/db.ts turns them on for every
// pooled connection), and the row parsers of each statement's result, built once.

/** Statement texts given a name so far, process-wide; the same text always gets the same name. */
const statementNames = new Map<string, string>()
/** Beyond this many distinct texts, new ones run unnamed (bounds each connection's statement cache). */
const MAX_NAMED_STATEMENTS = 2000

/** A result's columns as pg describes them. */
interface Field {
  name: string
  dataTypeID: number
  format?: string
}

/** What pg's Result builds from a RowDescription: the columns, a parser per column, the empty row. */
interface Shape {
  fields: Field[]
  _parsers: unknown[]
  _prebuiltEmptyResultObject: object
}

/** The shape of each named statement's result, as first described by the server. */
const shapes = new Map<string, Shape>()

function sameColumns(a: Field[], b: Field[]) {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) {
    if (a[i].name !== b[i].name || a[i].dataTypeID !== b[i].dataTypeID || a[i].format !== b[i].format) return false
  }
  return true
}

/**
 * pg's Query for a named statement. The server describes the result of every execution, and pg's
 * Result then looks up a parser per column and builds the empty row object again (`addFields`: 4 %
 * of a booking request's CPU, the largest single item in its profile). A named statement's columns
 * do not change between executions, so the parsers and the empty row are kept from the first
 * description and reused whenever the server describes the same columns. This reaches into
 * Result's fields (pg 8): a pg whose Result no longer has them is simply not helped.
 */
class NamedQuery extends (pg.Query as unknown as new (config: pg.QueryConfig) => NamedQueryBase) {
  handleRowDescription(msg: { fields: Field[] }) {
    const name = this.name
    const known = name === undefined ? undefined : shapes.get(name)
    const result = this._result as unknown as Partial<Shape> & { command?: unknown }
    // A second result set (several statements in one text) goes the usual way.
    if (known && !result.command && sameColumns(known.fields, msg.fields)) {
      result.fields = known.fields
      result._parsers = known._parsers
      result._prebuiltEmptyResultObject = known._prebuiltEmptyResultObject
      this._accumulateRows = true
      return
    }
    super.handleRowDescription(msg)
    if (name !== undefined && Array.isArray(result._parsers) && result._prebuiltEmptyResultObject) {
      shapes.set(name, {
        fields: msg.fields,
        _parsers: result._parsers,
        _prebuiltEmptyResultObject: result._prebuiltEmptyResultObject,
      })
    }
  }
}

/** The parts of pg's (untyped) Query this file uses. */
interface NamedQueryBase {
  name?: string
  _result: object
  _accumulateRows: boolean
  callback?: (err: Error | null, result: pg.QueryResult) => void
  handleRowDescription(msg: { fields: Field[] }): void
}

/**
 * Makes a pooled client send every parameterised query as a named prepared statement: PostgreSQL
 * parses and plans it once per connection instead of on every call (planning the availability
 * query took longer than running it). Queries without parameters (BEGIN, migrations) are unchanged.
 */
export function prepareStatements(client: pg.PoolClient) {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown
  // pg's query() is heavily overloaded; only the (text, values) form Kysely uses is rewritten.
  ;(client as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    const [text, values] = args
    if (args.length === 2 && typeof text === 'string' && Array.isArray(values) && values.length > 0) {
      let name = statementNames.get(text)
      if (name === undefined && statementNames.size < MAX_NAMED_STATEMENTS) {
        name = `cs_${statementNames.size + 1}`
        statementNames.set(text, name)
      }
      if (name !== undefined) {
        const named = new NamedQuery({ name, text, values })
        return new Promise<pg.QueryResult>((resolve, reject) => {
          named.callback = (err, result) => (err ? reject(err) : resolve(result))
          query(named)
        })
      }
    }
    return query(...args)
  }
}
