import { join } from 'node:path'
import { type App, buildApp } from '../app.ts'
import type { Config } from '../config.ts'
import type { Clock } from './clock.ts'
import { openDatabase } from './db.ts'
import { migrate } from './migrate.ts'
import type { OpsState } from './ops.ts'
import { hashPassword, setPasswordCost } from './password.ts'

/**
 * Opens the configured database, applies migrations, ensures the super admin, and builds the app
 * (on `clock`, the system clock by default; tests pass a ManualClock).
 * Throws UnknownMigrationsError (the database is ahead of this build) before serving anything.
 */
export async function bootstrap(config: Config, opsState?: OpsState, clock?: Clock): Promise<App> {
  setPasswordCost(config.argon2MemoryKib)
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    poolSize: config.databasePoolSize,
    prepare: config.databasePrepare,
    dataDir: config.databaseUrl ? undefined : join(config.dataDir, 'pglite'),
  })
  try {
    await migrate(database.db)
  } catch (err) {
    await database.close()
    throw err
  }
  const app = await buildApp({ config, database, processMetrics: true, opsState, clock })
  // onClose hooks run last-added first: this one runs before app.ts's, so it stops the job loop
  // (which finishes its claimed jobs) before closing the database under it.
  app.addHook('onClose', async () => {
    await app.ctx.jobs.stop()
    await database.close()
  })
  await ensureSuperAdmin(app)
  return app
}

export async function ensureSuperAdmin(app: App) {
  const { superAdminEmail: email, superAdminPassword: password } = app.ctx.config
  if (!email || !password) return
  const db = app.ctx.db
  await db.transaction().execute(async (trx) => {
    let user = await trx.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()
    if (!user) {
      user = await trx
        .insertInto('users')
        .values({
          name: 'Super Admin',
          email,
          password_hash: await hashPassword(password),
          email_verified_at: app.ctx.clock.now(),
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      app.log.info({ email }, 'super admin created')
    }
    const role = await trx.selectFrom('roles').select('id').where('name', '=', 'super_admin').executeTakeFirstOrThrow()
    await trx
      .insertInto('user_roles')
      .values({ user_id: user.id, role_id: role.id })
      .onConflict((oc) => oc.doNothing())
      .execute()
  })
}
