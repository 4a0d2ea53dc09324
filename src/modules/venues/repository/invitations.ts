import type { Executor } from '../../../lib/db.ts'
import { selectUsers } from '../../accounts/index.ts'
import type { StaffRole } from './staff.ts'

// Staff invitations (issue 33; for every invitee since issue 51; docs/catalogue.md, "Staff invitations").

const COLUMNS = [
  'i.id',
  'i.venue_id',
  'v.name as venue_name',
  'v.name_ne as venue_name_ne',
  'v.slug as venue_slug',
  'i.email',
  'i.role',
  'i.expires_at',
  'i.accepted_at',
  'i.created_at',
  'u.id as account_id',
] as const

export type InvitationRow = {
  id: number
  venue_id: number
  venue_name: string
  venue_name_ne: string | null
  venue_slug: string
  email: string
  role: string
  expires_at: Date | string
  accepted_at: Date | string | null
  created_at: Date | string
  /** The account that has the invited email, if any (it accepts signed in). */
  account_id: number | null
}

/** Replaces the venue's pending invitations of `email` with a new one; its id. */
export async function replaceInvitation(
  db: Executor,
  values: {
    venue_id: number
    email: string
    role: StaffRole
    token_hash: string
    invited_by: number
    expires_at: Date
    created_at: Date
  },
): Promise<number> {
  await db
    .deleteFrom('venue_invitations')
    .where('venue_id', '=', values.venue_id)
    .where('email', '=', values.email)
    .where('accepted_at', 'is', null)
    .execute()
  const row = await db.insertInto('venue_invitations').values(values).returning('id').executeTakeFirstOrThrow()
  return row.id
}

function selectInvitation(db: Executor) {
  return db
    .selectFrom('venue_invitations as i')
    .innerJoin('venues as v', 'v.id', 'i.venue_id')
    .leftJoin('users as u', 'u.email', 'i.email')
    .where('v.deleted_at', 'is', null)
    .select(COLUMNS)
}

export async function invitationById(db: Executor, id: number): Promise<InvitationRow | undefined> {
  return selectInvitation(db).where('i.id', '=', id).executeTakeFirst()
}

/** The invitation behind a token hash; `lock` takes its row for the rest of the transaction. */
export async function invitationByHash(db: Executor, hash: string, lock = false): Promise<InvitationRow | undefined> {
  let q = selectInvitation(db).where('i.token_hash', '=', hash)
  if (lock) q = q.forUpdate('i')
  return q.executeTakeFirst()
}

/** Marks a pending invitation accepted by `userId`; false when another request was first. */
export async function markAccepted(db: Executor, id: number, userId: number, at: Date): Promise<boolean> {
  const row = await db
    .updateTable('venue_invitations')
    .set({ accepted_at: at, accepted_user_id: userId })
    .where('id', '=', id)
    .where('accepted_at', 'is', null)
    .returning('id')
    .executeTakeFirst()
  return row !== undefined
}

/** A new user whose email the invitation link proved, with the customer role; their id. */
export async function insertInvitedUser(
  db: Executor,
  values: { name: string; email: string; password_hash: string; email_verified_at: Date; locale: 'en' | 'ne' },
): Promise<number> {
  const row = await db.insertInto('users').values(values).returning('id').executeTakeFirstOrThrow()
  await db
    .insertInto('user_roles')
    .columns(['user_id', 'role_id'])
    .expression((eb) =>
      eb
        .selectFrom('roles')
        .select([eb.val(row.id).as('user_id'), 'id as role_id'])
        .where('name', '=', 'customer'),
    )
    .onConflict((oc) => oc.doNothing())
    .execute()
  return row.id
}

/** Whether the user's email is verified. */
export async function emailVerified(db: Executor, userId: number): Promise<boolean> {
  const row = await db.selectFrom('users').select('email_verified_at').where('id', '=', userId).executeTakeFirst()
  return row?.email_verified_at != null
}

/** The User row of an invitee (the accounts module's columns). */
export const findInvitedUser = (db: Executor, userId: number) =>
  selectUsers(db).where('u.id', '=', userId).executeTakeFirst()

/** The venue's invitations not accepted yet (pending or expired), newest first. */
export async function openInvitations(db: Executor, venueId: number): Promise<InvitationRow[]> {
  return selectInvitation(db)
    .where('i.venue_id', '=', venueId)
    .where('i.accepted_at', 'is', null)
    .orderBy('i.created_at', 'desc')
    .orderBy('i.id', 'desc')
    .execute()
}

/** The invitations to `email` not accepted yet and still valid at `now`, newest first. */
export async function invitationsTo(db: Executor, email: string, now: Date): Promise<InvitationRow[]> {
  return selectInvitation(db)
    .where('i.email', '=', email)
    .where('i.accepted_at', 'is', null)
    .where('i.expires_at', '>', now)
    .orderBy('i.created_at', 'desc')
    .orderBy('i.id', 'desc')
    .execute()
}

/** The invitation `id` of the venue, locked for the rest of the transaction. */
export async function lockInvitation(db: Executor, id: number): Promise<InvitationRow | undefined> {
  return selectInvitation(db).where('i.id', '=', id).forUpdate('i').executeTakeFirst()
}

/** A new link (token hash) and expiry for an invitation not accepted yet; false when it was accepted or is gone. */
export async function renewInvitation(db: Executor, id: number, tokenHash: string, expiresAt: Date): Promise<boolean> {
  const row = await db
    .updateTable('venue_invitations')
    .set({ token_hash: tokenHash, expires_at: expiresAt })
    .where('id', '=', id)
    .where('accepted_at', 'is', null)
    .returning('id')
    .executeTakeFirst()
  return row !== undefined
}

/** Withdraws (deletes) an invitation not accepted yet; false when it was accepted or is gone. */
export async function deleteOpenInvitation(db: Executor, id: number): Promise<boolean> {
  const row = await db
    .deleteFrom('venue_invitations')
    .where('id', '=', id)
    .where('accepted_at', 'is', null)
    .returning('id')
    .executeTakeFirst()
  return row !== undefined
}

/** The owner of a venue (its user id), or undefined for an unknown venue. */
export async function venueOwnerId(db: Executor, venueId: number): Promise<number | undefined> {
  const row = await db.selectFrom('venues').select('owner_id').where('id', '=', venueId).executeTakeFirst()
  return row ? Number(row.owner_id) : undefined
}
