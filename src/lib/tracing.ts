// OpenTelemetry traces, on only when OTEL_EXPORTER_OTLP_ENDPOINT is set. Unset, this file imports
// nothing from OpenTelemetry: the SDK and its instrumentations are loaded by dynamic import.
//
// The instrumentations patch `http` and `pg` as they are loaded. Under ESM that needs the
// import-in-the-middle loader hook, registered here before the SDK starts, and the application
// itself imported only afterwards (src/server.ts imports src/main.ts dynamically for that reason).
// Fastify is instrumented by @fastify/otel, which registers itself on every Fastify instance
// through Fastify's `fastify.initialization` diagnostics channel.

export interface Tracing {
  /** Exports the spans still buffered and stops the SDK. */
  shutdown(): Promise<void>
}

const PROBES = new Set(['/health', '/ready', '/metrics'])

export async function startTracing(env: NodeJS.ProcessEnv = process.env): Promise<Tracing | undefined> {
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT) return undefined
  const { register } = await import('node:module')
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url)
  const [{ NodeSDK }, { OTLPTraceExporter }, { HttpInstrumentation }, { PgInstrumentation }, fastifyOtel] =
    await Promise.all([
      import('@opentelemetry/sdk-node'),
      import('@opentelemetry/exporter-trace-otlp-http'),
      import('@opentelemetry/instrumentation-http'),
      import('@opentelemetry/instrumentation-pg'),
      import('@fastify/otel'),
    ])
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME || 'courtside',
    // Endpoint, headers and timeout come from the standard OTEL_EXPORTER_OTLP_* variables.
    traceExporter: new OTLPTraceExporter(),
    // Traces only: metrics are served by /metrics, logs go to stdout.
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      // Probes and scrapes every few seconds would bury the requests people look for.
      new HttpInstrumentation({ ignoreIncomingRequestHook: (req) => PROBES.has((req.url ?? '').split('?')[0]) }),
      // SQL outside a request (the job loop's polling, migrations) would be a trace per statement.
      new PgInstrumentation({ requireParentSpan: true }),
      new fastifyOtel.FastifyOtelInstrumentation({
        registerOnInitialization: true,
        ignorePaths: (route) => PROBES.has(route.url),
      }),
    ],
  })
  sdk.start()
  const { trace, SpanKind, SpanStatusCode } = await import('@opentelemetry/api')
  const tracer = trace.getTracer('courtside-pglite')
  traceSql = (text, run) => {
    if (!trace.getActiveSpan()) return run()
    // Like the pg instrumentation's spans: a client span with the statement, under the request's.
    return tracer.startActiveSpan(
      'pglite.query',
      { kind: SpanKind.CLIENT, attributes: { 'db.system.name': 'postgresql', 'db.query.text': text } },
      async (span) => {
        try {
          return await run()
        } catch (err) {
          span.recordException(err as Error)
          span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message })
          throw err
        } finally {
          span.end()
        }
      },
    )
  }
  return { shutdown: () => sdk.shutdown() }
}

type SqlTracing = <T>(text: string, run: () => Promise<T>) => Promise<T>
let traceSql: SqlTracing | undefined

/**
 * The embedded PGlite database does not go through `pg`, so the pg instrumentation cannot see its
 * queries: src/lib/db.ts runs them through this (a span per statement made inside a request).
 * Undefined while tracing is off.
 */
export function sqlTracing(): SqlTracing | undefined {
  return traceSql
}
