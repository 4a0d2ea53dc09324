import type { AppContext } from '../../lib/context.ts'
import { announceDeadlines } from './notices.ts'

// The open matches' sweep, through the shared job queue (one run per period across instances).

export const DEADLINE_SWEEP_MS = 60_000

export function registerMatchJobs(ctx: AppContext) {
  ctx.jobs.every('matches.deadline-near', DEADLINE_SWEEP_MS, async () => {
    await announceDeadlines(ctx)
  })
}
