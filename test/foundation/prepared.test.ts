import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { after, test } from 'node:test'
import { Kysely, PostgresDialect, sql } from 'kysely'
import pg from 'pg'
import { openDatabase } from '../../src/lib/db.ts'
import { prepareStatements } from '../../src/lib/prepared.ts'

// src/lib/prepared.ts on the PostgreSQL server: parameterised queries run as named prepared
// statements, and the row parsers built from a statement's first result are reused afterwards.
// The rows must be what an unprepared query returns, every time, and a statement whose columns
// changed (a migration between two connections) must be read with its new columns.

const url = process.env.TEST_DATABASE_URL
const table = `prepared_${randomBytes(4).toString('hex')}`
const skip = url ? false : 'the PostgreSQL server only (TEST_DATABASE_URL): PGlite runs no named statements'

after(async () => {
  if (!url) return
  const admin = await openDatabase({ databaseUrl: url, poolSize: 1, prepare: false })
  await sql`DROP TABLE IF EXISTS ${sql.table(table)}`.execute(admin.db)
  await admin.close()
})

type Rows = Record<string, unknown>[]

/**
 * Runs `query(n)` for each n through named statements and unprepared, asserting the same rows with
 * their keys in the same order; returns the rows of each named run.
 */
async function sameAsUnprepared(
  query: (n: number) => ReturnType<typeof sql<Record<string, unknown>>>,
  runs: number[],
  poolSize = 1,
): Promise<Rows[]> {
  const named = await openDatabase({ databaseUrl: url!, poolSize })
  const plain = await openDatabase({ databaseUrl: url!, poolSize: 1, prepare: false })
  try {
    const out: Rows[] = []
    for (const n of runs) {
      const [a, b] = await Promise.all([query(n).execute(named.db), query(n).execute(plain.db)])
      assert.deepEqual(a.rows, b.rows, `run with ${n}`)
      assert.deepEqual(
        a.rows.map((r) => Object.keys(r)),
        b.rows.map((r) => Object.keys(r)),
      )
      out.push(a.rows)
    }
    return out
  } finally {
    await named.close()
    await plain.close()
  }
}

test('a named statement returns the rows of an unprepared query on every run', { skip }, async () => {
  const query = (n: number) => sql<Record<string, unknown>>`
    SELECT ${n}::int8 AS id, ${`name ${n}`}::text AS name, date '2027-03-28' + ${n}::int AS day,
      timestamptz '2027-03-28 01:00:00+00' + make_interval(mins => ${n}::int) AS at, 1.5::numeric * ${n} AS amount,
      json_build_object('n', ${n}::int) AS doc, NULLIF(${n}::int, 2) AS maybe, n AS series
    FROM generate_series(1, ${n}::int) AS n`
  const runs = [1, 2, 3, 2, 1, 4]
  const results = await sameAsUnprepared(query, runs, 2)
  for (const [i, rows] of results.entries()) assert.equal(rows.length, runs[i])
  assert.deepEqual(results[2][0], {
    id: 3,
    name: 'name 3',
    day: '2027-03-31',
    at: new Date('2027-03-28T01:03:00Z'),
    amount: '4.5',
    doc: { n: 3 },
    maybe: 3,
    series: 1,
  })
})

test('repeated and odd column names come out as pg makes them', { skip }, async () => {
  // Made by the generated row function: a name twice (the last wins, as in pg), quotes, a
  // backslash, a line separator, digits.
  const rows = await sameAsUnprepared(
    (n) =>
      sql<
        Record<string, unknown>
      >`SELECT ${n}::int AS a, ${n + 1}::int AS a, 'x' AS "a b", 'y' AS "it's ""quoted""", 'z' AS "back\\slash", 'w' AS "line\u2028sep", 5 AS "10"`,
    [1, 2, 3],
  )
  assert.deepEqual(rows[2][0], {
    '10': 5,
    a: 4,
    'a b': 'x',
    'it\'s "quoted"': 'y',
    'back\\slash': 'z',
    'line\u2028sep': 'w',
  })
  // A name that would set the prototype keeps pg's own parseRow.
  await sameAsUnprepared(
    (n) => sql<Record<string, unknown>>`SELECT ${n}::int AS a, ${n}::int AS "__proto__"`,
    [1, 2, 3],
  )
})

test('a client with type parsers of its own gets them, not the shape other clients made', { skip }, async () => {
  const named = await openDatabase({ databaseUrl: url!, poolSize: 1 })
  try {
    const query = sql<{ n: unknown }>`SELECT ${2}::int8 AS n`
    assert.deepEqual((await query.execute(named.db)).rows, [{ n: 2 }])
    assert.deepEqual((await query.execute(named.db)).rows, [{ n: 2 }])
    // The same statement text on a connection whose client parses int8 its own way.
    const pool = new pg.Pool({ connectionString: url, max: 1 })
    pool.on('connect', (client) => {
      prepareStatements(client)
      client.setTypeParser(20, (v: string) => `int8:${v}`)
    })
    const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) })
    try {
      assert.deepEqual((await query.execute(db)).rows, [{ n: 'int8:2' }])
      assert.deepEqual((await query.execute(db)).rows, [{ n: 'int8:2' }])
    } finally {
      await db.destroy()
    }
    assert.deepEqual((await query.execute(named.db)).rows, [{ n: 2 }])
  } finally {
    await named.close()
  }
})

test('the same statement after its columns changed is read with the new columns', { skip }, async () => {
  const read = (db: Awaited<ReturnType<typeof openDatabase>>['db']) =>
    sql<Record<string, unknown>>`SELECT * FROM ${sql.table(table)} WHERE id = ${1}`.execute(db)
  const before = await openDatabase({ databaseUrl: url!, poolSize: 1 })
  await sql`CREATE TABLE ${sql.table(table)} (id int8 PRIMARY KEY, label text)`.execute(before.db)
  await sql`INSERT INTO ${sql.table(table)} VALUES (1, 'one')`.execute(before.db)
  assert.deepEqual((await read(before.db)).rows, [{ id: 1, label: 'one' }])
  assert.deepEqual((await read(before.db)).rows, [{ id: 1, label: 'one' }])
  await before.close()

  const admin = await openDatabase({ databaseUrl: url!, poolSize: 1, prepare: false })
  await sql`ALTER TABLE ${sql.table(table)} ADD COLUMN amount int8 DEFAULT 7, ALTER COLUMN label TYPE int8 USING 1`.execute(
    admin.db,
  )
  await admin.close()

  // A new connection prepares the same text under the same name and describes other columns.
  const later = await openDatabase({ databaseUrl: url!, poolSize: 1 })
  try {
    assert.deepEqual((await read(later.db)).rows, [{ id: 1, label: 1, amount: 7 }])
    assert.deepEqual((await read(later.db)).rows, [{ id: 1, label: 1, amount: 7 }])
  } finally {
    await later.close()
  }
})
