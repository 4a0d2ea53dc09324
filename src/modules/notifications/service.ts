import { randomUUID } from 'node:crypto'
import type { AppContext } from '../../lib/context.ts'
import type { Executor } from '../../lib/db.ts'
import { NotFound } from '../../lib/errors.ts'
import { recipientLocale, translate } from '../../lib/i18n/index.ts'
import { pathUuid } from '../../lib/ids.ts'
import type { PageParams } from '../../lib/pagination.ts'
import { messageKindOf } from './messages/index.ts'
import * as repo from './repository.ts'
import { notificationResource } from './resource.ts'
import { MESSAGE_JOB } from './send-messages.ts'

// Notification classes of the contract. The stored `type` is the namespaced class name.
export type NotificationClass =
  | 'BookingConfirmed'
  | 'BookingCancelled'
  | 'BookingRefunded'
  | 'BookingReminder'
  | 'CashBackDue'
  | 'CashBackPaid'
  | 'IndoorGameBookingConfirmed'
  | 'MatchDeadlineNear'
  | 'MatchFull'
  | 'MatchJoined'
  | 'MatchPlayerLeft'
  | 'MatchResultToConfirm'
  | 'SeriesPaymentDue'
  | 'SplitSharePaid'
  | 'StaffInvitation'
  | 'TournamentRegistered'
  | 'WaitlistOffer'
  | 'WebhookEndpointDisabled'

export const NOTIFICATION_NAMESPACE = 'App\\Notifications\\'

export interface NotificationData {
  message: string
  [key: string]: unknown
}

/**
 * Stores an in-app notification (its message in the recipient's language) and queues its push delivery to each of the user's device tokens,
 * and, for a booking notification that has one (messages/index.ts), its SMS and email (send-messages.ts).
 * Pass the caller's transaction as `db` so the notification commits (or rolls back) with the change
 * that caused it. A push, SMS or mail failure never fails the caller; its job retries.
 */
export async function notify(
  ctx: AppContext,
  userId: number,
  type: NotificationClass,
  data: NotificationData,
  db: Executor = ctx.db,
): Promise<string> {
  const id = randomUUID()
  // The message in the recipient's language (docs/languages.md): callers write English, the
  // catalogue writes it in Nepali for a Nepali reader; the data's other fields stay as they are.
  const locale = await recipientLocale(db, userId)
  const stored = locale === 'en' ? data : { ...data, message: translate(locale, data.message) }
  await repo.insertNotification(db, {
    id,
    user_id: userId,
    type: NOTIFICATION_NAMESPACE + type,
    data: JSON.stringify(stored),
  })
  await ctx.jobs.enqueue('push.notification', { notification_id: id }, { uniqueKey: `push:${id}` }, db)
  if (messageKindOf(type, data) !== null) {
    await ctx.jobs.enqueue(MESSAGE_JOB, { notification_id: id }, { uniqueKey: `message:${id}` }, db)
  }
  return id
}

/** The user's inbox, newest first. */
export async function inbox(ctx: AppContext, userId: number, page: PageParams) {
  const { rows, total } = await repo.inboxPage(ctx.db, userId, page)
  return { items: rows.map((n) => notificationResource(n, ctx.zone)), total }
}

/** Marks one of the user's notifications read; 404 for an unknown id or someone else's. */
export async function markRead(ctx: AppContext, userId: number, rawId: string) {
  if (!(await repo.markRead(ctx.db, userId, pathUuid(rawId), ctx.clock.now()))) throw new NotFound()
}

export async function markAllRead(ctx: AppContext, userId: number) {
  await repo.markAllRead(ctx.db, userId, ctx.clock.now())
}

export async function saveDeviceToken(ctx: AppContext, userId: number, token: string) {
  await repo.saveDeviceToken(ctx.db, userId, token, ctx.clock.now())
}
