// OpenTelemetry traces, on only when OTEL_EXPORTER_OTLP_ENDPOINT is set. Unset, this file imports
// nothing from OpenTelemetry: the SDK and its instrumentations are loaded by dynamic import.
//
// The instrumentations patch `http` and `pg` as they are loaded. Under ESM that needs the
// import-in-the-middle loader hook, registered here before the SDK starts, and the application
// itself imported only afterwards (src/server.ts imports src/main.ts dynamically for that reason).
// Fastify is instrumented by @fastify/otel, which registers itself on every Fastify instance
// through Fastify's `fastify.initialization` diagnostics channel.

import type { Tracer } from '@opentelemetry/api'

export interface Tracing {
  /** Exports the spans still buffered and stops the SDK. */
  shutdown(): Promise<void>
}

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
      new HttpInstrumentation(),
      new PgInstrumentation(),
      new fastifyOtel.FastifyOtelInstrumentation({ registerOnInitialization: true }),
    ],
  })
  sdk.start()
  const { trace } = await import('@opentelemetry/api')
  pgliteTracer = trace.getTracer('courtside-pglite')
  return { shutdown: () => sdk.shutdown() }
}

let pgliteTracer: Tracer | undefined

/**
 * The embedded PGlite database does not go through `pg`, so the pg instrumentation cannot see its
 * queries: src/lib/db.ts makes their spans with this tracer. Undefined while tracing is off.
 */
export function sqlTracer(): Tracer | undefined {
  return pgliteTracer
}
