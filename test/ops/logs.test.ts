import assert from 'node:assert/strict'
import { test } from 'node:test'
import { sql } from 'kysely'
import { build } from '../helpers/app.ts'
import { createUser, createVenue } from '../helpers/factories.ts'

// One info line per request (route, status, duration, request id); probes only at debug; an error
// line with its stack only for real faults (5xx), never for a client's mistake (4xx).

interface Line {
  level: number
  msg: string
  reqId?: string
  route?: string
  status?: number
  method?: string
  ms?: number
  err?: { stack?: string; message?: string }
}

async function appWithLogs(t: Parameters<typeof build>[0], level = 'info') {
  const lines: Line[] = []
  const app = await build(t, { LOG_LEVEL: level }, { logStream: { write: (l) => lines.push(JSON.parse(l)) } })
  return { app, lines }
}

test('one info line per request with route, status, duration and request id; 4xx is not an error', async (t) => {
  const { app, lines } = await appWithLogs(t)
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const venue = await createVenue(app, owner.id)
  const ok = await app.inject({
    method: 'GET',
    url: `/api/venues/${venue.slug}`,
    headers: { 'x-request-id': 'req-ok-1' },
  })
  assert.equal(ok.statusCode, 200)
  const missing = await app.inject({ method: 'GET', url: '/api/venues/nope', headers: { 'x-request-id': 'req-404' } })
  assert.equal(missing.statusCode, 404)
  const invalid = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: {},
    headers: { 'x-request-id': 'req-422' },
  })
  assert.equal(invalid.statusCode, 422)
  const unauth = await app.inject({ method: 'GET', url: '/api/auth/me', headers: { 'x-request-id': 'req-401' } })
  assert.equal(unauth.statusCode, 401)
  for (const url of ['/health', '/ready', '/metrics']) await app.inject({ method: 'GET', url })

  const requests = lines.filter((l) => l.msg === 'request')
  assert.deepEqual(
    requests.map((l) => [l.level, l.reqId, l.method, l.route, l.status]),
    [
      [30, 'req-ok-1', 'GET', '/api/venues/:venue', 200],
      [30, 'req-404', 'GET', '/api/venues/:venue', 404],
      [30, 'req-422', 'POST', '/api/auth/login', 422],
      [30, 'req-401', 'GET', '/api/auth/me', 401],
    ],
  )
  for (const l of requests) assert.equal(typeof l.ms, 'number')
  // Nothing else per request (Fastify's own "incoming request"/"request completed" are off), no errors.
  assert.deepEqual(
    lines.filter((l) => l.reqId && l.msg !== 'request'),
    [],
  )
  assert.deepEqual(
    lines.filter((l) => l.level >= 50),
    [],
  )
})

test('probes are logged at debug level', async (t) => {
  const { app, lines } = await appWithLogs(t, 'debug')
  await app.inject({ method: 'GET', url: '/ready' })
  const probe = lines.find((l) => l.msg === 'request' && l.route === '/ready')
  assert.equal(probe?.level, 20)
})

test('a real fault (5xx) is logged at error with its stack, and the client gets no details', async (t) => {
  const { app, lines } = await appWithLogs(t)
  // The venues table disappears under the running app (a fresh database, dropped after the test):
  // a fault, not the client's mistake.
  await sql`ALTER TABLE venues RENAME TO venues_gone`.execute(app.ctx.db)
  const res = await app.inject({ method: 'GET', url: '/api/venues/some-venue', headers: { 'x-request-id': 'req-500' } })
  assert.equal(res.statusCode, 500)
  assert.deepEqual(res.json(), { message: 'Server Error.' })
  const errors = lines.filter((l) => l.level >= 50)
  assert.equal(errors.length, 1)
  assert.equal(errors[0].reqId, 'req-500')
  assert.match(errors[0].err?.stack ?? '', /venues/)
  assert.match(errors[0].err?.stack ?? '', /\n\s+at /)
  const line = lines.find((l) => l.msg === 'request' && l.reqId === 'req-500')
  assert.equal(line?.status, 500)
})

test('the request line has the shape pino gives every other line: level, time, pid, hostname, then its fields', async (t) => {
  const raw: string[] = []
  const app = await build(t, { LOG_LEVEL: 'info' }, { logStream: { write: (l) => raw.push(l) } })
  app.log.info({ reqId: 'by-pino', method: 'GET', route: '/x', status: 200, ms: 1.5 }, 'request')
  await app.inject({ method: 'GET', url: '/api/auth/me', headers: { 'x-request-id': 'req-"quoted"' } })
  await app.inject({ method: 'GET', url: '/api/auth/me', headers: { 'x-request-id': 'req-line' } })
  const byPino = JSON.parse(raw.find((l) => l.includes('"by-pino"')) as string)
  const ours = raw.find((l) => l.includes('"req-line"')) as string
  assert.ok(ours.endsWith('}\n'))
  const line = JSON.parse(ours)
  assert.deepEqual(Object.keys(line), Object.keys(byPino))
  assert.deepEqual(
    { ...line, time: 0, ms: 0 },
    { ...byPino, time: 0, ms: 0, reqId: 'req-line', route: '/api/auth/me', status: 401 },
  )
  assert.equal(typeof line.time, 'number')
  // A request id it did not accept (quotes) was replaced by a generated one, still valid JSON.
  assert.equal(raw.filter((l) => l.includes('"msg":"request"')).length, 3)
})
