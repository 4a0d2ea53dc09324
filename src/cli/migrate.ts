import { join } from 'node:path'
import { exitOnStartError, loadConfig } from '../config.ts'
import { openDatabase } from '../lib/db.ts'
import { migrate } from '../lib/migrate.ts'

async function main() {
  const config = loadConfig()
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.databaseUrl ? undefined : join(config.dataDir, 'pglite'),
  })
  try {
    const applied = await migrate(database.db)
    console.log(applied.length ? `applied: ${applied.join(', ')}` : 'nothing to migrate')
  } finally {
    await database.close()
  }
}

main().catch(exitOnStartError)
