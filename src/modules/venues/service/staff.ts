import type { Static } from 'typebox'
import type { AuthUser } from '../../../lib/auth.ts'
import type { AppContext } from '../../../lib/context.ts'
import type { Executor } from '../../../lib/db.ts'
import { Conflict, Invalid, NotFound } from '../../../lib/errors.ts'
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
  userIdByEmail,
} from '../repository/staff.ts'
import type { StaffBody, StaffMemberSchema } from '../schemas.ts'
import { type Invitation, inviteStaff } from './invitations.ts'
import { venueForStaff } from './manage.ts'

// Venue staff: the owner (or super_admin) invites an email as manager or staff of the venue
// (./invitations.ts; the role comes with accepting, ./membership.ts), lists and removes them. The
// user also gets that global role, which is dropped again when their last assignment with it goes.

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
 * POST /venues/{venue}/staff: invites the email as manager or staff (issue 51: everyone, an existing
 * account too, gets an invitation and becomes staff only by accepting it). The venue's owner is 422;
 * someone who works here with that very role already is 409.
 */
export async function assignStaff(
  ctx: AppContext,
  user: AuthUser,
  key: string,
  body: Static<typeof StaffBody>,
): Promise<Invitation> {
  const venue = await venueForStaff(ctx, user, key, ['owner'])
  const email = body.email.trim()
  const target = await userIdByEmail(ctx.db, email)
  if (target) {
    if (target.id === venue.owner_id) throw new Invalid('email', 'The owner of the venue cannot be assigned as staff.')
    const current = await staffAssignment(ctx.db, venue.id, target.id)
    if (current?.role === body.role) throw new Conflict(`This person already works here as ${body.role}.`)
  }
  return inviteStaff(ctx, user, venue, target?.email ?? email, body.role)
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
