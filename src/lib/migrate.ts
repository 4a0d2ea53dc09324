import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { sql } from 'kysely'
import type { Database, Executor } from './db.ts'

const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), '../../migrations')

/** The migrations/*.sql files this build carries, in the order they apply. */
export function knownMigrations(): string[] {
  // Read once: the files of a running build do not change (/ready asks on every probe).
  known ??= readdirSync(MIGRATIONS_DIR)
    .filter((f) => f.endsWith('.sql'))
    .sort()
  return known
}
let known: string[] | undefined

/**
 * The database has migrations this build does not know: a newer version migrated it. Running old
 * code against a newer schema can corrupt data, so the server and the migrator refuse to.
 */
export class UnknownMigrationsError extends Error {
  constructor(readonly names: string[]) {
    super(
      `the database has migrations this build does not know (a newer version ran there): ${names.join(', ')}. ` +
        'Deploy that version (or newer) instead.',
    )
  }
}

export interface MigrationStatus {
  applied: Array<{ name: string; appliedAt: Date }>
  pending: string[]
  /** Recorded in the database but absent from this build. */
  unknown: string[]
}

/** What is applied, what this build would apply, and what the database has that this build lacks. */
export async function migrationStatus(db: Executor): Promise<MigrationStatus> {
  const exists = await sql<{ t: string | null }>`SELECT to_regclass('schema_migrations')::text AS t`.execute(db)
  const rows = exists.rows[0]?.t
    ? (
        await sql<{ name: string; applied_at: Date }>`
          SELECT name, applied_at FROM schema_migrations ORDER BY name`.execute(db)
      ).rows
    : []
  const files = knownMigrations()
  const done = new Set(rows.map((r) => r.name))
  const knownSet = new Set(files)
  return {
    applied: rows.map((r) => ({ name: r.name, appliedAt: new Date(r.applied_at) })),
    pending: files.filter((f) => !done.has(f)),
    unknown: rows.map((r) => r.name).filter((n) => !knownSet.has(n)),
  }
}

/**
 * Applies every migrations/*.sql file not yet recorded, in name order, all in one transaction.
 * Throws UnknownMigrationsError (and applies nothing) when the database is ahead of this build.
 */
export async function migrate(db: Database): Promise<string[]> {
  await sql`CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`.execute(
    db,
  )
  // One migrator at a time across instances (no-op cost on PGlite).
  const applied: string[] = []
  await db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(727274)`.execute(trx)
    const status = await migrationStatus(trx)
    if (status.unknown.length > 0) throw new UnknownMigrationsError(status.unknown)
    for (const file of status.pending) {
      await sql.raw(readFileSync(join(MIGRATIONS_DIR, file), 'utf8')).execute(trx)
      await sql`INSERT INTO schema_migrations (name) VALUES (${file})`.execute(trx)
      applied.push(file)
    }
  })
  return applied
}
