import { createHmac, randomBytes } from 'node:crypto'
import type { Static } from 'typebox'
import type { AuthUser } from '../../../lib/auth.ts'
import type { AppContext } from '../../../lib/context.ts'
import type { Executor } from '../../../lib/db.ts'
import { AppError, Invalid, NotFound } from '../../../lib/errors.ts'
import type { Locale } from '../../../lib/i18n/index.ts'
import { hashPassword } from '../../../lib/password.ts'
import { type UserRow, userResource } from '../../accounts/index.ts'
import { notify } from '../../notifications/index.ts'
import {
  findInvitedUser,
  type InvitationRow,
  insertInvitedUser,
  invitationByHash,
  invitationById,
  markAccepted,
  renewInvitation,
  replaceInvitation,
} from '../repository/invitations.ts'
import { grantStaffRole, type StaffRole, upsertStaff } from '../repository/staff.ts'
import type { AcceptInvitationBody, InvitationSchema } from '../schemas.ts'

// Staff invitations (issue 33, issue 51; docs/catalogue.md, "Staff invitations"): an owner invites an
// email; the invitee gets a mailed link to the console (valid 7 days by the app's clock). Without an
// account they choose a name and password there; with one they also get an in-app notification and
// accept signed in (./membership.ts): nobody becomes staff without saying yes. The token is 32
// random bytes; only its HMAC-SHA256 keyed with APP_KEY is stored, so the table alone opens nothing.

export const INVITATION_DAYS = 7
export const INVITATION_USED = 'This invitation has already been used.'
export const INVITATION_EXPIRED = 'This invitation has expired.'

export type Invitation = Static<typeof InvitationSchema>

const tokenHash = (ctx: AppContext, token: string) =>
  createHmac('sha256', ctx.config.appKey).update(token).digest('hex')

export const invitationUrl = (ctx: AppContext, token: string) =>
  `${ctx.config.appUrl}/console/#/invitations/${encodeURIComponent(token)}`

export function isExpired(ctx: AppContext, row: InvitationRow): boolean {
  return new Date(row.expires_at).getTime() <= ctx.clock.now().getTime()
}

export function invitationResource(ctx: AppContext, row: InvitationRow): Invitation {
  const status = row.accepted_at !== null ? 'accepted' : isExpired(ctx, row) ? 'expired' : 'pending'
  return {
    id: Number(row.id),
    venue: { id: Number(row.venue_id), name: row.venue_name, name_ne: row.venue_name_ne, slug: row.venue_slug },
    email: row.email,
    role: row.role,
    status,
    valid: status === 'pending',
    expires_at: ctx.zone.format(row.expires_at)!,
    accepted_at: row.accepted_at === null ? null : ctx.zone.format(row.accepted_at)!,
    invited_at: ctx.zone.format(row.created_at)!,
    has_account: row.account_id !== null,
  }
}

/** A new token for an invitation: the token for the link and the hash the table keeps. */
function newToken(ctx: AppContext) {
  const token = randomBytes(32).toString('base64url')
  return { token, hash: tokenHash(ctx, token) }
}

const expiry = (ctx: AppContext) => new Date(ctx.clock.now().getTime() + INVITATION_DAYS * 24 * 3600_000)

/**
 * Invites `email` to the venue: replaces a pending invitation of the same email there and mails the
 * link (and notifies the account that has the email, if any). The caller has checked that they may
 * manage the venue's staff.
 */
export async function inviteStaff(
  ctx: AppContext,
  inviter: AuthUser,
  venue: { id: number; name: string },
  email: string,
  role: StaffRole,
): Promise<Invitation> {
  const { token, hash } = newToken(ctx)
  const id = await ctx.db.transaction().execute((trx) =>
    replaceInvitation(trx, {
      venue_id: venue.id,
      email,
      role,
      token_hash: hash,
      invited_by: inviter.id,
      expires_at: expiry(ctx),
      created_at: ctx.clock.now(),
    }),
  )
  const row = (await invitationById(ctx.db, id))!
  await tell(ctx, inviter.name, row, token)
  return invitationResource(ctx, row)
}

