import { sql } from 'kysely'
import type { Executor } from '../../lib/db.ts'
import { distanceSql } from '../venues/index.ts'
import type { Rating } from './rating.ts'

// Queries on matches, their players, invitations and results, and the per-sport ratings; plus the
// one read of a booking a match is opened on (its owner, status, time, price and sport).

export { parseId } from '../../lib/ids.ts'

export type Kind = 'court' | 'indoor'

export const isUniqueViolation = (err: unknown) => (err as { code?: string } | null)?.code === '23505'

export interface BookingForMatch {
  id: number
  booking_number: string
  user_id: number | null
  status: string
  venue_id: number
  date: string
  start_time: string
  end_time: string
  total_amount: number
  paid_amount: number
  sport: string
}

/** The columns a match reads of its booking, the same in both booking tables (aliased `b`). */
const BOOKING_COLUMNS = [
  'b.id',
  'b.booking_number',
  'b.user_id',
  'b.status',
  'b.venue_id',
  'b.date',
  'b.start_time',
  'b.end_time',
  'b.total_amount',
  'b.paid_amount',
] as const

/** The booking a match is opened on, with its sport's key (see migrations/038). */
export async function bookingForMatch(db: Executor, kind: Kind, id: number): Promise<BookingForMatch | undefined> {
  if (kind === 'court') {
    return db
      .selectFrom('bookings as b')
      .innerJoin('courts as c', 'c.id', 'b.court_id')
      .leftJoin('sports as s', 's.id', 'c.sport_id')
      .select([...BOOKING_COLUMNS, sql<string>`coalesce(s.key, c.type)`.as('sport')])
      .where('b.id', '=', id)
      .executeTakeFirst()
  }
  return db
    .selectFrom('indoor_game_bookings as b')
    .innerJoin('indoor_games as g', 'g.id', 'b.indoor_game_id')
    .select([...BOOKING_COLUMNS, 'g.game_type as sport'])
    .where('b.id', '=', id)
    .executeTakeFirst()
}

export interface NewMatch {
  booking_type: Kind
  booking_id: number
  organizer_id: number
  venue_id: number
  sport: string
  starts_at: Date
  players_total: number
  level_min: number | null
  level_max: number | null
  visibility: 'public' | 'private'
  link_token: string
  note: string | null
}

export async function insertMatch(db: Executor, m: NewMatch, now: Date): Promise<number> {
  const row = await db
    .insertInto('matches')
    .values({ ...m, created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

const matchColumns = [
  'm.id',
  'm.booking_type',
  'm.booking_id',
  'm.organizer_id',
  'm.venue_id',
  'm.sport',
  'm.starts_at',
  'm.players_total',
  'm.level_min',
  'm.level_max',
  'm.visibility',
  'm.link_token',
  'm.note',
  'm.status',
  'm.deadline_notified_at',
  'v.name as venue_name',
  'v.slug as venue_slug',
  'v.city as venue_city',
] as const

function matchQuery(db: Executor) {
  return db
    .selectFrom('matches as m')
    .innerJoin('venues as v', 'v.id', 'm.venue_id')
    .leftJoin('bookings as cb', (j) => j.onRef('cb.id', '=', 'm.booking_id').on('m.booking_type', '=', 'court'))
    .leftJoin('indoor_game_bookings as ib', (j) =>
      j.onRef('ib.id', '=', 'm.booking_id').on('m.booking_type', '=', 'indoor'),
    )
    .select(matchColumns)
    .select([
      sql<string>`coalesce(cb.booking_number, ib.booking_number)`.as('booking_number'),
      sql<string>`coalesce(cb.date, ib.date)::text`.as('date'),
      sql<string>`coalesce(cb.start_time, ib.start_time)::text`.as('start_time'),
      sql<string>`coalesce(cb.end_time, ib.end_time)::text`.as('end_time'),
      sql<number>`coalesce(cb.total_amount, ib.total_amount)`.as('total_amount'),
      sql<string>`coalesce(cb.status, ib.status)`.as('booking_status'),
    ])
    .select((eb) => [
      eb
        .selectFrom('match_players as p')
        .select(eb.fn.countAll<number>().as('n'))
        .whereRef('p.match_id', '=', 'm.id')
        .where('p.left_at', 'is', null)
        .as('players_count'),
      // Shares a player could still take and pay: unpaid and held by no live player. A booking paid
      // in full another way has its unpaid shares settled (splits' settleByWhole), leaving none.
      eb
        .selectFrom('booking_splits as sp')
        .innerJoin('booking_shares as s', 's.split_id', 'sp.id')
        .select(eb.fn.countAll<number>().as('n'))
        .whereRef('sp.booking_type', '=', 'm.booking_type')
        .whereRef('sp.booking_id', '=', 'm.booking_id')
        .where('s.payment_id', 'is', null)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('match_players as mp')
                .select('mp.id')
                .whereRef('mp.share_id', '=', 's.id')
                .where('mp.left_at', 'is', null),
            ),
          ),
        )
        .as('open_shares'),
    ])
}

