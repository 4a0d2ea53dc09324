import type { AppContext } from '../../lib/context.ts'
import { DELIVER_JOB, deliver } from './deliver.ts'

/** The job that sends one webhook delivery attempt. */
export function registerWebhookJobs(ctx: AppContext) {
  ctx.jobs.register(DELIVER_JOB, (payload) => deliver(ctx, Number(payload.delivery_id)))
}
