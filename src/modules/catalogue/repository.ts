import { sql } from 'kysely'
import type { Executor } from '../../lib/db.ts'
import { type CatalogueFilter, catalogueVenues, distanceSql } from '../venues/index.ts'

// The free-time search's reads (docs/catalogue.md, "Free-time search"): the venues the catalogue's
// filters match (with what the sorts read), their live courts and indoor games, and what is taken
// on a date. The grids, the free starts and the order are worked out in the service (free-time.ts),
// where they cost a fraction of what they cost in SQL.

/** A venue the filters match, with what its grids and rules need and what the sorts read. */
export interface CandidateVenue {
  id: number
  opening_time: string
  closing_time: string
  min_notice_minutes: number
  verified: boolean
  rating: number | null
  reviews_count: number
  min_price: number | null
  /** ms since the epoch */
  created_at: number
  /** km from the searched point; null without one */
  distance: number | null
}

/** The venues of the filters (all but the sport: it picks courts and games) whose booking window reaches `daysAhead`. */
export async function candidateVenues(db: Executor, f: CatalogueFilter, daysAhead: number): Promise<CandidateVenue[]> {
  const distance = f.geo ? distanceSql(f.geo.lat, f.geo.lng) : sql<number | null>`null::float8`
  const rows = await catalogueVenues(db, { ...f, sport: undefined })
    .select([
      'v.id',
      'v.opening_time',
      'v.closing_time',
      'v.min_notice_minutes',
      'v.verification_status',
      'v.reviews_avg_rating',
      'v.reviews_count',
      'v.min_price',
      'v.created_at',
      distance.as('distance'),
    ])
    .where('v.booking_window_days', '>=', daysAhead)
    .execute()
  return rows.map((r) => ({
    id: r.id,
    opening_time: r.opening_time,
    closing_time: r.closing_time,
    min_notice_minutes: r.min_notice_minutes,
    verified: r.verification_status === 'verified',
    rating: r.reviews_avg_rating === null ? null : Number(r.reviews_avg_rating),
    reviews_count: r.reviews_count,
    min_price: r.min_price === null ? null : Number(r.min_price),
    created_at: new Date(r.created_at).getTime(),
    distance: r.distance === null ? null : Number(r.distance),
  }))
}

export interface CourtRow {
  id: number
  venue_id: number
  name: string
  slot_minutes: number
  type: string
  sport_name: string | null
  sport_slug: string | null
  sport_key: string | null
  sport_category: string | null
  /** [day_of_week, open_time, close_time, is_closed] of each schedule entry. */
  schedules: Array<[number, string, string, boolean]>
}

/** The live (active, not deleted) courts of the venues, with their sport and weekly schedule. */
export async function liveCourts(db: Executor, venueIds: number[]): Promise<CourtRow[]> {
  if (venueIds.length === 0) return []
  const rows = await sql<CourtRow>`
    select c.id, c.venue_id, c.name, c.slot_minutes, c.type, s.name as sport_name, s.slug as sport_slug,
      s.key as sport_key, s.category as sport_category,
      coalesce((select json_agg(json_build_array(cs.day_of_week, cs.open_time, cs.close_time, cs.is_closed))
        from court_schedules cs where cs.court_id = c.id), '[]') as schedules
    from courts c left join sports s on s.id = c.sport_id
    where c.venue_id = any(${venueIds}::bigint[]) and c.deleted_at is null and c.is_active
  `.execute(db)
  return rows.rows
}

export interface GameRow {
  id: number
  venue_id: number
  name: string
  slot_minutes: number
  game_type: string
}

/** The live indoor games of the venues. */
export function liveGames(db: Executor, venueIds: number[]): Promise<GameRow[]> {
  if (venueIds.length === 0) return Promise.resolve([])
  return db
    .selectFrom('indoor_games')
    .select(['id', 'venue_id', 'name', 'slot_minutes', 'game_type'])
    .where('venue_id', 'in', venueIds)
    .where('deleted_at', 'is', null)
    .where('is_active', '=', true)
    .execute()
}

/** A taken range of a court ('c') or game ('g') on the date: a live or held booking, or a block. */
export interface TakenRow {
  kind: 'c' | 'g'
  rid: number
  start_time: string
  end_time: string
  /** A pending booking's hold end: it takes its slot only until then. */
  hold_expires_at: Date | null
}

/**
 * What is taken on `date` at the venues: bookings that may hold their slot (pending, confirmed,
 * playing; a pending one's hold is judged by the caller at its instant) and blocks. One range of
 * (date, venue) per table (migrations/035).
 */
export async function takenOn(db: Executor, date: string, venueIds: number[]): Promise<TakenRow[]> {
  if (venueIds.length === 0) return []
  const rows = await sql<TakenRow>`
    select 'c' as kind, b.court_id as rid, b.start_time, b.end_time,
      case when b.status = 'pending' then b.hold_expires_at end as hold_expires_at
    from bookings b
    where b.date = ${date} and b.venue_id = any(${venueIds}::bigint[]) and b.status in ('pending', 'confirmed', 'playing')
    union all
    select 'c', k.court_id, k.start_time, k.end_time, null
    from court_blocks k join courts kc on kc.id = k.court_id
    where k.date = ${date} and kc.venue_id = any(${venueIds}::bigint[])
    union all
    select 'g', i.indoor_game_id, i.start_time, i.end_time,
      case when i.status = 'pending' then i.hold_expires_at end
    from indoor_game_bookings i
    where i.date = ${date} and i.venue_id = any(${venueIds}::bigint[]) and i.status in ('pending', 'confirmed', 'playing')
  `.execute(db)
  return rows.rows
}
