import type { App } from './app.ts'
import { loadDemoOnFirstStart, welcomeLines } from './cli/first-start.ts'
import type { SeedSummary } from './cli/seed.ts'
import { type Config, exitOnStartError, loadConfig } from './config.ts'
import { bootstrap } from './lib/bootstrap.ts'
import type { Clock } from './lib/clock.ts'
import { tuneGarbageCollector } from './lib/heap.ts'
import { UnknownMigrationsError } from './lib/migrate.ts'
import type { OpsState } from './lib/ops.ts'
import type { Tracing } from './lib/tracing.ts'

/**
 * The app as `npm start` serves it, not yet listening: the database migrated, the super admin
 * ensured, and on a newcomer's first start the demo data loaded (`demo`, src/cli/first-start.ts).
 */
export async function start(
  config: Config,
  state: OpsState,
  clock?: Clock,
): Promise<{ app: App; demo: SeedSummary | null }> {
  const app = await bootstrap(config, state, clock)
  try {
    return { app, demo: await loadDemoOnFirstStart(app) }
  } catch (err) {
    await app.close()
    throw err
  }
}

async function main(tracing: Tracing | undefined) {
  const config = loadConfig()
  tuneGarbageCollector(config.heapGrowthPercent)
  const state: OpsState = { draining: false }
  const { app, demo } = await start(config, state)
  if (config.jobsEnabled) app.ctx.jobs.start()
  await app.listen({ port: config.port, host: config.host })
  // Plain lines beside the JSON log: where to look, and the demo logins on a first start.
  process.stdout.write(`${welcomeLines(config, demo).join('\n')}\n`)

  // Graceful shutdown: /ready turns 503, the listener closes, in-flight requests finish (requests
  // arriving on open keep-alive connections are still served, with Connection: close), the job loop
  // finishes the jobs it claimed and claims no more, then the database closes. Whatever is still
  // running after SHUTDOWN_GRACE_SECONDS is abandoned: exit code 1.
  let closing = false
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, async () => {
      if (closing) return
      closing = true
      state.draining = true
      const grace = config.shutdownGraceSeconds
      app.log.info({ signal, graceSeconds: grace }, 'shutting down')
      const force = setTimeout(() => {
        app.log.error({ graceSeconds: grace }, 'shutdown grace period over: exiting with work unfinished')
        process.exit(1)
      }, grace * 1000)
      force.unref()
      try {
        // The job loop drains alongside the HTTP requests rather than after them.
        await Promise.all([app.ctx.jobs.stop(), app.close()])
      } catch (err) {
        app.log.error({ err }, 'shutdown failed')
        process.exit(1)
      }
      // The spans of the last requests leave before the process does.
      await tracing?.shutdown().catch((err) => app.log.warn({ err }, 'trace export failed at shutdown'))
      app.log.info('shut down cleanly')
      process.exit(0)
    })
  }
}

/** Started by src/server.ts, after tracing (when configured) is in place. */
export function run(tracing: Tracing | undefined): void {
  main(tracing).catch((err) => {
    if (err instanceof UnknownMigrationsError) {
      console.error(`Refusing to start: ${err.message}`)
      process.exit(1)
    }
    exitOnStartError(err)
  })
}
