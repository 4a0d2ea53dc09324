import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { sql } from 'kysely'
import type { Database } from './db.ts'

const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), '../../migrations')

/** Applies every migrations/*.sql file not yet recorded, in name order, each in its own transaction. */
export async function migrate(db: Database): Promise<string[]> {
  await sql`CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`.execute(
    db,
  )
  // One migrator at a time across instances (no-op cost on PGlite).
  const applied: string[] = []
  await db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(727274)`.execute(trx)
    const done = new Set(
      (await sql<{ name: string }>`SELECT name FROM schema_migrations`.execute(trx)).rows.map((r) => r.name),
    )
    const files = readdirSync(MIGRATIONS_DIR)
      .filter((f) => f.endsWith('.sql'))
      .sort()
    for (const file of files) {
      if (done.has(file)) continue
      await sql.raw(readFileSync(join(MIGRATIONS_DIR, file), 'utf8')).execute(trx)
      await sql`INSERT INTO schema_migrations (name) VALUES (${file})`.execute(trx)
      applied.push(file)
    }
  })
  return applied
}
