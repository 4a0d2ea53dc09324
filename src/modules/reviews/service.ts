import type { AuthUser } from '../../lib/auth.ts'
import type { AppContext } from '../../lib/context.ts'
import { Invalid, NotFound, Unprocessable } from '../../lib/errors.ts'
import { detectImage } from '../../lib/storage.ts'
import { Upload } from '../../lib/uploads.ts'
import { assertCanModerate, assertCanReply, canSeeHiddenVenue } from './policy.ts'
import { loadReviews } from './queries.ts'
import * as repo from './repository.ts'
import { type Review, replyResource } from './resource.ts'
import { MAX_REVIEW_IMAGE_BYTES, MAX_REVIEW_IMAGES, type ReviewInput } from './schemas.ts'

export const ALREADY_REVIEWED = 'You have already reviewed this venue.'

/** The venue behind a {venue} path segment; hidden venues are 404 except for the people who run them. */
export async function visibleVenue(ctx: AppContext, idOrSlug: string, user?: AuthUser | null) {
  const venue = await repo.findVenue(ctx.db, idOrSlug)
  if (!venue) throw new NotFound()
  if (!venue.is_public && !(await canSeeHiddenVenue(ctx.db, user, venue.id))) throw new NotFound()
  return venue
}

export async function venueReviews(ctx: AppContext, idOrSlug: string, user: AuthUser | null) {
  const venue = await visibleVenue(ctx, idOrSlug, user)
  const [stats, ids, mine] = await Promise.all([
    repo.approvedStats(ctx.db, venue.id),
    repo.approvedReviewIds(ctx.db, venue.id),
    user ? repo.reviewIdOf(ctx.db, venue.id, user.id) : Promise.resolve(undefined),
  ])
  const loaded = await loadReviews(ctx, mine ? [...ids, mine] : ids)
  return {
    average_rating: stats.average,
    reviews_count: stats.count,
    can_review: !!user && mine === undefined,
    my_review: mine ? (loaded.get(mine) ?? null) : null,
    reviews: ids.map((id) => loaded.get(id)).filter((r): r is Review => !!r),
  }
}

function uploads(input: ReviewInput): unknown[] {
  const out: unknown[] = []
  for (const v of [input.images, input['images[]']]) {
    if (v === undefined || v === null || v === '') continue
    if (Array.isArray(v)) out.push(...v)
    else out.push(v)
  }
  return out
}

/** Checks every upload is a jpg/png/webp photo by content; returns them with their type. */
async function checkImages(files: unknown[]) {
  if (files.length > MAX_REVIEW_IMAGES) {
    throw new Invalid('images', `The images field must not have more than ${MAX_REVIEW_IMAGES} items.`)
  }
  const out: { file: Upload; mime: string; ext: string }[] = []
  for (const [i, f] of files.entries()) {
    const field = `images.${i}`
    if (!(f instanceof Upload)) throw new Invalid(field, `The ${field} field must be an image.`)
    if (f.size > MAX_REVIEW_IMAGE_BYTES) {
      throw new Invalid(
        field,
        `The ${field} field must not be greater than ${MAX_REVIEW_IMAGE_BYTES / 1024} kilobytes.`,
      )
    }
    const type = await detectImage(f)
    if (!type) throw new Invalid(field, `The ${field} field must be a file of type: jpg, png, webp.`)
    out.push({ file: f, mime: type.mime, ext: type.ext })
  }
  return out
}

const isUniqueViolation = (err: unknown) => (err as { code?: string } | null)?.code === '23505'

/**
 * Creates the caller's review of a venue, approved at once (app submissions need no moderation),
 * and refreshes the venue's rating in the same transaction. One review per user per venue: the
 * unique index (venue_id, user_id), not the check before it, is what makes a duplicate impossible.
 */
