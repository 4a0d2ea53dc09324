import { exitOnStartError, loadConfig } from './config.ts'
import { bootstrap } from './lib/bootstrap.ts'

async function main() {
  const config = loadConfig()
  const app = await bootstrap(config)
  if (config.jobsEnabled) app.ctx.jobs.start()
  await app.listen({ port: config.port, host: config.host })

  // Graceful shutdown: stop taking connections, finish in-flight requests and jobs, close the database.
  let closing = false
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, async () => {
      if (closing) return
      closing = true
      app.log.info({ signal }, 'shutting down')
      const force = setTimeout(() => process.exit(1), 15_000)
      force.unref()
      await app.close()
      process.exit(0)
    })
  }
}

main().catch(exitOnStartError)
