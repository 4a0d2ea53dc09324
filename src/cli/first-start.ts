import type { App } from '../app.ts'
import type { Config } from '../config.ts'
import type { Executor } from '../lib/db.ts'
import { type SeedSummary, seedDemo } from './seed.ts'

// Issue 34, "A newcomer sees it working": the first `npm start` on an empty embedded database in
// development loads the demo data (the same as `npm run seed`) and says how to sign in; every start
// says where to look. Production, a PostgreSQL server (DATABASE_URL) and DEMO_DATA=false never seed,
// and a database that holds anything of its own is never touched.

/** Why the demo data is or is not loaded at this start (without looking at the database). */
export function demoDataWanted(config: Config): boolean {
  return config.env === 'development' && config.demoData && !config.databaseUrl
}

/**
 * Nothing of anyone's yet: no venue and no account other than the configured super admin (which
 * bootstrap creates before this runs).
 */
export async function databaseIsEmpty(db: Executor, superAdminEmail: string | undefined): Promise<boolean> {
  const venue = await db.selectFrom('venues').select('id').limit(1).executeTakeFirst()
  if (venue) return false
  let users = db.selectFrom('users').select('id')
  if (superAdminEmail) users = users.where('email', '!=', superAdminEmail)
  return (await users.limit(1).executeTakeFirst()) === undefined
}

/** Loads the demo data when this start is a newcomer's first one; the summary when it did. */
export async function loadDemoOnFirstStart(app: App): Promise<SeedSummary | null> {
  const { config, db, zone, clock, storage } = app.ctx
  if (!demoDataWanted(config)) return null
  if (!(await databaseIsEmpty(db, config.superAdminEmail))) return null
  app.log.info('first start on an empty database: loading the demo data (DEMO_DATA=false skips it)')
  // Exactly what `npm run seed` loads: with the first venue's past, so reports have data at once.
  return seedDemo(db, {
    zone,
    clock,
    history: true,
    commissionBasisPoints: config.platformCommissionBasisPoints,
    storage,
  })
}

/** The lines `npm start` prints: where players, staff and integrators look, and the demo logins. */
export function welcomeLines(config: Config, demo: SeedSummary | null): string[] {
  const base = config.appUrl.replace(/\/+$/, '')
  const lines = [
    '',
    `Courtside is running at ${base}`,
    `  Players:        ${base}/`,
    `  Venue staff:    ${base}/console/`,
    `  Integrators:    ${base}/docs`,
  ]
  if (demo) {
    lines.push(
      '',
      `Demo data loaded (${demo.venues} venues, ${demo.courts} courts, ${demo.indoorGames} indoor games). Sign in as:`,
      ...demo.users.map((u) => `  ${u.role.padEnd(12)} ${u.email}`),
      `  password     ${demo.password}`,
      'Set DEMO_DATA=false to start with an empty database instead.',
    )
  }
  lines.push('')
  return lines
}
