import { randomBytes } from 'node:crypto'
import type { Executor } from '../../lib/db.ts'

// calendar_feeds: one secret per user and one per venue (migration 010). A secret is 256 random
// bits, base64url: unguessable, and looked up by its unique index.

export type FeedOwner = { userId: number } | { venueId: number }

export const newSecret = () => randomBytes(32).toString('base64url')

const ownerColumn = (owner: FeedOwner) =>
  'userId' in owner
    ? ({ col: 'user_id', id: owner.userId } as const)
    : ({ col: 'venue_id', id: owner.venueId } as const)

/** The owner's secret, created on first use (concurrent first uses agree on one). */
export async function ensureFeedSecret(db: Executor, owner: FeedOwner): Promise<string> {
  const { col, id } = ownerColumn(owner)
  await db
    .insertInto('calendar_feeds')
    .values({ [col]: id, secret: newSecret() })
    .onConflict((oc) => oc.column(col).doNothing())
    .execute()
  const row = await db.selectFrom('calendar_feeds').select('secret').where(col, '=', id).executeTakeFirstOrThrow()
  return row.secret
}

/** Replaces the owner's secret (creating the feed if it had none); returns the new one. */
export async function rotateFeedSecret(db: Executor, owner: FeedOwner, now: Date): Promise<string> {
  const { col, id } = ownerColumn(owner)
  const secret = newSecret()
  const row = await db
    .insertInto('calendar_feeds')
    .values({ [col]: id, secret, rotated_at: now })
    .onConflict((oc) => oc.column(col).doUpdateSet({ secret, rotated_at: now }))
    .returning('secret')
    .executeTakeFirstOrThrow()
  return row.secret
}

/** Who a secret belongs to, or undefined. */
export async function feedBySecret(db: Executor, secret: string) {
  return db
    .selectFrom('calendar_feeds as f')
    .leftJoin('venues as v', (j) => j.onRef('v.id', '=', 'f.venue_id').on('v.deleted_at', 'is', null))
    .leftJoin('users as u', 'u.id', 'f.user_id')
    .select(['f.user_id', 'f.venue_id', 'v.name as venue_name', 'u.is_active as user_active'])
    .where('f.secret', '=', secret)
    .executeTakeFirst()
}
