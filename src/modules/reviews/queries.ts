import type { AppContext } from '../../lib/context.ts'
import type { Executor } from '../../lib/db.ts'
import { type Review, replyResource, reviewResource } from './resource.ts'

// Read models of reviews: whole ReviewResources by review id, and by booking id for the features
// (bookings) that embed a booking's review.

/** Reviews by id, with reviewer, images and replies; ids that do not exist are simply absent. */
export async function loadReviews(ctx: AppContext, ids: number[], db: Executor = ctx.db): Promise<Map<number, Review>> {
  const out = new Map<number, Review>()
  if (ids.length === 0) return out
  const unique = [...new Set(ids)]
  const [rows, images, replies] = await Promise.all([
    db
      .selectFrom('reviews as r')
      .innerJoin('users as u', 'u.id', 'r.user_id')
      .select([
        'r.id',
        'r.rating',
        'r.comment',
        'r.is_approved',
        'r.created_at',
        'u.id as user_id',
        'u.name as user_name',
        'u.avatar_path',
      ])
      .where('r.id', 'in', unique)
      .execute(),
    db
      .selectFrom('media')
      .select(['id', 'model_id', 'path'])
      .where('model_type', '=', 'review')
      .where('model_id', 'in', unique)
      .orderBy('sort_order')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('review_replies as rr')
      .innerJoin('users as u', 'u.id', 'rr.user_id')
      .select(['rr.id', 'rr.review_id', 'rr.reply', 'rr.created_at', 'u.id as user_id', 'u.name as user_name'])
      .where('rr.review_id', 'in', unique)
      .orderBy('rr.created_at')
      .orderBy('rr.id')
      .execute(),
  ])
  for (const r of rows) out.set(r.id, reviewResource(ctx.storage, ctx.zone, r))
  for (const m of images) {
    out.get(m.model_id)?.images.push({ id: m.id, url: ctx.storage.url(m.path)! })
  }
  for (const rep of replies) {
    out.get(rep.review_id)?.replies.push(replyResource(rep, ctx.zone))
  }
  return out
}

/** The review attached to each booking (keyed by booking id); bookings without one are absent. */
export async function reviewsByBookingIds(ctx: AppContext, ids: number[]): Promise<Map<number, Review>> {
  const out = new Map<number, Review>()
  if (ids.length === 0) return out
  const links = await ctx.db
    .selectFrom('reviews')
    .select(['id', 'booking_id'])
    .where('booking_id', 'in', [...new Set(ids)])
    .orderBy('id')
    .execute()
  const reviews = await loadReviews(
    ctx,
    links.map((l) => l.id),
  )
  for (const l of links) {
    const review = reviews.get(l.id)
    if (review && l.booking_id !== null && !out.has(l.booking_id)) out.set(l.booking_id, review)
  }
  return out
}
