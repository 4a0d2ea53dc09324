import { startTracing } from './lib/tracing.ts'

// Tracing first: its instrumentations patch `http`, `pg` and Fastify as they are loaded, so the
// application (src/main.ts) is imported only once it runs. Without OTEL_EXPORTER_OTLP_ENDPOINT this
// loads nothing and the application starts as before.
const tracing = await startTracing()
const { run } = await import('./main.ts')
run(tracing)
