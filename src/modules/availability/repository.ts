import { type AliasedSelectQueryBuilder, sql } from 'kysely'
import { jsonArrayFrom, jsonObjectFrom } from 'kysely/helpers/postgres'
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

/** A court's or an indoor game's day: what its slots, prices and availability are read from. */
export interface Day extends VenueVisibility {
  id: number
  is_active: boolean
  setup: DaySetup
  /** Maintenance blocks of the day (courts; always empty for an indoor game). */
  blocks: TakenRange[]
  /** Live bookings of the day; only loaded when asked for. */
  bookings: TakenRange[]
}

/** What a day is read for: a court (schedule, pricing rules, holidays, blocks) or an indoor game (venue hours, its price). */
export type DayKind = 'court' | 'indoor'

/** The columns a day reads of a court or an indoor game (both tables have them). */
interface ResourceRow {
  id: number
  venue_id: number
  slot_minutes: number
  price_per_hour: number
  is_active: boolean
  deleted_at: Date | null
}

/** The courts or the indoor games, as one shape: the day's only kind-specific table. */
function resources(db: Executor, kind: DayKind): AliasedSelectQueryBuilder<ResourceRow, 'r'> {
  const columns = ['id', 'venue_id', 'slot_minutes', 'price_per_hour', 'is_active', 'deleted_at'] as const
  return kind === 'court'
    ? db.selectFrom('courts').select(columns).as('r')
    : db.selectFrom('indoor_games').select(columns).as('r')
}

/** The columns a day reads of a booking of either kind; resource_id is its court or game. */
interface BookedRow {
  resource_id: number
  date: string
  status: string
  start_time: string
  end_time: string
  hold_expires_at: Date | null
}

/** The court bookings or the indoor game bookings, as one shape. */
function booked(db: Executor, kind: DayKind): AliasedSelectQueryBuilder<BookedRow, 'b'> {
  const columns = ['date', 'status', 'start_time', 'end_time', 'hold_expires_at'] as const
  return kind === 'court'
    ? db
        .selectFrom('bookings')
        .select(['court_id as resource_id', ...columns])
        .as('b')
    : db
        .selectFrom('indoor_game_bookings')
        .select(['indoor_game_id as resource_id', ...columns])
        .as('b')
}

/** The day queries, built once per kind and shape (with or without bookings) and reused. */
export const statements = new ReusedStatements()

type DayArgs = { dow: number; date: string; now: Date }

/**
 * The day's select for either kind (resource, venue, schedule, rules, holiday, blocks, live
 * bookings: pending with a running or no hold, confirmed, playing); callers add the filter. What a
 * kind does not have comes out empty (an indoor game: no schedule, rules, holiday or blocks).
 */
function daySelect(db: Executor, kind: DayKind, withBookings: boolean, { dow, date, now }: DayArgs) {
  const court = kind === 'court'
  return db
    .selectFrom(resources(db, kind))
    .innerJoin('venues as v', 'v.id', 'r.venue_id')
    .select([
      'r.id',
      'r.venue_id',
      'r.slot_minutes',
      'r.price_per_hour',
      'r.is_active',
      'v.owner_id',
      'v.opening_time',
      'v.closing_time',
      'v.verification_status',
      'v.is_active as venue_active',
    ])
    .select((eb) => [
      court
        ? jsonObjectFrom(
            eb
              .selectFrom('court_schedules as s')
              .select(['s.open_time', 's.close_time', 's.is_closed'])
              .whereRef('s.court_id', '=', 'r.id')
              .where('s.day_of_week', '=', dow),
          ).as('schedule')
        : sql<Schedule | null>`null`.as('schedule'),
      court
        ? jsonArrayFrom(
            eb
              .selectFrom('pricing_rules as p')
              .select([
                'p.id',
                'p.type',
                'p.day_of_week',
                'p.start_time',
                'p.end_time',
                'p.price_per_hour',
                'p.is_active',
              ])
              .whereRef('p.court_id', '=', 'r.id')
              .where('p.is_active', '=', true)
              .where((w) => w.or([w('p.day_of_week', 'is', null), w('p.day_of_week', '=', dow)])),
          ).as('rules')
        : sql<RuleRow[]>`'[]'::json`.as('rules'),
      court
        ? eb
            .exists(
              eb
                .selectFrom('venue_holidays as h')
                .select('h.id')
                .whereRef('h.venue_id', '=', 'r.venue_id')
                .where('h.date', '=', date),
            )
            .as('is_holiday')
        : sql<boolean>`false`.as('is_holiday'),
      court
        ? jsonArrayFrom(
            eb
              .selectFrom('court_blocks as k')
              .select(['k.start_time', 'k.end_time'])
              .whereRef('k.court_id', '=', 'r.id')
              .where('k.date', '=', date),
          ).as('blocks')
        : sql<TakenRange[]>`'[]'::json`.as('blocks'),
      withBookings
        ? jsonArrayFrom(
            eb
              .selectFrom(booked(db, kind))
              .select(['b.start_time', 'b.end_time', 'b.hold_expires_at'])
              .whereRef('b.resource_id', '=', 'r.id')
              .where('b.date', '=', date)
              .where((w) =>
                w.or([
                  w('b.status', 'in', ['confirmed', 'playing']),
                  w.and([
                    w('b.status', '=', 'pending'),
                    w.or([w('b.hold_expires_at', 'is', null), w('b.hold_expires_at', '>', now)]),
                  ]),
                ]),
              ),
          ).as('bookings')
        : sql<TakenRange[]>`'[]'::json`.as('bookings'),
    ])
}