export type MatchRow = NonNullable<Awaited<ReturnType<typeof matchById>>>

export function matchById(db: Executor, id: number) {
  return matchQuery(db).where('m.id', '=', id).executeTakeFirst()
}

/** The live (not cancelled) match on a booking, if any. */
export async function matchOfBooking(db: Executor, kind: Kind, bookingId: number): Promise<number | undefined> {
  const row = await db
    .selectFrom('matches')
    .select('id')
    .where('booking_type', '=', kind)
    .where('booking_id', '=', bookingId)
    .where('status', '<>', 'cancelled')
    .executeTakeFirst()
  return row?.id
}

/** Locks the match row: joins, leaves and results of one match take their turn. */
export async function lockMatch(trx: Executor, id: number) {
  return trx.selectFrom('matches').select(['id', 'status']).where('id', '=', id).forUpdate().executeTakeFirst()
}

export interface ListFilter {
  sport?: string
  /** One venue-local day: [dayStart, dayEnd). */
  day?: { start: Date; end: Date }
  geo?: { lat: number; lng: number; radiusKm: number }
  level?: number
  from: Date
  limit: number
  offset: number
}

/** Public matches still to be played (open or full), soonest first. */
export async function publicMatches(db: Executor, f: ListFilter): Promise<{ rows: MatchRow[]; total: number }> {
  let q = matchQuery(db)
    .where('m.visibility', '=', 'public')
    .where('m.status', 'in', ['open', 'full'])
    .where('m.starts_at', '>', f.from)
    .where(sql<string>`coalesce(cb.status, ib.status)`, 'in', ['pending', 'confirmed'])
  if (f.sport) q = q.where('m.sport', '=', f.sport)
  if (f.day) q = q.where('m.starts_at', '>=', f.day.start).where('m.starts_at', '<', f.day.end)
  if (f.level !== undefined) {
    const level = f.level
    q = q
      .where((eb) => eb.or([eb('m.level_min', 'is', null), eb('m.level_min', '<=', String(level))]))
      .where((eb) => eb.or([eb('m.level_max', 'is', null), eb('m.level_max', '>=', String(level))]))
  }
  if (f.geo) q = q.where(sql<boolean>`${distanceSql(f.geo.lat, f.geo.lng)} <= ${f.geo.radiusKm}::float8`)
  const [rows, count] = await Promise.all([
    q.orderBy('m.starts_at').orderBy('m.id').limit(f.limit).offset(f.offset).execute(),
    q
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ])
  return { rows, total: Number(count.n) }
}

export interface PlayerRow {
  match_id: number
  user_id: number
  name: string
  rating: number | null
}

