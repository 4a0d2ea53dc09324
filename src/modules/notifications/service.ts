import { randomUUID } from 'node:crypto'
import type { AppContext } from '../../lib/context.ts'
import type { Executor } from '../../lib/db.ts'

// Notification classes of the contract. The stored `type` is the namespaced class name.
export type NotificationClass =
  | 'BookingConfirmed'
  | 'BookingCancelled'
  | 'BookingReminder'
  | 'IndoorGameBookingConfirmed'
  | 'TournamentRegistered'

export const NOTIFICATION_NAMESPACE = 'App\\Notifications\\'

export interface NotificationData {
  message: string
  [key: string]: unknown
}

/**
 * Stores an in-app notification and queues its push delivery to each of the user's device tokens.
 * Pass the caller's transaction as `db` so the notification commits (or rolls back) with the change
 * that caused it. A push failure never fails the caller; the push job retries.
 */
export async function notify(
  ctx: AppContext,
  userId: number,
  type: NotificationClass,
  data: NotificationData,
  db: Executor = ctx.db,
): Promise<string> {
  const id = randomUUID()
  await db
    .insertInto('notifications')
    .values({ id, user_id: userId, type: NOTIFICATION_NAMESPACE + type, data: JSON.stringify(data) })
    .execute()
  await ctx.jobs.enqueue('push.notification', { notification_id: id }, { uniqueKey: `push:${id}` }, db)
  return id
}