interface Schedule {
  open_time: string
  close_time: string
  is_closed: boolean
}
type RuleRow = Omit<PriceRuleInput, 'price_per_hour'> & { price_per_hour: number | string }

type DayRow = Awaited<ReturnType<ReturnType<typeof daySelect>['execute']>>[number]

function toDay(row: DayRow, date: string): Day {
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

/** The court or indoor game (not deleted, at a venue that is not deleted) and its day on `date`; undefined if absent. */
export async function loadDay(
  db: Executor,
  kind: DayKind,
  id: number,
  date: string,
  opts: { withBookings: boolean; now: Date },
): Promise<Day | undefined> {
  const args = { dow: dayOfWeek(date), date, now: opts.now, id }
  const build = ({ id, ...day }: typeof args) =>
    daySelect(db, kind, opts.withBookings, day)
      .where('r.id', '=', id)
      .where('r.deleted_at', 'is', null)
      .where('v.deleted_at', 'is', null)
  const [row] = await statements.run(db, `${kind}-day:${opts.withBookings}`, args, build)
  return row ? toDay(row, date) : undefined
}

/**
 * Every court or indoor game (not deleted, active or not) of a venue and its day on `date`, in one
 * query: the same select and setup as loadDay, without bookings (the staff board lists those itself).
 */
export function loadVenueDays(db: Executor, kind: DayKind, venueId: number, date: string, now: Date): Promise<Day[]> {
  return loadDaysWhere(db, kind, date, now, (q) => q.where('r.venue_id', '=', venueId))
}

/**
 * The days on `date` of the courts or indoor games `ids` (not deleted, at venues not deleted), in one
 * query and without bookings: what prices a page of the catalogue (min_price, free slots' prices).
 */
export function loadDays(db: Executor, kind: DayKind, ids: number[], date: string, now: Date): Promise<Day[]> {
  if (ids.length === 0) return Promise.resolve([])
  return loadDaysWhere(db, kind, date, now, (q) => q.where('r.id', 'in', ids))
}

/** The days of the courts or games of venues `venueIds` on `date` (live ones only: active, not deleted). */
export function loadLiveDaysOfVenues(
  db: Executor,
  kind: DayKind,
  venueIds: number[],
  date: string,
  now: Date,
): Promise<Day[]> {
  if (venueIds.length === 0) return Promise.resolve([])
  return loadDaysWhere(db, kind, date, now, (q) =>
    q.where('r.venue_id', 'in', venueIds).where('r.is_active', '=', true),
  )
}

type DayQuery = ReturnType<typeof daySelect>

async function loadDaysWhere(
  db: Executor,
  kind: DayKind,
  date: string,
  now: Date,
  filter: (q: DayQuery) => DayQuery,
): Promise<Day[]> {
  const rows = await filter(daySelect(db, kind, false, { dow: dayOfWeek(date), date, now }))
    .where('r.deleted_at', 'is', null)
    .where('v.deleted_at', 'is', null)
    .execute()
  return rows.map((row) => toDay(row, date))
}
