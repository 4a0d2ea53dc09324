// Makes the migrated template every test file copies. Prints one JSON line of env for the runner.
import { mkdirSync, writeFileSync } from 'node:fs'
import pg from 'pg'
import { createPglite, openDatabase, wrapPglite } from '../src/lib/db.ts'
import { migrate } from '../src/lib/migrate.ts'

const url = process.env.TEST_DATABASE_URL
if (url) {
  // One template per run, so runs started side by side never drop each other's template.
  const template = `cs_test_template_${process.pid}`
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  await admin.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`)
  await admin.query(`CREATE DATABASE ${template}`)
  await admin.end()
  const t = new URL(url)
  t.pathname = `/${template}`
  const database = await openDatabase({ databaseUrl: t.toString(), poolSize: 1 })
  await migrate(database.db)
  await database.close()
  console.log(JSON.stringify({ TEST_TEMPLATE_DB: template }))
} else {
  const raw = await createPglite()
  await migrate(wrapPglite(raw))
  // Every test database is a copy of `postgres` that never creates a database, so the template
  // databases go: half the dump's files (1,363 → ~700) and a third of its bytes, ~150 ms of CPU
  // less to load per test app (PGlite writes the files one by one into its in-memory file system).
  await raw.query(`UPDATE pg_database SET datistemplate = false WHERE datname IN ('template0', 'template1')`)
  await raw.query('DROP DATABASE template0')
  await raw.query('DROP DATABASE template1')
  // Uncompressed: loading it is ~150 ms of CPU cheaper per database than a gzipped one.
  const dump = await raw.dumpDataDir('none')
  await raw.close()
  mkdirSync('.tmp', { recursive: true })
  const file = `.tmp/pglite-template-${process.pid}.tar`
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()))
  console.log(JSON.stringify({ TEST_PGLITE_DUMP: file }))
}
