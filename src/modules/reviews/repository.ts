import { sql } from 'kysely'
import type { Executor } from '../../lib/db.ts'
import { resolveVenue } from '../venues/index.ts'

// SQL of the reviews feature. Every function takes the executor to run on.

export interface VenueRow {
  id: number
  name: string
  owner_id: number
  is_public: boolean
}

/** A venue (not deleted) by slug or id, as every {venue} path reads it; `is_public` says whether customers may see it. */
export async function findVenue(db: Executor, idOrSlug: string): Promise<VenueRow | undefined> {
  const row = await resolveVenue(db, idOrSlug)
  if (!row) return undefined
  return {
    id: row.id,
    name: row.name,
    owner_id: row.owner_id,
    is_public: row.is_active && row.verification_status === 'verified',
  }
}

/**
 * Locks the venue row for the rest of the transaction so review writes on one venue run one after
 * the other; the aggregate refresh that follows then sees every committed review.
 */
export async function lockVenue(db: Executor, venueId: number) {
  await db.selectFrom('venues').select('id').where('id', '=', venueId).forNoKeyUpdate().executeTakeFirst()
}

export async function reviewIdOf(db: Executor, venueId: number, userId: number): Promise<number | undefined> {
  const row = await db
    .selectFrom('reviews')
    .select('id')
    .where('venue_id', '=', venueId)
    .where('user_id', '=', userId)
    .executeTakeFirst()
  return row?.id
}

/** The user's booking at the venue with that id, if it is theirs. */
export async function ownBookingAt(db: Executor, bookingId: number, userId: number, venueId: number) {
  return db
    .selectFrom('bookings')
    .select('id')
    .where('id', '=', bookingId)
    .where('user_id', '=', userId)
    .where('venue_id', '=', venueId)
    .executeTakeFirst()
}

