import assert from 'node:assert/strict'
import { createServer, type IncomingMessage } from 'node:http'
import { join } from 'node:path'
import { test } from 'node:test'
import { pathToFileURL } from 'node:url'
import { gunzipSync } from 'node:zlib'
import { daysFromNow } from '../helpers/factories.ts'
import { processDatabase, SERVER_START_MS, seedBookableVenue, startServer } from './process.ts'

// OpenTelemetry: the real server, with OTEL_EXPORTER_OTLP_ENDPOINT pointing at a local OTLP/HTTP
// receiver, exports one trace per request: the HTTP server span, the Fastify request and handler
// spans under it and the SQL spans under those. On PostgreSQL the SQL spans come from the pg
// instrumentation; the embedded PGlite database does not go through `pg`, so src/lib/db.ts makes
// the same kind of span itself (scope courtside-pglite).

interface Span {
  traceId: string
  spanId: string
  parentSpanId?: string
  name: string
  kind: number
  scope: string
  attributes: Record<string, unknown>
}

function body(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => resolve(Buffer.concat(chunks)))
    req.on('error', reject)
  })
}

/** A local OTLP/HTTP trace receiver (JSON encoding) that keeps every span it is sent. */
async function otlpReceiver() {
  const spans: Span[] = []
  const paths: string[] = []
  const server = createServer(async (req, res) => {
    paths.push(`${req.method} ${req.url}`)
    let raw = await body(req)
    if (req.headers['content-encoding'] === 'gzip') raw = gunzipSync(raw)
    // biome-ignore lint/suspicious/noExplicitAny: the OTLP JSON document, read field by field
    const doc = JSON.parse(raw.toString()) as any
    for (const rs of doc.resourceSpans ?? [])
      for (const ss of rs.scopeSpans ?? [])
        for (const s of ss.spans ?? [])
          spans.push({
            traceId: s.traceId,
            spanId: s.spanId,
            parentSpanId: s.parentSpanId || undefined,
            name: s.name,
            kind: s.kind,
            scope: ss.scope?.name ?? '',
            attributes: Object.fromEntries(
              // biome-ignore lint/suspicious/noExplicitAny: OTLP AnyValue
              (s.attributes ?? []).map((a: any) => [a.key, Object.values(a.value ?? {})[0]]),
            ),
          })
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const address = server.address()
  if (typeof address !== 'object' || !address) throw new Error('no port')
  return {
    url: `http://127.0.0.1:${address.port}`,
    spans,
    paths,
    close: () => new Promise((r) => server.close(r)),
  }
}

async function until<T>(what: string, find: () => T | undefined, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const found = find()
    if (found !== undefined) return found
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

test('with OTEL_EXPORTER_OTLP_ENDPOINT: a booking request is one trace, HTTP → Fastify → SQL', async (t) => {
  const db = await processDatabase()
  t.after(() => db.drop())
  await seedBookableVenue(db, 'otel')
  const otlp = await otlpReceiver()
  t.after(() => otlp.close())
  const server = await startServer(
    {
      ...db.env,
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
      OTEL_BSP_SCHEDULE_DELAY: '100',
      OTEL_SERVICE_NAME: 'courtside-test',
    },
    SERVER_START_MS,
  )
  t.after(async () => {
    server.child.kill('SIGKILL')
    await server.exited
  })
  const call = async (method: string, path: string, token?: string, payload?: unknown) => {
    const res = await fetch(`http://127.0.0.1:${server.port}/api${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: payload === undefined ? undefined : JSON.stringify(payload),
    })
    // biome-ignore lint/suspicious/noExplicitAny: JSON answers of several routes
    return { status: res.status, body: (await res.json()) as Record<string, any> }
  }
  const token = (await call('POST', '/auth/login', undefined, { email: 'customer@otel.test', password: 'password123' }))
    .body.token as string
  const courts = await call('GET', '/venues/otel-arena/courts')
  const courtId = (courts.body.data as Array<{ id: number }>)[0].id
  const booked = await call('POST', '/bookings', token, {
    court_id: courtId,
    // The spawned server (src/server.ts) runs on the system clock and takes no ManualClock: its "today" is the real one.
    date: daysFromNow(3),
    start_time: '18:00',
    end_time: '19:00',
  })
  assert.equal(booked.status, 201, JSON.stringify(booked.body))

  // The HTTP server span of the booking request (kind SERVER = 2) is the trace's root.
  const root = await until('the POST /api/bookings server span', () =>
    otlp.spans.find(
      (s) =>
        s.kind === 2 &&
        s.scope === '@opentelemetry/instrumentation-http' &&
        s.attributes['http.request.method'] === 'POST' &&
        s.attributes['url.path'] === '/api/bookings',
    ),
  )
  assert.equal(root.parentSpanId, undefined, 'the server span starts the trace')
  // Every span of the request is exported with the root (they end before it); give the batch a moment.
  await new Promise((r) => setTimeout(r, 300))
  const trace = otlp.spans.filter((s) => s.traceId === root.traceId)
  const byId = new Map(trace.map((s) => [s.spanId, s]))
  const descends = (s: Span) => {
    for (let p = s.parentSpanId; p; p = byId.get(p)?.parentSpanId) if (p === root.spanId) return true
    return false
  }
  t.diagnostic(
    `${trace.length} spans: ${[...new Set(trace.map((s) => `${s.scope}:${s.name}`))].slice(0, 30).join(', ')}`,
  )

  const fastify = trace.filter((s) => s.scope === '@fastify/otel')
  const request = fastify.find((s) => s.name === 'request')
  assert.ok(request, 'a Fastify request span')
  assert.ok(descends(request))
  assert.equal(request.attributes['http.route'], '/api/bookings')
  assert.equal(request.attributes['http.response.status_code'], 201)
  const handler = fastify.find((s) => s.name.startsWith('handler'))
  assert.ok(handler, 'a Fastify handler span')
  assert.ok(descends(handler))
  assert.equal(handler.attributes['http.route'], '/api/bookings')
  // Exactly one trace for the booking request: no second Fastify request span for it elsewhere.
  assert.equal(
    otlp.spans.filter(
      (s) => s.scope === '@fastify/otel' && s.name === 'request' && s.attributes['url.path'] === '/api/bookings',
    ).length,
    1,
  )

  const sqlScope = process.env.TEST_DATABASE_URL ? '@opentelemetry/instrumentation-pg' : 'courtside-pglite'
  const sql = trace.filter((s) => s.scope === sqlScope && s.attributes['db.query.text'])
  assert.ok(sql.length > 0, `SQL spans from ${sqlScope}`)
  for (const s of sql) {
    assert.ok(descends(s), `${s.name} is part of the request`)
    assert.equal(s.kind, 3, 'a client span')
  }
  assert.ok(
    sql.some((s) => /insert into "bookings"/i.test(String(s.attributes['db.query.text']))),
    'the booking INSERT is traced',
  )
  // Not traced: the /health probes startServer made, and SQL outside a request (migrations, job loop).
  assert.ok(!otlp.spans.some((s) => s.attributes['url.path'] === '/health'), 'no /health spans')
  assert.ok(
    otlp.spans.filter((s) => s.scope === sqlScope).every((s) => s.parentSpanId),
    'no SQL span without a request',
  )
  assert.ok(otlp.paths.every((p) => p === 'POST /v1/traces'))
})

test('SIGTERM exports the spans still buffered before the process exits', async (t) => {
  const db = await processDatabase()
  t.after(() => db.drop())
  const otlp = await otlpReceiver()
  t.after(() => otlp.close())
  // A schedule delay far beyond the test: only the shutdown's flush can send the spans.
  const server = await startServer(
    { ...db.env, OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url, OTEL_BSP_SCHEDULE_DELAY: '600000' },
    SERVER_START_MS,
  )
  const res = await fetch(`http://127.0.0.1:${server.port}/api/venues`)
  assert.equal(res.status, 200)
  await res.arrayBuffer()
  await new Promise((r) => setTimeout(r, 200))
  assert.equal(otlp.spans.length, 0, 'nothing exported yet')
  server.child.kill('SIGTERM')
  const exit = await server.exited
  assert.equal(exit.code, 0, exit.stderr + exit.stdout)
  assert.ok(
    otlp.spans.some((s) => s.kind === 2 && s.attributes['url.path'] === '/api/venues'),
    'the request span arrived',
  )
})

// prom-client loads @opentelemetry/api (for exemplars) whatever the setting, so that one is allowed:
// the SDK, the exporter and the instrumentations are what tracing would add.
test('without OTEL_EXPORTER_OTLP_ENDPOINT: no OpenTelemetry SDK, exporter or instrumentation is loaded', async () => {
  // Then, as a control that the check sees them, the same process turns tracing on. Under npm test
  // the modules are src/ as JavaScript (test/helpers/entry.ts), else the TypeScript through tsx.
  const compiled = process.env.TEST_SRC_JS
  const module = (path: string) =>
    JSON.stringify(compiled ? pathToFileURL(join(compiled, path.replace(/\.ts$/, '.js'))).href : `./${path}`)
  const code = `
    const { createRequire } = await import('node:module')
    const otel = () => Object.keys(createRequire(import.meta.url).cache).filter((f) => /@opentelemetry[\\/](?!api[\\/])|@fastify[\\/]otel|import-in-the-middle/.test(f))
    const { startTracing } = await import(${module('src/lib/tracing.ts')})
    const off = await startTracing({})
    await import(${module('src/app.ts')})
    const loadedOff = otel()
    const on = await startTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' })
    const loadedOn = otel().length
    await on.shutdown()
    console.log(JSON.stringify({ off: off ?? null, loadedOff, loadedOn: loadedOn > 0 }))`
  const { execFileSync } = await import('node:child_process')
  const out = execFileSync(
    process.execPath,
    [...(compiled ? [] : ['--import', 'tsx']), '--input-type=module', '-e', code],
    {
      encoding: 'utf8',
    },
  )
  assert.deepEqual(JSON.parse(out.trim().split('\n').pop() ?? ''), { off: null, loadedOff: [], loadedOn: true })
})
