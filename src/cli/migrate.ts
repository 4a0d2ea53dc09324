// npm run migrate            applies pending migrations
// npm run migrate -- status  lists applied and pending ones (and any this build does not know); changes nothing
import { join } from 'node:path'
import { exitOnStartError, loadConfig } from '../config.ts'
import { openDatabase } from '../lib/db.ts'
import { migrate, migrationStatus, UnknownMigrationsError } from '../lib/migrate.ts'

const command = process.argv[2] ?? 'up'
if (command !== 'up' && command !== 'status') {
  console.error(`unknown command "${command}"; use: npm run migrate [-- status]`)
  process.exit(2)
}
async function main() {
  const config = loadConfig()
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.databaseUrl ? undefined : join(config.dataDir, 'pglite'),
  })
  let code = 0
  try {
    if (command === 'status') {
      const status = await migrationStatus(database.db)
      for (const m of status.applied) {
        const state = status.unknown.includes(m.name) ? 'unknown' : 'applied'
        console.log(`${state.padEnd(8)} ${m.name}  ${m.appliedAt.toISOString()}`)
      }
      for (const name of status.pending) console.log(`pending  ${name}`)
      console.log(
        `${status.applied.length} applied, ${status.pending.length} pending` +
          (status.unknown.length ? `, ${status.unknown.length} unknown to this build (a newer version ran here)` : ''),
      )
      // Non-zero when this build cannot run against the database as it is.
      if (status.unknown.length) code = 1
    } else {
      const applied = await migrate(database.db)
      console.log(applied.length ? `applied: ${applied.join(', ')}` : 'nothing to migrate')
    }
  } catch (err) {
    if (!(err instanceof UnknownMigrationsError)) throw err
    console.error(`refusing to migrate: ${err.message}`)
    code = 1
  } finally {
    await database.close()
  }
  process.exit(code)
}

main().catch(exitOnStartError)