/** The mail with the link, and for an existing account the in-app notification too. */
async function tell(ctx: AppContext, inviterName: string, row: InvitationRow, token: string) {
  const what = `${inviterName} invited you to join ${row.venue_name} as ${row.role}.`
  const how =
    row.account_id !== null
      ? 'Open this link and sign in with your Courtside account to accept'
      : 'Open this link to choose your name and password'
  await ctx.messenger.mail({
    to: row.email,
    subject: `You are invited to ${row.venue_name} on Courtside`,
    body:
      `${what}\n\n${how} (valid for ${INVITATION_DAYS} days):\n\n` +
      `${invitationUrl(ctx, token)}\n\nIf you did not expect this invitation, ignore this email.`,
  })
  if (row.account_id !== null) {
    await notify(ctx, Number(row.account_id), 'StaffInvitation', {
      message: `${what} Accept it in the console to start.`,
      invitation_id: Number(row.id),
      venue_id: Number(row.venue_id),
      venue_name: row.venue_name,
      role: row.role,
    })
  }
}

/** A new link and 7 more days for an invitation not accepted yet, mailed (and notified) again. */
export async function renewAndTell(ctx: AppContext, inviterName: string, row: InvitationRow): Promise<Invitation> {
  const { token, hash } = newToken(ctx)
  if (!(await renewInvitation(ctx.db, Number(row.id), hash, expiry(ctx)))) {
    throw new AppError(409, INVITATION_ALREADY_ACCEPTED)
  }
  const fresh = (await invitationById(ctx.db, Number(row.id)))!
  await tell(ctx, inviterName, fresh, token)
  return invitationResource(ctx, fresh)
}

export const INVITATION_ALREADY_ACCEPTED = 'This invitation has already been accepted.'

/** GET /invitations/{token}: the invitation, valid or not; 404 when the token is unknown. */
export async function showInvitation(ctx: AppContext, token: string): Promise<Invitation> {
  const row = await invitationByHash(ctx.db, tokenHash(ctx, token))
  if (!row) throw new NotFound()
  return invitationResource(ctx, row)
}

const isUniqueViolation = (e: unknown) => (e as { code?: string })?.code === '23505'
const EMAIL_TAKEN = 'An account with this email exists already: sign in with it to accept this invitation.'

async function acceptLocked(
  ctx: AppContext,
  trx: Executor,
  hash: string,
  name: string,
  passwordHash: string,
  locale: Locale,
) {
  const row = await invitationByHash(trx, hash, true)
  if (!row) throw new NotFound()
  if (row.accepted_at !== null) throw new AppError(410, INVITATION_USED)
  if (isExpired(ctx, row)) throw new AppError(410, INVITATION_EXPIRED)
  const now = ctx.clock.now()
  const userId = await insertInvitedUser(trx, {
    name,
    email: row.email,
    password_hash: passwordHash,
    email_verified_at: now,
    locale,
  })
  const role = row.role as StaffRole
  await upsertStaff(trx, Number(row.venue_id), userId, role)
  await grantStaffRole(trx, userId, role)
  if (!(await markAccepted(trx, Number(row.id), userId, now))) throw new AppError(410, INVITATION_USED)
  return userId
}

/**
 * POST /invitations/{token}/accept: creates the invitee's account (email verified: the link proved
 * it) and makes them manager or staff of the venue; the new user's id. Unknown token 404; used or
 * expired 410; an email that has an account by now 422 on email.
 */
export async function acceptInvitation(
  ctx: AppContext,
  token: string,
  body: Static<typeof AcceptInvitationBody>,
  locale: Locale = 'en',
): Promise<number> {
  const name = body.name.trim()
  const errors: Record<string, string[]> = {}
  if (!name) errors.name = ['The name field is required.']
  if (body.password_confirmation !== body.password) {
    errors.password = ['The password field confirmation does not match.']
  }
  if (Object.keys(errors).length) throw new Invalid(errors)
  const hash = tokenHash(ctx, token)
  // Answer an unusable link before spending a password hash on it.
  await showUsable(ctx, hash)
  const passwordHash = await hashPassword(body.password)
  try {
    return await ctx.db.transaction().execute((trx) => acceptLocked(ctx, trx, hash, name, passwordHash, locale))
  } catch (e) {
    if (isUniqueViolation(e)) throw new Invalid('email', EMAIL_TAKEN)
    throw e
  }
}

async function showUsable(ctx: AppContext, hash: string) {
  const row = await invitationByHash(ctx.db, hash)
  if (!row) throw new NotFound()
  if (row.accepted_at !== null) throw new AppError(410, INVITATION_USED)
  if (isExpired(ctx, row)) throw new AppError(410, INVITATION_EXPIRED)
}

/** The accepted invitee as the contract's User. */
export async function invitedUser(ctx: AppContext, userId: number) {
  return userResource(ctx, (await findInvitedUser(ctx.db, userId)) as UserRow)
}
