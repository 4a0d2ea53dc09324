import type { AuthUser } from '../../../lib/auth.ts'
import type { AppContext } from '../../../lib/context.ts'
import type { Executor } from '../../../lib/db.ts'
import { AppError, Conflict, Invalid, NotFound } from '../../../lib/errors.ts'
import { pathId } from '../../../lib/ids.ts'
import {
  deleteOpenInvitation,
  invitationById,
  invitationsTo,
  lockInvitation,
  markAccepted,
  openInvitations,
  venueOwnerId,
} from '../repository/invitations.ts'
import {
  grantStaffRole,
  holdsStaffRole,
  revokeStaffRole,
  type StaffRole,
  staffAssignment,
  upsertStaff,
} from '../repository/staff.ts'
import {
  INVITATION_ALREADY_ACCEPTED,
  INVITATION_EXPIRED,
  INVITATION_USED,
  type Invitation,
  invitationResource,
  isExpired,
  renewAndTell,
} from './invitations.ts'
import { venueForStaff } from './manage.ts'

// The owner's side of invitations after they are sent (list, resend, withdraw), and the invitee's
// side when they already have an account: their pending invitations and accepting one signed in
// (issue 51; docs/catalogue.md, "Staff invitations"). An existing account becomes staff only here.

/** GET /venues/{venue}/invitations: the venue's invitations not accepted yet (pending or expired). */
export async function listInvitations(ctx: AppContext, user: AuthUser, key: string): Promise<Invitation[]> {
  const venue = await venueForStaff(ctx, user, key, ['owner'])
  return (await openInvitations(ctx.db, venue.id)).map((r) => invitationResource(ctx, r))
}

/** The invitation `rawId` of the venue `key` (owner, super_admin); 404 for another venue's. */
async function venueInvitation(ctx: AppContext, user: AuthUser, key: string, rawId: string) {
  const venue = await venueForStaff(ctx, user, key, ['owner'])
  const row = await invitationById(ctx.db, pathId(rawId))
  if (!row || Number(row.venue_id) !== venue.id) throw new NotFound()
  return row
}

/** POST …/invitations/{id}/resend: a new link valid 7 more days; the old link stops working. 409 once accepted. */
export async function resendInvitation(ctx: AppContext, user: AuthUser, key: string, rawId: string) {
  const row = await venueInvitation(ctx, user, key, rawId)
  if (row.accepted_at !== null) throw new Conflict(INVITATION_ALREADY_ACCEPTED)
  return renewAndTell(ctx, user.name, row)
}

/** DELETE …/invitations/{id}: withdraws it (its link is then unknown, 404). 409 once accepted. */
export async function withdrawInvitation(ctx: AppContext, user: AuthUser, key: string, rawId: string) {
  const row = await venueInvitation(ctx, user, key, rawId)
  if (row.accepted_at !== null) throw new Conflict(INVITATION_ALREADY_ACCEPTED)
  if (!(await deleteOpenInvitation(ctx.db, Number(row.id)))) throw new Conflict(INVITATION_ALREADY_ACCEPTED)
}

/** GET /me/invitations: the signed-in user's pending invitations (to their email, valid now). */
export async function myInvitations(ctx: AppContext, user: AuthUser): Promise<Invitation[]> {
  return (await invitationsTo(ctx.db, user.email, ctx.clock.now())).map((r) => invitationResource(ctx, r))
}

async function syncGlobalRole(db: Executor, userId: number, role: StaffRole) {
  if (await holdsStaffRole(db, userId, role)) await grantStaffRole(db, userId, role)
  else await revokeStaffRole(db, userId, role)
}

/**
 * POST /me/invitations/{id}/accept: the signed-in account whose email was invited becomes manager
 * or staff of the venue (a role it had there is replaced). Someone else's or an unknown invitation
 * is 404; accepted or expired 410; the venue's owner 422. The row is locked: an invitation is
 * accepted once even when two requests race.
 */
export async function acceptAsMember(ctx: AppContext, user: AuthUser, rawId: string): Promise<Invitation> {
  const id = pathId(rawId)
  await ctx.db.transaction().execute(async (trx) => {
    const row = await lockInvitation(trx, id)
    if (!row || row.email.toLowerCase() !== user.email.toLowerCase()) throw new NotFound()
    if (row.accepted_at !== null) throw new AppError(410, INVITATION_USED)
    if (isExpired(ctx, row)) throw new AppError(410, INVITATION_EXPIRED)
    const venueId = Number(row.venue_id)
    if ((await venueOwnerId(trx, venueId)) === user.id) {
      throw new Invalid('email', 'The owner of the venue cannot be assigned as staff.')
    }
    const role = row.role as StaffRole
    const previous = await staffAssignment(trx, venueId, user.id)
    await upsertStaff(trx, venueId, user.id, role)
    await syncGlobalRole(trx, user.id, role)
    if (previous && previous.role !== role) await syncGlobalRole(trx, user.id, previous.role as StaffRole)
    if (!(await markAccepted(trx, id, user.id, ctx.clock.now()))) throw new AppError(410, INVITATION_USED)
  })
  return invitationResource(ctx, (await invitationById(ctx.db, id))!)
}
