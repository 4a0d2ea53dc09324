import { type RawBuilder, sql } from 'kysely'
import type { Executor } from '../../lib/db.ts'
import { type CatalogueFilter, catalogueVenues, distanceSql, sortKeys } from '../venues/index.ts'

// The free-time search in one statement (docs/catalogue.md, "Free-time search"): the venues the
// catalogue's filters match, their live courts and indoor games of the sport, each one's grid of
// the day (its schedule, else the venue's hours), what is taken that day (live bookings, holds
// still running, blocks) as one multirange per court or game, the grid's starts in the window that
// are not taken, and per venue the earliest five. Sorting, the page and the total are done here
// too, so only the page's rows leave the database.

export interface FreeTimeWindow {
  date: string
  /** 0 = Sunday, the schedules' weekday. */
  dow: number
  /** Days from today (venue time) to `date`: the venue's booking window must reach it. */
  daysAhead: number
  /** Minutes since `date`'s midnight: starts at or after `from` and before `to`. */
  from: number
  to: number
  duration: number
  /** Now as minutes since `date`'s midnight, rounded up (negative for a later date): with the venue's minimum notice, the earliest start. */
  nowMinute: number
  /** Holds running at this instant still take their slot. */
  now: Date
}

/** A free start: [minute of the day, court id, indoor game id, name]. */
export type FreeStart = [number, number | null, number | null, string]

export interface FreeVenueRow {
  id: number
  distance: number | null
  starts: FreeStart[]
}

const minutes = (column: RawBuilder<unknown>) => sql<number>`(extract(epoch from ${column}) / 60)::int`

/** Courts of the sport: as the catalogue's venue filter reads a sport (venues/repository.ts, sportFilter). */
function courtSport(sport: string | undefined) {
  if (sport === undefined) return sql`true`
  if (sport === 'indoor' || sport === 'outdoor') return sql`s.category = ${sport}`
  return sql`(lower(s.name) = ${sport} or s.slug = ${sport} or s.key = ${sport} or lower(c.type) = ${sport})`
}

function gameSport(sport: string | undefined) {
  if (sport === undefined || sport === 'indoor') return sql`true`
  if (sport === 'outdoor') return sql`false`
  return sql`g.game_type = ${sport}`
}

export async function searchFreeVenues(
  db: Executor,
  f: CatalogueFilter,
  w: FreeTimeWindow,
): Promise<{ rows: FreeVenueRow[]; total: number }> {
  const sport = f.sport?.trim().toLowerCase() || undefined
  const venues = catalogueVenues(db, f)
    .select(['v.id', 'v.opening_time', 'v.closing_time', 'v.min_notice_minutes'])
    .where('v.booking_window_days', '>=', w.daysAhead)
  // A live booking takes its slot: confirmed, playing, or pending with a hold still running (or none).
  const live = (b: 'b' | 'i') => {
    const status = sql.ref(`${b}.status`)
    const hold = sql.ref(`${b}.hold_expires_at`)
    return sql`(${status} in ('confirmed', 'playing') or (${status} = 'pending' and (${hold} is null or ${hold} > ${w.now})))`
  }
  const order =
    f.sort === 'soonest' ? [sql`f.first_start asc`, ...sortKeys('recommended', f.geo)] : sortKeys(f.sort, f.geo)
  const distance = f.geo ? distanceSql(f.geo.lat, f.geo.lng) : sql`null::float8`
  const result = await sql<{
    total: string | number
    id: number | null
    distance: number | null
    starts: FreeStart[] | null
  }>`
    with cand as (${venues}),
    res as (
      select c.venue_id, c.id as court_id, null::int as game_id, c.name, c.slot_minutes as step,
        coalesce(cs.open_time, cand.opening_time) as open_t, coalesce(cs.close_time, cand.closing_time) as close_t,
        coalesce(cs.is_closed, false) as closed, cand.min_notice_minutes as notice
      from cand
      join courts c on c.venue_id = cand.id
      left join sports s on s.id = c.sport_id
      left join court_schedules cs on cs.court_id = c.id and cs.day_of_week = ${w.dow}
      where c.deleted_at is null and c.is_active and ${courtSport(sport)}
      union all
      select g.venue_id, null::int, g.id, g.name, g.slot_minutes, cand.opening_time, cand.closing_time, false,
        cand.min_notice_minutes
      from cand
      join indoor_games g on g.venue_id = cand.id
      where g.deleted_at is null and g.is_active and ${gameSport(sport)}
    ),
    starts as (
      select r.venue_id, r.court_id, r.game_id, r.name, t.start
      from res r
      cross join lateral (
        select ${minutes(sql`r.open_t`)} as open_m, ${minutes(sql`r.close_t`)} as close_m
      ) h
      left join lateral (
        select range_agg(int4range(${minutes(sql`x.start_time`)}, ${minutes(sql`x.end_time`)})) as busy
        from (
          select b.start_time, b.end_time from bookings b
          where b.court_id = r.court_id and b.date = ${w.date} and ${live('b')}
          union all
          select k.start_time, k.end_time from court_blocks k where k.court_id = r.court_id and k.date = ${w.date}
          union all
          select i.start_time, i.end_time from indoor_game_bookings i
          where i.indoor_game_id = r.game_id and i.date = ${w.date} and ${live('i')}
        ) x
      ) taken on true
      cross join lateral generate_series(
        h.open_m + r.step * greatest(0, ceil((greatest(${w.from}, ${w.nowMinute} + r.notice) - h.open_m)::numeric / r.step))::int,
        least(${w.to - 1}, h.close_m - ${w.duration}),
        r.step
      ) as t(start)
      where not r.closed and ${w.duration} % r.step = 0
        and (taken.busy is null or not taken.busy && int4range(t.start, t.start + ${w.duration}))
    ),
    free as (
      select venue_id, min(start) as first_start,
        array_to_json((array_agg(json_build_array(start, court_id, game_id, name)
          order by start, court_id nulls last, game_id))[1:5]) as starts
      from starts
      group by venue_id
    )
    select t.total, p.id, p.distance, p.starts
    from (select count(*) as total from free) t
    left join lateral (
      select v.id, ${distance} as distance, f.starts
      from free f join venues v on v.id = f.venue_id
      order by ${sql.join(order)}
      limit ${f.limit} offset ${f.offset}
    ) p on true
  `.execute(db)
  const rows: FreeVenueRow[] = []
  for (const r of result.rows) {
    if (r.id === null || r.starts === null) continue
    rows.push({ id: r.id, distance: r.distance === null ? null : Number(r.distance), starts: r.starts })
  }
  return { rows, total: Number(result.rows[0]?.total ?? 0) }
}
