import { randomBytes } from 'node:crypto'
import { sql } from 'kysely'
import type { Executor } from '../../lib/db.ts'

// calendar_feeds: one secret per user (migration 010) and one per venue and staff member who asked
// for it (migration 017). A secret is 256 random bits, base64url: unguessable, and looked up by its
// unique index.

export type FeedOwner = { userId: number } | { venueId: number; memberId: number }

export const newSecret = () => randomBytes(32).toString('base64url')

/** The row's key columns and the ON CONFLICT target of an owner. */
const keyOf = (owner: FeedOwner) =>
  'userId' in owner
    ? { values: { user_id: owner.userId }, target: ['user_id' as const] }
    : {
        values: { venue_id: owner.venueId, member_id: owner.memberId },
        target: ['venue_id' as const, 'member_id' as const],
      }

/** The owner's secret, created on first use (concurrent first uses agree on one). */
export async function ensureFeedSecret(db: Executor, owner: FeedOwner): Promise<string> {
  const { values, target } = keyOf(owner)
  await db
    .insertInto('calendar_feeds')
    .values({ ...values, secret: newSecret() })
    .onConflict((oc) => oc.columns(target).doNothing())
    .execute()
  let q = db.selectFrom('calendar_feeds').select('secret')
  for (const [col, id] of Object.entries(values) as ['user_id' | 'venue_id' | 'member_id', number][]) {
    q = q.where(col, '=', id)
  }
  return (await q.executeTakeFirstOrThrow()).secret
}

/** Replaces the owner's secret (creating the feed if it had none); returns the new one. */
export async function rotateFeedSecret(db: Executor, owner: FeedOwner, now: Date): Promise<string> {
  const { values, target } = keyOf(owner)
  const secret = newSecret()
  const row = await db
    .insertInto('calendar_feeds')
    .values({ ...values, secret, rotated_at: now })
    .onConflict((oc) => oc.columns(target).doUpdateSet({ secret, rotated_at: now }))
    .returning('secret')
    .executeTakeFirstOrThrow()
  return row.secret
}

/**
 * Who a secret belongs to, or undefined. For a venue's feed, `member_holds` says whether its member
 * still works the venue's desk (its owner, a manager or staff member of it, or a super_admin).
 */
export async function feedBySecret(db: Executor, secret: string) {
  return db
    .selectFrom('calendar_feeds as f')
    .leftJoin('venues as v', (j) => j.onRef('v.id', '=', 'f.venue_id').on('v.deleted_at', 'is', null))
    .leftJoin('users as u', 'u.id', 'f.user_id')
    .leftJoin('users as m', 'm.id', 'f.member_id')
    .select([
      'f.user_id',
      'f.venue_id',
      'f.member_id',
      'v.name as venue_name',
      'u.is_active as user_active',
      'm.is_active as member_active',
      sql<boolean>`(v.owner_id = f.member_id
        OR EXISTS (SELECT 1 FROM venue_staff s WHERE s.venue_id = f.venue_id AND s.user_id = f.member_id)
        OR EXISTS (SELECT 1 FROM user_roles ur JOIN roles r ON r.id = ur.role_id
                   WHERE ur.user_id = f.member_id AND r.name = 'super_admin'))`.as('member_holds'),
    ])
    .where('f.secret', '=', secret)
    .executeTakeFirst()
}