/** The user's latest (by play date and time) booking at the venue that was not cancelled. */
export async function latestBookingAt(db: Executor, userId: number, venueId: number) {
  return db
    .selectFrom('bookings')
    .select('id')
    .where('user_id', '=', userId)
    .where('venue_id', '=', venueId)
    .where('status', '!=', 'cancelled')
    .orderBy('date', 'desc')
    .orderBy('start_time', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst()
}

export async function insertReview(
  db: Executor,
  values: { venue_id: number; user_id: number; booking_id: number | null; rating: number; comment: string | null },
) {
  return db
    .insertInto('reviews')
    .values({ ...values, is_approved: true })
    .returning('id')
    .executeTakeFirstOrThrow()
}

export async function insertImages(
  db: Executor,
  reviewId: number,
  images: { path: string; mime: string; size: number }[],
) {
  if (images.length === 0) return
  await db
    .insertInto('media')
    .values(
      images.map((img, i) => ({
        model_type: 'review',
        model_id: reviewId,
        collection: 'images',
        path: img.path,
        mime_type: img.mime,
        size: img.size,
        sort_order: i,
      })),
    )
    .execute()
}

/** Recomputes the venue's denormalized count and 1-decimal average from its approved reviews. */
export async function refreshVenueRating(db: Executor, venueId: number) {
  await sql`
    UPDATE venues SET
      reviews_count = agg.n,
      reviews_avg_rating = agg.avg
    FROM (
      SELECT count(*)::int AS n, round(avg(rating)::numeric, 1) AS avg
      FROM reviews WHERE venue_id = ${venueId} AND is_approved
    ) AS agg
    WHERE venues.id = ${venueId}
  `.execute(db)
}

export async function approvedStats(db: Executor, venueId: number) {
  const row = await db
    .selectFrom('reviews')
    .select((eb) => [eb.fn.countAll<string>().as('n'), sql<string | null>`round(avg(rating)::numeric, 1)`.as('avg')])
    .where('venue_id', '=', venueId)
    .where('is_approved', '=', true)
    .executeTakeFirstOrThrow()
  return { count: Number(row.n), average: row.avg === null ? 0 : Number(row.avg) }
}

export async function approvedReviewIds(db: Executor, venueId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('reviews')
    .select('id')
    .where('venue_id', '=', venueId)
    .where('is_approved', '=', true)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute()
  return rows.map((r) => r.id)
}

export async function findReview(db: Executor, id: number) {
  return db
    .selectFrom('reviews as r')
    .innerJoin('venues as v', 'v.id', 'r.venue_id')
    .select(['r.id', 'r.venue_id', 'r.is_approved', 'v.name as venue_name'])
    .where('r.id', '=', id)
    .where('v.deleted_at', 'is', null)
    .executeTakeFirst()
}

export async function insertReply(db: Executor, values: { review_id: number; user_id: number; reply: string }) {
  return db
    .insertInto('review_replies')
    .values(values)
    .returning(['id', 'reply', 'created_at'])
    .executeTakeFirstOrThrow()
}

export async function approve(db: Executor, id: number, at: Date) {
  await db.updateTable('reviews').set({ is_approved: true, updated_at: at }).where('id', '=', id).execute()
}

/** Takes a review out of public view (the venue's moderation); approving it again shows it. */
export async function hide(db: Executor, id: number, at: Date) {
  await db.updateTable('reviews').set({ is_approved: false, updated_at: at }).where('id', '=', id).execute()
}

/**
 * One venue's reviews for its staff, hidden ones included: unanswered (no reply yet) first, then
 * newest first; optionally one rating and one visibility.
 */
export async function venueModerationPage(
  db: Executor,
  venueId: number,
  filter: { rating?: number; status?: 'approved' | 'hidden' },
  page: { limit: number; offset: number },
) {
  let q = db.selectFrom('reviews as r').where('r.venue_id', '=', venueId)
  if (filter.rating !== undefined) q = q.where('r.rating', '=', filter.rating)
  if (filter.status !== undefined) q = q.where('r.is_approved', '=', filter.status === 'approved')
  const answered = sql<boolean>`EXISTS (SELECT 1 FROM review_replies rr WHERE rr.review_id = r.id)`
  const [rows, count] = await Promise.all([
    q
      .select('r.id')
      .orderBy(answered)
      .orderBy('r.created_at', 'desc')
      .orderBy('r.id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ])
  return { ids: rows.map((r) => r.id), total: Number(count.n) }
}

/** Ids of venues whose reviews the caller moderates: owned, or assigned as manager (not staff). */
export async function moderatedVenueIds(db: Executor, userId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('venues')
    .select('id')
    .where('deleted_at', 'is', null)
    .where((eb) =>
      eb.or([
        eb('owner_id', '=', userId),
        eb(
          'id',
          'in',
          eb.selectFrom('venue_staff').select('venue_id').where('user_id', '=', userId).where('role', '=', 'manager'),
        ),
      ]),
    )
    .execute()
  return rows.map((r) => r.id)
}

export async function adminPage(
  db: Executor,
  filter: { venueIds: number[] | 'all'; isApproved?: boolean; venueId?: number },
  page: { limit: number; offset: number },
) {
  let q = db.selectFrom('reviews as r').innerJoin('venues as v', 'v.id', 'r.venue_id').where('v.deleted_at', 'is', null)
  if (filter.venueIds !== 'all') {
    if (filter.venueIds.length === 0) return { rows: [], total: 0 }
    q = q.where('r.venue_id', 'in', filter.venueIds)
  }
  if (filter.isApproved !== undefined) q = q.where('r.is_approved', '=', filter.isApproved)
  if (filter.venueId !== undefined) q = q.where('r.venue_id', '=', filter.venueId)
  const [rows, count] = await Promise.all([
    q
      .select(['r.id', 'v.id as venue_id', 'v.name as venue_name'])
      .orderBy('r.created_at', 'desc')
      .orderBy('r.id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ])
  return { rows, total: Number(count.n) }
}
