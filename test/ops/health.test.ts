import assert from 'node:assert/strict'
import { test } from 'node:test'
import { sql } from 'kysely'
import { build } from '../helpers/app.ts'

// GET /health (the process is up) and GET /ready (the parts this instance needs answer).

test('/health answers ok; /ready lists every part', async (t) => {
  const app = await build(t)
  const health = await app.inject({ method: 'GET', url: '/health' })
  assert.equal(health.statusCode, 200)
  assert.deepEqual(health.json(), { status: 'ok' })
  const ready = await app.inject({ method: 'GET', url: '/ready' })
  assert.equal(ready.statusCode, 200, ready.body)
  // Tests run without the cache and the job loop: those parts are "off", not failing.
  assert.deepEqual(ready.json(), {
    status: 'ok',
    checks: { database: 'ok', migrations: 'ok', cache: 'off', jobs: 'off' },
  })
})

test('/ready is 503 naming the job loop until it runs, and again once it stops', async (t) => {
  const app = await build(t, { JOBS_ENABLED: 'true', JOBS_POLL_MS: '20' })
  let res = await app.inject({ method: 'GET', url: '/ready' })
  assert.equal(res.statusCode, 503)
  assert.equal(res.json().message, 'Not ready: jobs.')
  assert.equal(res.json().status, 'unavailable')
  assert.equal(res.json().checks.jobs, 'failing: job loop not running')
  assert.equal(res.json().checks.database, 'ok')
  app.ctx.jobs.start()
  res = await app.inject({ method: 'GET', url: '/ready' })
  assert.equal(res.statusCode, 200, res.body)
  assert.equal(res.json().checks.jobs, 'ok')
  await app.ctx.jobs.stop()
  res = await app.inject({ method: 'GET', url: '/ready' })
  assert.equal(res.statusCode, 503)
})

test('/ready is 503 once shutdown has begun (server.ts sets draining on SIGTERM)', async (t) => {
  const state = { draining: false }
  const app = await build(t, {}, { opsState: state })
  assert.equal((await app.inject({ method: 'GET', url: '/ready' })).statusCode, 200)
  state.draining = true
  const res = await app.inject({ method: 'GET', url: '/ready' })
  assert.equal(res.statusCode, 503)
  assert.equal(res.json().message, 'Not ready: shutdown.')
  assert.equal(res.json().checks.shutdown, 'failing: shutting down')
  // Liveness is unaffected: the process is still up and finishing its work.
  assert.equal((await app.inject({ method: 'GET', url: '/health' })).statusCode, 200)
})

test('/ready checks the cache invalidation listener when the cache is on', async (t) => {
  const app = await build(t, { CACHE_TTL_MS: '30000' })
  const res = await app.inject({ method: 'GET', url: '/ready' })
  assert.equal(res.statusCode, 200, res.body)
  assert.equal(res.json().checks.cache, 'ok')
})

test('/ready is 503 naming migrations that are pending or unknown to this build', async (t) => {
  const app = await build(t)
  const db = app.ctx.db
  await sql`INSERT INTO schema_migrations (name) VALUES ('999_from_the_future.sql')`.execute(db)
  let res = await app.inject({ method: 'GET', url: '/ready' })
  assert.equal(res.statusCode, 503)
  assert.equal(res.json().message, 'Not ready: migrations.')
  assert.equal(res.json().checks.migrations, 'failing: unknown to this build: 999_from_the_future.sql')
  await sql`DELETE FROM schema_migrations WHERE name IN ('999_from_the_future.sql', '005_cache_tags.sql')`.execute(db)
  res = await app.inject({ method: 'GET', url: '/ready' })
  assert.equal(res.statusCode, 503)
  assert.equal(res.json().checks.migrations, 'failing: pending: 005_cache_tags.sql')
})

test('/ready is 503 naming the database when it does not answer in time', async (t) => {
  const app = await build(t)
  // Another session holds schema_migrations (on PGlite: the one session) past the 2 s deadline.
  let release!: () => void
  const held = new Promise<void>((r) => {
    release = r
  })
  let locked!: () => void
  const isLocked = new Promise<void>((r) => {
    locked = r
  })
  const holder = app.ctx.db.transaction().execute(async (trx) => {
    await sql`LOCK TABLE schema_migrations IN ACCESS EXCLUSIVE MODE`.execute(trx)
    locked()
    await held
  })
  await isLocked
  const res = await app.inject({ method: 'GET', url: '/ready' })
  release()
  await holder
  assert.equal(res.statusCode, 503)
  assert.equal(res.json().message, 'Not ready: database, migrations.')
  assert.equal(res.json().checks.database, 'failing: no answer within 2000 ms')
  const again = await app.inject({ method: 'GET', url: '/ready' })
  assert.equal(again.statusCode, 200, again.body)
})

test('probes and the scrape are never rate-limited; /health and /ready are in the OpenAPI document', async (t) => {
  const app = await build(t, { RATE_LIMIT_ENABLED: 'true', RATE_LIMIT_DEFAULT: '2' })
  for (const url of ['/health', '/ready', '/metrics']) {
    for (let i = 0; i < 5; i++) {
      const res = await app.inject({ method: 'GET', url, remoteAddress: '10.9.9.9' })
      assert.equal(res.statusCode, 200, `${url}: ${res.body}`)
      assert.equal(res.headers['x-ratelimit-limit'], undefined, url)
    }
  }
  const limited = await app.inject({ method: 'GET', url: '/api/auth/me', remoteAddress: '10.9.9.9' })
  assert.equal(limited.headers['x-ratelimit-limit'], '2')
  const doc = (await app.inject({ method: 'GET', url: '/docs/json' })).json()
  assert.ok(doc.paths['/health']?.get, '/health documented')
  assert.ok(doc.paths['/ready']?.get?.responses['503'], '/ready documented with its 503')
  assert.equal(doc.paths['/metrics'], undefined)
})
