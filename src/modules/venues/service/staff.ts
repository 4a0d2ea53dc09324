import type { Static } from 'typebox'
import type { AuthUser } from '../../../lib/auth.ts'
import type { AppContext } from '../../../lib/context.ts'
import type { Executor } from '../../../lib/db.ts'
import { Invalid, NotFound } from '../../../lib/errors.ts'
import { pathId } from '../../../lib/ids.ts'
import type { Zone } from '../../../lib/zone.ts'
import {
  deleteStaff,
  grantStaffRole,
  holdsStaffRole,
  revokeStaffRole,
  type StaffRole,
  staffAssignment,
  staffRows,
  upsertStaff,
  userIdByEmail,
} from '../repository/staff.ts'
import type { StaffBody, StaffMemberSchema } from '../schemas.ts'
import { type Invitation, inviteStaff } from './invitations.ts'
import { venueForStaff } from './manage.ts'

// Staff assignment: the owner (or super_admin) assigns an existing user, found by email, as a
// manager or staff of the venue; an email without an account gets an invitation (./invitations.ts). The user also gets that global role, which is dropped again
// when their last assignment with that role goes.

type StaffMember = Static<typeof StaffMemberSchema>

async function members(db: Executor, zone: Zone, venueId: number, userId?: number): Promise<StaffMember[]> {
  const rows = await staffRows(db, venueId, userId)
  return rows.map((r) => ({ ...r, assigned_at: zone.format(r.created_at)! }))
}

export async function listStaff(ctx: AppContext, user: AuthUser, key: string) {
  const venue = await venueForStaff(ctx, user, key, ['owner'])
  return members(ctx.db, ctx.zone, venue.id)
}

async function syncGlobalRole(db: Executor, userId: number, role: StaffRole) {
  if (await holdsStaffRole(db, userId, role)) await grantStaffRole(db, userId, role)
  else await revokeStaffRole(db, userId, role)
}

/**
 * Assigns (or re-assigns with another role) a user to the venue; an email without an account is
 * invited instead (`invitation`).
 */
export async function assignStaff(
  ctx: AppContext,
  user: AuthUser,
  key: string,
  body: Static<typeof StaffBody>,
): Promise<{ member: StaffMember } | { invitation: Invitation }> {
  const venue = await venueForStaff(ctx, user, key, ['owner'])
  const email = body.email.trim()
  const target = await userIdByEmail(ctx.db, email)
  if (!target) return { invitation: await inviteStaff(ctx, user, venue, email, body.role) }
  if (target.id === venue.owner_id) throw new Invalid('email', 'The owner of the venue cannot be assigned as staff.')
  return ctx.db.transaction().execute(async (trx) => {
    const previous = await staffAssignment(trx, venue.id, target.id)
    await upsertStaff(trx, venue.id, target.id, body.role)
    await syncGlobalRole(trx, target.id, body.role)
    if (previous && previous.role !== body.role) await syncGlobalRole(trx, target.id, previous.role as StaffRole)
    const [member] = await members(trx, ctx.zone, venue.id, target.id)
    return { member }
  })
}

export async function removeStaff(ctx: AppContext, user: AuthUser, key: string, userKey: string): Promise<void> {
  const venue = await venueForStaff(ctx, user, key, ['owner'])
  const userId = pathId(userKey)
  await ctx.db.transaction().execute(async (trx) => {
    const removed = await deleteStaff(trx, venue.id, userId)
    if (!removed) throw new NotFound()
    await syncGlobalRole(trx, userId, removed.role as StaffRole)
  })
}
