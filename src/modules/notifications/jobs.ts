import type { AppContext } from '../../lib/context.ts'

// Push delivery of stored notifications (one job per notification, retried with backoff).
export function registerNotificationJobs(ctx: AppContext) {
  ctx.jobs.register('push.notification', async (payload) => {
    const id = String(payload.notification_id)
    const n = await ctx.db
      .selectFrom('notifications')
      .select(['id', 'user_id', 'type', 'data'])
      .where('id', '=', id)
      .executeTakeFirst()
    if (!n) return
    const tokens = await ctx.db.selectFrom('device_tokens').select('token').where('user_id', '=', n.user_id).execute()
    const data = (typeof n.data === 'string' ? JSON.parse(n.data) : n.data) as Record<string, unknown>
    const title = n.type.split('\\').pop() ?? 'Courtside'
    const flat: Record<string, string> = { notification_id: n.id, type: n.type }
    for (const [k, v] of Object.entries(data)) flat[k] = typeof v === 'string' ? v : JSON.stringify(v)
    for (const { token } of tokens) {
      await ctx.messenger.push({ token, title, body: String(data.message ?? ''), data: flat })
    }
  })
}
