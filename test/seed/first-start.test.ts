import assert from 'node:assert/strict'
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { after, test } from 'node:test'
import { demoDataWanted, welcomeLines } from '../../src/cli/first-start.ts'
import { DEMO_PASSWORD, DEMO_USERS } from '../../src/cli/seed-data.ts'
import { loadConfig } from '../../src/config.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { createPglite, wrapPglite } from '../../src/lib/db.ts'
import { migrate } from '../../src/lib/migrate.ts'
import { setPasswordCost } from '../../src/lib/password.ts'
import { start } from '../../src/main.ts'
import { checkLedger } from '../../src/modules/ledger/index.ts'
import { copyMigratedDataDir } from '../ops/process.ts'

// Issue 34, "A newcomer sees it working": `npm start`'s startup (src/main.ts `start`) on a fresh
// embedded database in development loads the demo data once and says how to sign in; DEMO_DATA=false,
// production and a database with data of its own are never seeded. Always embedded PGlite in a
// directory of its own: the first start is about the embedded database.

const clock = new ManualClock('2031-03-10T03:00:00Z')
const dirs: string[] = []
let n = 0
after(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true })
})

function freshDir() {
  const dir = `.tmp/first-start-${process.pid}-${++n}`
  dirs.push(dir)
  return dir
}

/**
 * A directory whose embedded database is already migrated and empty: a file copy of the data
 * directory made from the template scripts/test.mjs prepared for PGlite runs (test/ops/process.ts),
 * or (on a PostgreSQL run, which prepares none) a copy of one migrated here once. The tests that are
 * not about migrating a fresh directory start here: creating and migrating a PGlite database costs
 * seconds of CPU, and the first test already covers that path.
 */
async function migratedDir() {
  const dir = freshDir()
  if (!(await copyMigratedDataDir(dir)))
    await (await createPglite(join(dir, 'pglite'), await migratedTemplate())).close()
  return dir
}

let template: Promise<Blob> | undefined
function migratedTemplate(): Promise<Blob> {
  template ??= (async () => {
    const raw = await createPglite()
    await migrate(wrapPglite(raw))
    const dump = await raw.dumpDataDir('none')
    await raw.close()
    return dump
  })()
  return template
}

function config(dataDir: string, env: Record<string, string> = {}) {
  const c = loadConfig({
    NODE_ENV: 'development',
    LOG_LEVEL: 'silent',
    JOBS_ENABLED: 'false',
    APP_URL: 'http://127.0.0.1:8000',
    DATA_DIR: dataDir,
    ...env,
  })
  return { ...c, argon2MemoryKib: 1024 }
}

async function venues(app: { ctx: { db: import('../../src/lib/db.ts').Executor } }) {
  const row = await app.ctx.db
    .selectFrom('venues')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

test('the first start of an empty embedded database in development loads the demo data, once', async () => {
  setPasswordCost(1024)
  const dir = freshDir()
  // The configured super admin, created before the check, does not count as data of its own.
  const superAdmin = { SUPER_ADMIN_EMAIL: 'root@example.com', SUPER_ADMIN_PASSWORD: 'Root@12345' }
  const first = await start(config(dir, superAdmin), { draining: false }, clock)
  try {
    assert.ok(first.demo, 'the demo data was loaded')
    assert.equal(first.demo.venues, 9)
    assert.equal(await venues(first.app), 9)
    // As `npm run seed`: with the first venue's past (bookings and payments), and the books balance.
    const bookings = await first.app.ctx.db
      .selectFrom('bookings')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow()
    assert.ok(Number(bookings.n) > 0, 'the demo history was loaded')
    assert.deepEqual((await checkLedger(first.app.ctx.db)).problems, [])
    // The demo people sign in with the printed password.
    const login = await first.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'owner1@courtside.test', password: DEMO_PASSWORD },
    })
    assert.equal(login.statusCode, 200, login.body)
    const lines = welcomeLines(first.app.ctx.config, first.demo).join('\n')
    for (const u of DEMO_USERS) assert.match(lines, new RegExp(u.email.replace('.', '\\.')))
    assert.match(lines, new RegExp(`password +${DEMO_PASSWORD}`))
    assert.match(lines, /Players: +http:\/\/127\.0\.0\.1:8000\/\n/)
    assert.match(lines, /Venue staff: +http:\/\/127\.0\.0\.1:8000\/console\/\n/)
    assert.match(lines, /Integrators: +http:\/\/127\.0\.0\.1:8000\/docs\n/)
  } finally {
    await first.app.close()
  }

  // The same directory again: it has data now, so nothing is loaded twice.
  const second = await start(config(dir, superAdmin), { draining: false }, clock)
  try {
    assert.equal(second.demo, null)
    assert.equal(await venues(second.app), 9)
    const lines = welcomeLines(second.app.ctx.config, null).join('\n')
    assert.match(lines, /\/console\//)
    assert.doesNotMatch(lines, /Demo data loaded/)
  } finally {
    await second.app.close()
  }
})

test('DEMO_DATA=false starts empty, and a later start does not seed a database with accounts in it', async () => {
  const dir = await migratedDir()
  const off = await start(config(dir, { DEMO_DATA: 'false' }), { draining: false }, clock)
  try {
    assert.equal(off.demo, null)
    assert.equal(await venues(off.app), 0)
    // Someone signs up: the database now holds data of its own.
    const res = await off.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: {
        name: 'First Person',
        email: 'first@example.com',
        phone: '9800000001',
        password: 'Secret@123',
        password_confirmation: 'Secret@123',
      },
    })
    assert.equal(res.statusCode, 201, res.body)
  } finally {
    await off.app.close()
  }
  const on = await start(config(dir), { draining: false }, clock)
  try {
    assert.equal(on.demo, null)
    assert.equal(await venues(on.app), 0)
  } finally {
    await on.app.close()
  }
})

test('production never loads the demo data, nor does a PostgreSQL server', async () => {
  const dir = await migratedDir()
  const production = config(dir, {
    NODE_ENV: 'production',
    APP_KEY: 'a-production-key-for-this-test-only-0123456789',
    PAYMENT_SANDBOX_IN_PRODUCTION: 'true',
    OUTBOX_LOG_IN_PRODUCTION: 'true',
    METRICS_PUBLIC: 'true',
  })
  assert.equal(demoDataWanted(production), false)
  const started = await start(production, { draining: false }, clock)
  try {
    assert.equal(started.demo, null)
    assert.equal(await venues(started.app), 0)
  } finally {
    await started.app.close()
  }
  assert.equal(demoDataWanted(config(dir, { DATABASE_URL: 'postgres://127.0.0.1:5432/courtside' })), false)
  assert.equal(demoDataWanted(config(dir, { DEMO_DATA: 'false' })), false)
  assert.equal(demoDataWanted(config(dir)), true)
})