/** The matches' players in the order they joined, with their rating in its sport (null: unrated). */
export async function livePlayers(db: Executor, matchIds: number[]): Promise<PlayerRow[]> {
  if (matchIds.length === 0) return []
  return db
    .selectFrom('match_players as p')
    .innerJoin('matches as m', 'm.id', 'p.match_id')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .leftJoin('player_ratings as r', (j) => j.onRef('r.user_id', '=', 'p.user_id').onRef('r.sport', '=', 'm.sport'))
    .select(['p.match_id', 'p.user_id', 'u.name', 'r.rating'])
    .where('p.match_id', 'in', matchIds)
    .where('p.left_at', 'is', null)
    .orderBy('p.joined_at')
    .orderBy('p.id')
    .execute()
}

export async function insertPlayer(
  db: Executor,
  p: { matchId: number; userId: number; shareId: number; now: Date },
): Promise<void> {
  await db
    .insertInto('match_players')
    .values({ match_id: p.matchId, user_id: p.userId, share_id: p.shareId, joined_at: p.now })
    .execute()
}

/** The live player's row (their share), or undefined. */
export function livePlayer(db: Executor, matchId: number, userId: number) {
  return db
    .selectFrom('match_players')
    .select(['id', 'share_id'])
    .where('match_id', '=', matchId)
    .where('user_id', '=', userId)
    .where('left_at', 'is', null)
    .executeTakeFirst()
}

/** The shares held by the match's live players. */
export async function heldShares(db: Executor, matchId: number): Promise<Set<number>> {
  const rows = await db
    .selectFrom('match_players')
    .select('share_id')
    .where('match_id', '=', matchId)
    .where('left_at', 'is', null)
    .execute()
  return new Set(rows.flatMap((r) => (r.share_id === null ? [] : [r.share_id])))
}

/**
 * The split of a booking (its id and pay deadline). The splits module offers no lookup by booking
 * that returns the split's id, which lockShares needs: this is the one read of its table here.
 */
export function splitOf(db: Executor, kind: Kind, bookingId: number) {
  return db
    .selectFrom('booking_splits')
    .select(['id', 'deadline'])
    .where('booking_type', '=', kind)
    .where('booking_id', '=', bookingId)
    .executeTakeFirst()
}

export async function markLeft(db: Executor, matchId: number, userId: number, now: Date): Promise<boolean> {
  const r = await db
    .updateTable('match_players')
    .set({ left_at: now })
    .where('match_id', '=', matchId)
    .where('user_id', '=', userId)
    .where('left_at', 'is', null)
    .executeTakeFirst()
  return Number(r.numUpdatedRows) > 0
}

export async function setStatus(db: Executor, matchId: number, status: string): Promise<void> {
  await db.updateTable('matches').set({ status }).where('id', '=', matchId).execute()
}

export async function isInvited(db: Executor, matchId: number, userId: number): Promise<boolean> {
  const row = await db
    .selectFrom('match_invites')
    .select('user_id')
    .where('match_id', '=', matchId)
    .where('user_id', '=', userId)
    .executeTakeFirst()
  return row !== undefined
}

export async function invite(db: Executor, matchId: number, userId: number, now: Date): Promise<void> {
  await db
    .insertInto('match_invites')
    .values({ match_id: matchId, user_id: userId, created_at: now })
    .onConflict((oc) => oc.doNothing())
    .execute()
}

export function userByEmail(db: Executor, email: string) {
  return db
    .selectFrom('users')
    .select(['id', 'name'])
    .where(sql<string>`lower(email)`, '=', email.toLowerCase())
    .executeTakeFirst()
}

export function userById(db: Executor, id: number) {
  return db.selectFrom('users').select(['id', 'name', 'is_active']).where('id', '=', id).executeTakeFirst()
}

// --- Results and ratings ---------------------------------------------------------------------

export function resultOf(db: Executor, matchId: number) {
  return db.selectFrom('match_results').selectAll().where('match_id', '=', matchId).executeTakeFirst()
}

