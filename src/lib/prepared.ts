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
  _parsers: Parser[]
  _prebuiltEmptyResultObject: object
  /** Makes a row from its raw column values; null when pg's own parseRow must (binary columns, odd names). */
  row: RowBuilder | null
}

type Parser = (raw: string) => unknown
type RowBuilder = (raw: (string | null)[]) => Record<string, unknown>

/**
 * A function that makes a row object from its raw values in one object literal, so every row of a
 * statement has the same hidden class (pg's parseRow copies an empty row made from a dictionary
 * and assigns each column). Column names are written as JSON string literals; a name that would
 * set the prototype instead of a property, or a binary column, keeps pg's way.
 */
function rowBuilder(fields: Field[], parsers: Parser[]): RowBuilder | null {
  if (fields.some((f) => f.name === '__proto__' || (f.format !== undefined && f.format !== 'text'))) return null
  const props = fields.map((f, i) => `${JSON.stringify(f.name)}: (v = raw[${i}]) === null ? null : p[${i}](v)`)
  try {
    return new Function('p', `return function (raw) { let v; return { ${props.join(', ')} } }`)(parsers) as RowBuilder
  } catch {
    // Code generation refused (node --disallow-code-generation-from-strings): pg's own parseRow.
    return null
  }
}

/** The shape of each named statement's result, as first described by the server. */
const shapes = new Map<string, Shape>()

/**
 * True when a client's type parsers (pg gives each client a TypeOverrides of its own) are the
 * global ones, which src/lib/db.ts sets once at import: then a shape built on one connection
 * serves them all. A client with parsers of its own (pg's `types` option, client.setTypeParser)
 * keeps pg's way.
 */
function globalParsers(overrides: unknown): boolean {
  const o = overrides as { _types?: unknown; text?: object; binary?: object } | undefined
  if (!o || o._types !== pg.types) return false
  for (const _ in o.text) return false
  for (const _ in o.binary) return false
  return true
}

function sameColumns(a: Field[], b: Field[]) {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) {
    if (a[i].name !== b[i].name || a[i].dataTypeID !== b[i].dataTypeID || a[i].format !== b[i].format) return false
  }
  return true
}

/**
 * pg's Query for a named statement. The server describes the result of every execution, and pg's
 * Result then looks up a parser per column and builds the empty row object again (`addFields`, the
 * largest single item in a booking request's profile: docs/performance.md, "Why the hot paths look
 * this way"). A named statement's columns
 * do not change between executions, so the parsers are kept from the first description, with a
 * function that makes each row in one object literal, and reused whenever the server describes the
 * same columns. This reaches into Result's fields (pg 8): a pg whose Result no longer has them is
 * simply not helped.
 */
class NamedQuery extends (pg.Query as unknown as new (text: string, values: unknown[]) => NamedQueryBase) {
  private shape: Shape | undefined

  constructor(name: string, text: string, values: unknown[]) {
    // The (text, values) form: pg copies a config object with its property descriptors, on every
    // query of an uncached read; the name is set after.
    super(text, values)
    this.name = name
  }

  handleRowDescription(msg: { fields: Field[] }) {
    const name = this.name as string
    const known = shapes.get(name)
    const result = this._result as unknown as Partial<Shape> & { command?: unknown; _types?: unknown }
    // A second result set (several statements in one text) goes the usual way, and so does a client
    // with type parsers of its own.
    const plain = globalParsers(result._types)
    if (known && plain && !result.command && sameColumns(known.fields, msg.fields)) {
      result.fields = known.fields
      result._parsers = known._parsers
      result._prebuiltEmptyResultObject = known._prebuiltEmptyResultObject
      this._accumulateRows = true
      this.shape = known
      return
    }
    this.shape = undefined
    const first = !result.command
    super.handleRowDescription(msg)
    const built = this._result as unknown as Partial<Shape>
    if (first && plain && Array.isArray(built._parsers) && built._prebuiltEmptyResultObject) {
      shapes.set(name, {
        fields: msg.fields,
        _parsers: built._parsers,
        _prebuiltEmptyResultObject: built._prebuiltEmptyResultObject,
        row: rowBuilder(msg.fields, built._parsers),
      })
    }
  }

  handleDataRow(msg: { fields: (string | null)[] }) {
    const build = this.shape?.row
    if (!build || this._canceledDueToError || this.listenerCount('row') > 0) return super.handleDataRow(msg)
    try {
      ;(this._result as { rows: unknown[] }).rows.push(build(msg.fields))
    } catch (err) {
      // As pg does: a value its parser refuses fails the query once the server is done with it.
      this._canceledDueToError = err as Error
    }
  }
}

/** The parts of pg's (untyped) Query this file uses. */
interface NamedQueryBase {
  name?: string
  _result: object
  _accumulateRows: boolean
  _canceledDueToError: Error | false
  callback?: (err: Error | null, result: pg.QueryResult) => void
  listenerCount(event: string): number
  handleRowDescription(msg: { fields: Field[] }): void
  handleDataRow(msg: { fields: (string | null)[] }): void
}

/**
 * Makes a pooled client send every parameterised query as a named prepared statement: PostgreSQL
 * parses and plans it once per connection instead of on every call (planning a query such as
 * availability's costs more than running it). Queries without parameters (BEGIN, migrations) are unchanged.
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
        const named = new NamedQuery(name, text, values)
        return new Promise<pg.QueryResult>((resolve, reject) => {
          named.callback = (err, result) => {
            if (!err) return resolve(result)
            // As pg's own promise does: the stack of the caller, not of the socket's parser.
            Error.captureStackTrace(err)
            reject(err)
          }
          query(named)
        })
      }
    }
    return query(...args)
  }
}
