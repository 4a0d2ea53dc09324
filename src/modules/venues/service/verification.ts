import type { AuthUser } from '../../../lib/auth.ts'
import type { AppContext } from '../../../lib/context.ts'
import { NotFound, Unprocessable } from '../../../lib/errors.ts'
import type { PageParams } from '../../../lib/pagination.ts'
import { loadVenueResource, loadVenueResources } from '../queries.ts'
import { transitionVerification, verificationStatus } from '../repository/verification.ts'
import { pendingVerificationIds, resolveVenue } from '../repository.ts'
import type { Venue } from '../resource.ts'
import { venueForStaff } from './manage.ts'

// The verification state machine of the contract:
//   unverified|rejected --request (owner)--> pending --approve (super_admin)--> verified
//                                             pending --reject (super_admin)--> rejected
// Each transition is one conditional UPDATE, so two racing calls cannot both apply.

const refusal: Record<string, string> = {
  pending: 'A verification request for this venue is already pending.',
  verified: 'This venue is already verified.',
}

export async function requestVerification(
  ctx: AppContext,
  user: AuthUser,
  key: string,
  note: string | null | undefined,
): Promise<Venue> {
  const venue = await venueForStaff(ctx, user, key, ['owner'])
  const updated = await transitionVerification(ctx.db, venue.id, ['unverified', 'rejected'], {
    verification_status: 'pending',
    verification_requested_at: ctx.clock.now(),
    verification_reviewed_at: null,
    verification_note: note?.trim() || null,
    updated_at: ctx.clock.now(),
  })
  if (!updated) {
    const status = await verificationStatus(ctx.db, venue.id)
    throw new Unprocessable(refusal[status ?? ''] ?? 'The venue cannot be submitted for verification.')
  }
  return (await loadVenueResource(ctx, venue.id))!
}

async function review(
  ctx: AppContext,
  key: string,
  to: 'verified' | 'rejected',
  reason?: string | null,
): Promise<Venue> {
  const venue = await resolveVenue(ctx.db, key)
  if (!venue) throw new NotFound()
  const updated = await transitionVerification(ctx.db, venue.id, ['pending'], {
    verification_status: to,
    verification_reviewed_at: ctx.clock.now(),
    ...(to === 'rejected' && { verification_note: reason?.trim() || null }),
    updated_at: ctx.clock.now(),
  })
  if (!updated) {
    throw new Unprocessable(
      to === 'verified'
        ? 'Only a pending verification request can be approved.'
        : 'Only a pending verification request can be rejected.',
    )
  }
  return (await loadVenueResource(ctx, venue.id))!
}

export const approveVerification = (ctx: AppContext, key: string) => review(ctx, key, 'verified')
export const rejectVerification = (ctx: AppContext, key: string, reason?: string | null) =>
  review(ctx, key, 'rejected', reason)

/** Pending requests, oldest request first: one page of venues and the total. */
export async function pendingRequests(ctx: AppContext, page: PageParams): Promise<{ items: Venue[]; total: number }> {
  const { ids, total } = await pendingVerificationIds(ctx.db, page.perPage, page.offset)
  return { items: await loadVenueResources(ctx, ids), total }
}
