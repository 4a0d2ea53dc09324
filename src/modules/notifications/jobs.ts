import type { AppContext } from '../../lib/context.ts'
import { hasMessage, recipientLocale, t } from '../../lib/i18n/index.ts'
import { deviceTokensOf, findNotification } from './repository.ts'
import { notificationData } from './resource.ts'
import { MESSAGE_JOB, sendNotificationMessages } from './send-messages.ts'

// Push delivery of stored notifications (one job per notification, retried with backoff), and the
// SMS and email of the booking notifications that have a message (send-messages.ts).
export function registerNotificationJobs(ctx: AppContext) {
  ctx.jobs.register(MESSAGE_JOB, async (payload) => {
    await sendNotificationMessages(ctx, String(payload.notification_id))
  })
  ctx.jobs.register('push.notification', async (payload) => {
    const n = await findNotification(ctx.db, String(payload.notification_id))
    if (!n) return
    const tokens = await deviceTokensOf(ctx.db, n.user_id)
    const data = notificationData(n.data)
    // The title: the notification's class, in words in the recipient's language (its class name in English).
    const type = n.type.split('\\').pop() ?? ''
    const titleKey = `push.${type}`
    const locale = await recipientLocale(ctx.db, n.user_id)
    const title = hasMessage(titleKey) ? t(locale, titleKey) : type
    const flat: Record<string, string> = { notification_id: n.id, type: n.type }
    for (const [k, v] of Object.entries(data)) flat[k] = typeof v === 'string' ? v : JSON.stringify(v)
    for (const token of tokens) {
      await ctx.messenger.push({ token, title, body: String(data.message ?? ''), data: flat })
    }
  })
}
