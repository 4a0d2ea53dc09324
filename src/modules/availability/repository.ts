import { type ExpressionBuilder, sql } from 'kysely'
import { jsonArrayFrom, jsonObjectFrom } from 'kysely/helpers/postgres'
import type { DB } from '../../db/types.ts'
import { type Executor, ReusedStatements } from '../../lib/db.ts'
import { dayOfWeek } from '../../lib/time.ts'
import type { DaySetup, PriceRuleInput } from './slots.ts'

// One round trip per question: everything a court's (or indoor game's) day depends on, read with
// JSON sub-selects. Booking look-ups go through bookings_court_date_idx / indoor_bookings_game_date_idx.

/** A time range [start_time, end_time) on the day, "HH:mm:ss". */
export interface TakenRange {
  start_time: string
  end_time: string
  /** A pending booking's hold end (it stops occupying the slot then); null otherwise. */
  hold_expires_at?: string | null
}

export interface VenueVisibility {
  venue_id: number
  owner_id: number
  verification_status: string
  venue_active: boolean
}

export interface CourtDay extends VenueVisibility {
  id: number
  is_active: boolean
  setup: DaySetup
  blocks: TakenRange[]
  /** Live bookings of the day; only loaded when asked for. */
  bookings: TakenRange[]
}

export interface IndoorDay extends VenueVisibility {
  id: number
  is_active: boolean
  setup: DaySetup
  bookings: TakenRange[]
}

/** The day queries, built once per shape (with or without bookings) and reused. */
export const statements = new ReusedStatements()

/** pending with a running (or no) hold, confirmed, playing: a booking that occupies its slot. */
function liveBooking(eb: ExpressionBuilder<DB, 'bookings'> | ExpressionBuilder<DB, 'indoor_game_bookings'>, now: Date) {
  // Both tables share these columns; the cast keeps one definition for the two builders.
  const b = eb as unknown as ExpressionBuilder<DB, 'bookings'>
  return b.or([
    b('status', 'in', ['confirmed', 'playing']),
    b.and([b('status', '=', 'pending'), b.or([b('hold_expires_at', 'is', null), b('hold_expires_at', '>', now)])]),
  ])
}

type DayArgs = { dow: number; date: string; now: Date }

/** The court day's select (court, venue, schedule, rules, holiday, blocks, live bookings); callers add the filter. */
function courtDaySelect(db: Executor, withBookings: boolean, { dow, date, now }: DayArgs) {
  return db
    .selectFrom('courts as c')
    .innerJoin('venues as v', 'v.id', 'c.venue_id')
    .select([
      'c.id',
      'c.venue_id',
      'c.slot_minutes',
      'c.price_per_hour',
      'c.is_active',
      'v.owner_id',
      'v.opening_time',
      'v.closing_time',
      'v.verification_status',
      'v.is_active as venue_active',
    ])
    .select((eb) => [
      jsonObjectFrom(
        eb
          .selectFrom('court_schedules as s')
          .select(['s.open_time', 's.close_time', 's.is_closed'])
          .whereRef('s.court_id', '=', 'c.id')
          .where('s.day_of_week', '=', dow),
      ).as('schedule'),
      jsonArrayFrom(
        eb
          .selectFrom('pricing_rules as r')
          .select(['r.id', 'r.type', 'r.day_of_week', 'r.start_time', 'r.end_time', 'r.price_per_hour', 'r.is_active'])
          .whereRef('r.court_id', '=', 'c.id')
          .where('r.is_active', '=', true)
          .where((w) => w.or([w('r.day_of_week', 'is', null), w('r.day_of_week', '=', dow)])),
      ).as('rules'),
      eb
        .exists(
          eb
            .selectFrom('venue_holidays as h')
            .select('h.id')
            .whereRef('h.venue_id', '=', 'c.venue_id')
            .where('h.date', '=', date),
        )
        .as('is_holiday'),
      jsonArrayFrom(
        eb
          .selectFrom('court_blocks as k')
          .select(['k.start_time', 'k.end_time'])
          .whereRef('k.court_id', '=', 'c.id')
          .where('k.date', '=', date),
      ).as('blocks'),
      withBookings
        ? jsonArrayFrom(
            eb
              .selectFrom('bookings')
              .select(['bookings.start_time', 'bookings.end_time', 'bookings.hold_expires_at'])
              .whereRef('bookings.court_id', '=', 'c.id')
              .where('bookings.date', '=', date)
              .where((w) => liveBooking(w, now)),
          ).as('bookings')
        : sql<TakenRange[]>`'[]'::json`.as('bookings'),
    ])
}

type CourtDayRow = Awaited<ReturnType<ReturnType<typeof courtDaySelect>['execute']>>[number]

