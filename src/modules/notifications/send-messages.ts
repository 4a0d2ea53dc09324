import type { AppContext } from '../../lib/context.ts'
import { bookingIdOf, languageOf, messageKindOf, renderMessage } from './messages/index.ts'
import { bookingFacts, messageRecipient } from './queries.ts'
import { deliveredChannels, findNotification, recordDelivery } from './repository.ts'
import { notificationData } from './resource.ts'

// The booking messages by SMS and email (issue 47; docs/bookings.md, "Messages by SMS and email").
// notify() queues MESSAGE_JOB for each notification that has a message (messages/index.ts), in the
// transaction of the change: the booking's transaction never waits for, nor fails with, an SMS or
// mail provider. The job reads the booking as it is then and sends on each channel the player
// takes; each channel the provider accepted is recorded (notification_deliveries), so a retry (the
// other channel failed, or the job's own completion was lost) sends only what has not gone yet.

export const MESSAGE_JOB = 'messages.notification'

/** Sends notification `notificationId`'s message on each channel still due; how many went out. */
export async function sendNotificationMessages(ctx: AppContext, notificationId: string): Promise<number> {
  const n = await findNotification(ctx.db, notificationId)
  if (!n) return 0
  const data = notificationData(n.data)
  const kind = messageKindOf(n.type.split('\\').pop() ?? '', data)
  const bookingId = bookingIdOf(data)
  if (kind === null || bookingId === null) return 0
  const booking = await bookingFacts(ctx.db, data.booking_type === 'indoor' ? 'indoor' : 'court', bookingId)
  const to = await messageRecipient(ctx.db, n.user_id)
  if (!booking || !to) return 0
  // In the recipient's language (users.locale; docs/languages.md).
  const message = renderMessage(kind, languageOf(to.language), { name: to.name, booking, data })
  const done = new Set(await deliveredChannels(ctx.db, n.id))
  const sends: Array<{ channel: 'sms' | 'mail'; to: string; send: () => Promise<void> }> = []
  if (to.sms && !done.has('sms')) {
    const phone = to.sms
    sends.push({ channel: 'sms', to: phone, send: () => ctx.messenger.sms({ to: phone, body: message.sms }) })
  }
  if (to.mail && !done.has('mail')) {
    const email = to.mail
    sends.push({
      channel: 'mail',
      to: email,
      send: () => ctx.messenger.mail({ to: email, subject: message.subject, body: message.mail }),
    })
  }
  // Each channel on its own: a provider that fails does not stop the other; the job retries it.
  let sent = 0
  let failure: unknown
  for (const s of sends) {
    try {
      await s.send()
    } catch (err) {
      failure ??= err
      continue
    }
    await recordDelivery(ctx.db, n.id, s.channel, s.to)
    sent++
  }
  if (failure !== undefined) throw failure
  return sent
}