export async function insertResult(
  db: Executor,
  r: { match_id: number; teams: number[][]; score: [number, number]; reported_by: number; now: Date },
): Promise<void> {
  await db
    .insertInto('match_results')
    .values({
      match_id: r.match_id,
      teams: JSON.stringify(r.teams),
      score_1: r.score[0],
      score_2: r.score[1],
      reported_by: r.reported_by,
      reported_at: r.now,
    })
    .onConflict((oc) =>
      oc
        .column('match_id')
        .doUpdateSet({
          teams: JSON.stringify(r.teams),
          score_1: r.score[0],
          score_2: r.score[1],
          reported_by: r.reported_by,
          reported_at: r.now,
        })
        .where('match_results.confirmed_at', 'is', null),
    )
    .execute()
}

export async function confirmResult(db: Executor, matchId: number, userId: number, now: Date): Promise<void> {
  await db
    .updateTable('match_results')
    .set({ confirmed_by: userId, confirmed_at: now })
    .where('match_id', '=', matchId)
    .execute()
}

/** The players' ratings in a sport, locked (a confirmation updates them read-modify-write). */
export async function lockedRatings(db: Executor, userIds: number[], sport: string) {
  if (userIds.length === 0) return []
  return db
    .selectFrom('player_ratings')
    .select(['user_id', 'rating', 'rd', 'volatility'])
    .where('user_id', 'in', userIds)
    .where('sport', '=', sport)
    .orderBy('user_id')
    .forUpdate()
    .execute()
}

/** One player's rating in a sport, unlocked (the level check of a join). */
export function ratingOf(db: Executor, userId: number, sport: string) {
  return db
    .selectFrom('player_ratings')
    .select('rating')
    .where('user_id', '=', userId)
    .where('sport', '=', sport)
    .executeTakeFirst()
}

export async function saveRating(db: Executor, userId: number, sport: string, r: Rating, now: Date): Promise<void> {
  await db
    .insertInto('player_ratings')
    .values({ user_id: userId, sport, ...r, matches_played: 1, updated_at: now })
    .onConflict((oc) =>
      oc.columns(['user_id', 'sport']).doUpdateSet({
        rating: r.rating,
        rd: r.rd,
        volatility: r.volatility,
        matches_played: sql<number>`player_ratings.matches_played + 1`,
        updated_at: now,
      }),
    )
    .execute()
}

export function ratingsOf(db: Executor, userId: number) {
  return db
    .selectFrom('player_ratings')
    .select(['sport', 'rating', 'rd', 'matches_played'])
    .where('user_id', '=', userId)
    .orderBy('sport')
    .execute()
}

/** Matches the user has played with a confirmed result, and those they left or never came to. */
export async function playedCounts(db: Executor, userId: number) {
  const row = await db
    .selectFrom('match_players as p')
    .innerJoin('matches as m', 'm.id', 'p.match_id')
    .select((eb) => [
      eb.fn.countAll<number>().filterWhere('m.status', '=', 'played').filterWhere('p.left_at', 'is', null).as('played'),
      eb.fn.countAll<number>().filterWhere('p.left_at', 'is not', null).as('left'),
      eb.fn.countAll<number>().as('joined'),
    ])
    .where('p.user_id', '=', userId)
    .executeTakeFirstOrThrow()
  return { played: Number(row.played), left: Number(row.left), joined: Number(row.joined) }
}

/** Open matches whose split's pay deadline falls in (now, horizon] and was not announced yet, claimed. */
export async function claimDeadlineNear(db: Executor, horizon: Date, now: Date): Promise<number[]> {
  const rows = await db
    .updateTable('matches as m')
    .set({ deadline_notified_at: now })
    .where('m.status', '=', 'open')
    .where('m.deadline_notified_at', 'is', null)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('booking_splits as s')
          .select('s.id')
          .whereRef('s.booking_type', '=', 'm.booking_type')
          .whereRef('s.booking_id', '=', 'm.booking_id')
          .where('s.deadline', '<=', horizon)
          .where('s.deadline', '>', now),
      ),
    )
    .returning('m.id')
    .execute()
  return rows.map((r) => r.id)
}