function toCourtDay(row: CourtDayRow, date: string): CourtDay {
  const schedule = row.schedule
  return {
    id: row.id,
    is_active: row.is_active,
    venue_id: row.venue_id,
    owner_id: row.owner_id,
    verification_status: row.verification_status,
    venue_active: row.venue_active,
    setup: {
      date,
      slotMinutes: row.slot_minutes,
      openTime: schedule ? schedule.open_time : row.opening_time,
      closeTime: schedule ? schedule.close_time : row.closing_time,
      isClosed: schedule ? schedule.is_closed : false,
      isHoliday: Boolean(row.is_holiday),
      pricePerHour: row.price_per_hour,
      rules: row.rules.map((r): PriceRuleInput => ({ ...r, price_per_hour: Number(r.price_per_hour) })),
    },
    blocks: row.blocks,
    bookings: row.bookings,
  }
}

/** The court (not deleted, at a venue that is not deleted) and its day on `date`; undefined if absent. */
export async function loadCourtDay(
  db: Executor,
  courtId: number,
  date: string,
  opts: { withBookings: boolean; now: Date },
): Promise<CourtDay | undefined> {
  const args = { dow: dayOfWeek(date), date, now: opts.now, courtId }
  const build = ({ courtId, ...day }: typeof args) =>
    courtDaySelect(db, opts.withBookings, day)
      .where('c.id', '=', courtId)
      .where('c.deleted_at', 'is', null)
      .where('v.deleted_at', 'is', null)
  const [row] = await statements.run(db, `court-day:${opts.withBookings}`, args, build)
  return row ? toCourtDay(row, date) : undefined
}

/**
 * Every court (not deleted, active or not) of a venue and its day on `date`, in one query: the same
 * select and setup as loadCourtDay, without bookings (the staff board lists those itself).
 */
export async function loadVenueCourtDays(db: Executor, venueId: number, date: string, now: Date): Promise<CourtDay[]> {
  const rows = await courtDaySelect(db, false, { dow: dayOfWeek(date), date, now })
    .where('c.venue_id', '=', venueId)
    .where('c.deleted_at', 'is', null)
    .where('v.deleted_at', 'is', null)
    .execute()
  return rows.map((row) => toCourtDay(row, date))
}

/** The indoor game day's select (game, venue, live bookings); callers add the filter. */
function indoorDaySelect(db: Executor, withBookings: boolean, { date, now }: { date: string; now: Date }) {
  return db
    .selectFrom('indoor_games as g')
    .innerJoin('venues as v', 'v.id', 'g.venue_id')
    .select([
      'g.id',
      'g.venue_id',
      'g.slot_minutes',
      'g.price_per_hour',
      'g.is_active',
      'v.owner_id',
      'v.opening_time',
      'v.closing_time',
      'v.verification_status',
      'v.is_active as venue_active',
    ])
    .select((eb) => [
      withBookings
        ? jsonArrayFrom(
            eb
              .selectFrom('indoor_game_bookings')
              .select([
                'indoor_game_bookings.start_time',
                'indoor_game_bookings.end_time',
                'indoor_game_bookings.hold_expires_at',
              ])
              .whereRef('indoor_game_bookings.indoor_game_id', '=', 'g.id')
              .where('indoor_game_bookings.date', '=', date)
              .where((w) => liveBooking(w, now)),
          ).as('bookings')
        : sql<TakenRange[]>`'[]'::json`.as('bookings'),
    ])
}

type IndoorDayRow = Awaited<ReturnType<ReturnType<typeof indoorDaySelect>['execute']>>[number]

function toIndoorDay(row: IndoorDayRow, date: string): IndoorDay {
  return {
    id: row.id,
    is_active: row.is_active,
    venue_id: row.venue_id,
    owner_id: row.owner_id,
    verification_status: row.verification_status,
    venue_active: row.venue_active,
    setup: {
      date,
      slotMinutes: row.slot_minutes,
      openTime: row.opening_time,
      closeTime: row.closing_time,
      isClosed: false,
      isHoliday: false,
      pricePerHour: row.price_per_hour,
      rules: [],
    },
    bookings: row.bookings,
  }
}

/** The indoor game (not deleted, venue not deleted) and its day on `date`; undefined if absent. */
export async function loadIndoorDay(
  db: Executor,
  gameId: number,
  date: string,
  opts: { withBookings: boolean; now: Date },
): Promise<IndoorDay | undefined> {
  const args = { date, now: opts.now, gameId }
  const build = ({ gameId, ...day }: typeof args) =>
    indoorDaySelect(db, opts.withBookings, day)
      .where('g.id', '=', gameId)
      .where('g.deleted_at', 'is', null)
      .where('v.deleted_at', 'is', null)
  const [row] = await statements.run(db, `indoor-day:${opts.withBookings}`, args, build)
  return row ? toIndoorDay(row, date) : undefined
}

/** Every indoor game (not deleted, active or not) of a venue and its day on `date`, without bookings. */
export async function loadVenueIndoorDays(
  db: Executor,
  venueId: number,
  date: string,
  now: Date,
): Promise<IndoorDay[]> {
  const rows = await indoorDaySelect(db, false, { date, now })
    .where('g.venue_id', '=', venueId)
    .where('g.deleted_at', 'is', null)
    .where('v.deleted_at', 'is', null)
    .execute()
  return rows.map((row) => toIndoorDay(row, date))
}
