import { sql } from 'kysely'
import type { Executor } from '../../../lib/db.ts'

// What the booking rules read (booking-core/rules.ts, docs/bookings.md "Booking rules" and
// "No-shows"): the venue's settings, a customer's no-show strikes there (court and indoor
// together, since their latest clearing) and the minutes of live bookings they hold there on a
// date. The venue's settings alone are what most bookings need (read through the cache); the
// standing is one statement, read only when a limit of the venue could refuse the booking.

export interface VenueRules {
  booking_window_days: number
  min_notice_minutes: number
  max_hours_per_day: number | null
  no_show_limit: number | null
  allows_pay_at_venue: boolean
}

export interface CustomerStanding extends VenueRules {
  /** No-shows at the venue on or after `since` whose booking started after the latest clearing. */
  no_shows: number
  /** Minutes of the customer's live bookings at the venue on `date`, court and indoor together. */
  booked_minutes: number
}

/**
 * The venue's rules and the customer's standing there. `since` is the first date whose no-shows
 * count (today − 90 days); `zone` reads the latest clearing's instant as a venue-local wall clock,
 * compared with each booking's date + start time; `now` decides which pending holds are live.
 */
export async function customerStanding(
  db: Executor,
  q: { venueId: number; userId: number; date: string; since: string; now: Date; zone: string },
): Promise<CustomerStanding | undefined> {
  const live = (table: 'bookings' | 'indoor_game_bookings') => sql`
    SELECT coalesce(sum(extract(epoch FROM (end_time - start_time)) / 60), 0) AS minutes
      FROM ${sql.table(table)}
     WHERE user_id = ${q.userId} AND venue_id = ${q.venueId} AND date = ${q.date}
       AND (status IN ('confirmed', 'playing', 'completed')
            OR (status = 'pending' AND (hold_expires_at IS NULL OR hold_expires_at > ${q.now})))`
  const noShows = (table: 'bookings' | 'indoor_game_bookings') => sql`
    SELECT date, start_time FROM ${sql.table(table)}
     WHERE user_id = ${q.userId} AND venue_id = ${q.venueId} AND status = 'no_show' AND date >= ${q.since}`
  const { rows } = await sql<{
    booking_window_days: number
    min_notice_minutes: number
    max_hours_per_day: number | null
    no_show_limit: number | null
    allows_pay_at_venue: boolean
    no_shows: string | number
    booked_minutes: string | number
  }>`
    WITH cleared AS (
      SELECT max(cleared_at) AT TIME ZONE ${q.zone} AS at
        FROM venue_no_show_clearances WHERE venue_id = ${q.venueId} AND user_id = ${q.userId}
    )
    SELECT v.booking_window_days, v.min_notice_minutes, v.max_hours_per_day, v.no_show_limit, v.allows_pay_at_venue,
           (SELECT count(*) FROM (${noShows('bookings')} UNION ALL ${noShows('indoor_game_bookings')}) n, cleared c
             WHERE c.at IS NULL OR n.date + n.start_time > c.at) AS no_shows,
           (SELECT sum(m.minutes) FROM (${live('bookings')} UNION ALL ${live('indoor_game_bookings')}) m) AS booked_minutes
      FROM venues v
     WHERE v.id = ${q.venueId}`.execute(db)
  const row = rows[0]
  if (!row) return undefined
  return { ...row, no_shows: Number(row.no_shows), booked_minutes: Math.round(Number(row.booked_minutes)) }
}

/** The venue's rules alone (every customer booking's check, a payment intent's), or undefined for an unknown venue. */
export function venueRules(db: Executor, venueId: number): Promise<VenueRules | undefined> {
  return db
    .selectFrom('venues')
    .select(['booking_window_days', 'min_notice_minutes', 'max_hours_per_day', 'no_show_limit', 'allows_pay_at_venue'])
    .where('id', '=', venueId)
    .executeTakeFirst()
}

/** No-show strikes of a customer at a venue since `since` (a date), after the latest clearing; and that clearing. */
export async function noShowStrikes(
  db: Executor,
  q: { venueId: number; userId: number; since: string; zone: string },
): Promise<{ no_shows: number; cleared_at: Date | null }> {
  const noShows = (table: 'bookings' | 'indoor_game_bookings') => sql`
    SELECT date, start_time FROM ${sql.table(table)}
     WHERE user_id = ${q.userId} AND venue_id = ${q.venueId} AND status = 'no_show' AND date >= ${q.since}`
  const { rows } = await sql<{ no_shows: string | number; cleared_at: Date | null }>`
    WITH cleared AS (
      SELECT max(cleared_at) AS at FROM venue_no_show_clearances WHERE venue_id = ${q.venueId} AND user_id = ${q.userId}
    )
    SELECT (SELECT count(*) FROM (${noShows('bookings')} UNION ALL ${noShows('indoor_game_bookings')}) n, cleared c
             WHERE c.at IS NULL OR n.date + n.start_time > c.at AT TIME ZONE ${q.zone}) AS no_shows,
           (SELECT at FROM cleared) AS cleared_at`.execute(db)
  return { no_shows: Number(rows[0]?.no_shows ?? 0), cleared_at: rows[0]?.cleared_at ?? null }
}

/** Records a clearing of a customer's strikes at a venue (history: rows are never changed or deleted). */
export async function insertNoShowClearance(
  db: Executor,
  values: { venue_id: number; user_id: number; cleared_at: Date; cleared_by: number; no_shows: number },
) {
  return db.insertInto('venue_no_show_clearances').values(values).returningAll().executeTakeFirstOrThrow()
}

/** Whether the user exists (a clearing names a customer account). */
export async function userExists(db: Executor, id: number): Promise<boolean> {
  return !!(await db.selectFrom('users').select('id').where('id', '=', id).executeTakeFirst())
}
