import type { Executor } from '../../lib/db.ts'
import type { PageParams } from '../../lib/pagination.ts'

// The notifications table (in-app inbox) and the device tokens push messages go to.

export async function insertNotification(
  db: Executor,
  values: { id: string; user_id: number; type: string; data: string },
) {
  await db.insertInto('notifications').values(values).execute()
}

export async function findNotification(db: Executor, id: string) {
  return db
    .selectFrom('notifications')
    .select(['id', 'user_id', 'type', 'data'])
    .where('id', '=', id)
    .executeTakeFirst()
}

/** One page of a user's inbox, newest first, and the inbox size. */
export async function inboxPage(db: Executor, userId: number, page: PageParams) {
  const [rows, count] = await Promise.all([
    db
      .selectFrom('notifications')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .limit(page.perPage)
      .offset(page.offset)
      .execute(),
    db
      .selectFrom('notifications')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow(),
  ])
  return { rows, total: Number(count.n) }
}

/** Marks one of the user's notifications read (keeping an earlier read time); false when it is not theirs. */
export async function markRead(db: Executor, userId: number, id: string, at: Date): Promise<boolean> {
  const res = await db
    .updateTable('notifications')
    .set((eb) => ({ read_at: eb.fn.coalesce('read_at', eb.val(at)) }))
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst()
  return Number(res.numUpdatedRows) > 0
}

export async function markAllRead(db: Executor, userId: number, at: Date) {
  await db
    .updateTable('notifications')
    .set({ read_at: at })
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .execute()
}

/** A token belongs to one device, hence to whoever signed in on it last. */
export async function saveDeviceToken(db: Executor, userId: number, token: string, at: Date) {
  await db
    .insertInto('device_tokens')
    .values({ user_id: userId, token })
    .onConflict((oc) => oc.column('token').doUpdateSet({ user_id: userId, updated_at: at }))
    .execute()
}

export async function deviceTokensOf(db: Executor, userId: number): Promise<string[]> {
  const rows = await db.selectFrom('device_tokens').select('token').where('user_id', '=', userId).execute()
  return rows.map((r) => r.token)
}

/** The channels a notification's message was already sent on (notification_deliveries). */
export async function deliveredChannels(db: Executor, notificationId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('notification_deliveries')
    .select('channel')
    .where('notification_id', '=', notificationId)
    .execute()
  return rows.map((r) => r.channel)
}

/** Records that the provider took a notification's message on `channel`; a second record changes nothing. */
export async function recordDelivery(db: Executor, notificationId: string, channel: 'sms' | 'mail', recipient: string) {
  await db
    .insertInto('notification_deliveries')
    .values({ notification_id: notificationId, channel, recipient })
    .onConflict((oc) => oc.columns(['notification_id', 'channel']).doNothing())
    .execute()
}