export async function createReview(ctx: AppContext, user: AuthUser, venueId: number, input: ReviewInput) {
  const duplicate = () => new Unprocessable(ALREADY_REVIEWED, { venue_id: [ALREADY_REVIEWED] })
  if (await repo.reviewIdOf(ctx.db, venueId, user.id)) throw duplicate()

  let bookingId: number | null = null
  if (input.booking_id) {
    const own = await repo.ownBookingAt(ctx.db, input.booking_id, user.id, venueId)
    if (!own) throw new Invalid('booking_id', 'The selected booking id is invalid.')
    bookingId = own.id
  } else {
    bookingId = (await repo.latestBookingAt(ctx.db, user.id, venueId))?.id ?? null
  }

  const images = await checkImages(uploads(input))
  const stored: { path: string; mime: string; size: number }[] = []
  try {
    for (const img of images) {
      stored.push({ path: await ctx.storage.put('reviews', img.file, img.ext), mime: img.mime, size: img.file.size })
    }
    const id = await ctx.db.transaction().execute(async (trx) => {
      await repo.lockVenue(trx, venueId)
      const row = await repo.insertReview(trx, {
        venue_id: venueId,
        user_id: user.id,
        booking_id: bookingId,
        rating: input.rating,
        comment: input.comment?.trim() ? input.comment.trim() : null,
      })
      await repo.insertImages(trx, row.id, stored)
      await repo.refreshVenueRating(trx, venueId)
      return row.id
    })
    return (await loadReviews(ctx, [id])).get(id)!
  } catch (err) {
    await Promise.all(stored.map((s) => ctx.storage.delete(s.path)))
    if (isUniqueViolation(err)) throw duplicate()
    throw err
  }
}

/** The venue a legacy POST /reviews names: it must exist and be visible to customers. */
export async function venueForLegacyCreate(ctx: AppContext, venueId: number, user: AuthUser) {
  const venue = await repo.findVenue(ctx.db, String(venueId))
  if (!venue || (!venue.is_public && !(await canSeeHiddenVenue(ctx.db, user, venue.id)))) {
    throw new Invalid('venue_id', 'The selected venue id is invalid.')
  }
  return venue
}

export async function addReply(ctx: AppContext, user: AuthUser, reviewId: number, reply: string) {
  const review = await repo.findReview(ctx.db, reviewId)
  if (!review) throw new NotFound()
  await assertCanReply(ctx.db, user, review.venue_id)
  const row = await repo.insertReply(ctx.db, { review_id: review.id, user_id: user.id, reply: reply.trim() || reply })
  return replyResource({ ...row, user_id: user.id, user_name: user.name }, ctx.zone)
}

export async function approveReview(ctx: AppContext, user: AuthUser, reviewId: number) {
  const review = await repo.findReview(ctx.db, reviewId)
  if (!review) throw new NotFound()
  await assertCanModerate(ctx.db, user, review.venue_id)
  if (!review.is_approved) {
    await ctx.db.transaction().execute(async (trx) => {
      await repo.lockVenue(trx, review.venue_id)
      await repo.approve(trx, review.id, ctx.clock.now())
      await repo.refreshVenueRating(trx, review.venue_id)
    })
  }
  return (await loadReviews(ctx, [review.id])).get(review.id)!
}

/** Hides an approved review: out of the public list and the venue's rating until approved again. */
export async function hideReview(ctx: AppContext, user: AuthUser, reviewId: number) {
  const review = await repo.findReview(ctx.db, reviewId)
  if (!review) throw new NotFound()
  await assertCanModerate(ctx.db, user, review.venue_id)
  if (review.is_approved) {
    await ctx.db.transaction().execute(async (trx) => {
      await repo.lockVenue(trx, review.venue_id)
      await repo.hide(trx, review.id, ctx.clock.now())
      await repo.refreshVenueRating(trx, review.venue_id)
    })
  }
  return (await loadReviews(ctx, [review.id])).get(review.id)!
}

/** A venue's reviews for its owner and managers (the caller's access is checked by the route's hook). */
export async function venueModerationReviews(
  ctx: AppContext,
  venueId: number,
  filter: { rating?: number; status?: 'approved' | 'hidden' },
  page: { limit: number; offset: number },
) {
  const { ids, total } = await repo.venueModerationPage(ctx.db, venueId, filter, page)
  const loaded = await loadReviews(ctx, ids)
  return { items: ids.map((id) => loaded.get(id)).filter((r): r is Review => !!r), total }
}

export async function adminReviews(
  ctx: AppContext,
  user: AuthUser,
  filter: { isApproved?: boolean; venueId?: number },
  page: { limit: number; offset: number },
) {
  const venueIds = user.roles.includes('super_admin') ? 'all' : await repo.moderatedVenueIds(ctx.db, user.id)
  const { rows, total } = await repo.adminPage(ctx.db, { venueIds, ...filter }, page)
  const loaded = await loadReviews(
    ctx,
    rows.map((r) => r.id),
  )
  const items = rows
    .filter((r) => loaded.has(r.id))
    .map((r) => ({ ...loaded.get(r.id)!, venue: { id: r.venue_id, name: r.venue_name } }))
  return { items, total }
}
