import type { Executor } from '../../lib/db.ts'

// The bookings a calendar feed shows: court and indoor bookings of a user or of a venue from
// `fromDate` (venue-local) on, every status (a cancelled booking stays, as STATUS:CANCELLED).

export interface FeedRow {
  kind: 'court' | 'indoor'
  id: number
  booking_number: string
  date: string
  start_time: string
  end_time: string
  status: string
  calendar_sequence: number
  customer_name: string
  notes: string | null
  created_at: Date
  updated_at: Date
  resource_name: string
  venue_name: string
  venue_address: string
  venue_city: string
}

/** The columns a feed shows of either booking kind (both tables are aliased `b`, venues `v`). */
const BOOKING_COLUMNS = [
  'b.id',
  'b.booking_number',
  'b.date',
  'b.start_time',
  'b.end_time',
  'b.status',
  'b.calendar_sequence',
  'b.customer_name',
  'b.notes',
  'b.created_at',
  'b.updated_at',
] as const
const VENUE_COLUMNS = ['v.name as venue_name', 'v.address as venue_address', 'v.city as venue_city'] as const

export async function feedRows(
  db: Executor,
  owner: { userId: number } | { venueId: number },
  fromDate: string,
): Promise<FeedRow[]> {
  const court = db
    .selectFrom('bookings as b')
    .innerJoin('courts as c', 'c.id', 'b.court_id')
    .innerJoin('venues as v', 'v.id', 'b.venue_id')
    .select((eb) => [eb.val('court').as('kind'), ...BOOKING_COLUMNS, 'c.name as resource_name', ...VENUE_COLUMNS])
    .where('b.date', '>=', fromDate)
    .$if('userId' in owner, (q) => q.where('b.user_id', '=', (owner as { userId: number }).userId))
    .$if('venueId' in owner, (q) => q.where('b.venue_id', '=', (owner as { venueId: number }).venueId))
  const indoor = db
    .selectFrom('indoor_game_bookings as b')
    .innerJoin('indoor_games as g', 'g.id', 'b.indoor_game_id')
    .innerJoin('venues as v', 'v.id', 'b.venue_id')
    .select((eb) => [eb.val('indoor').as('kind'), ...BOOKING_COLUMNS, 'g.name as resource_name', ...VENUE_COLUMNS])
    .where('b.date', '>=', fromDate)
    .$if('userId' in owner, (q) => q.where('b.user_id', '=', (owner as { userId: number }).userId))
    .$if('venueId' in owner, (q) => q.where('b.venue_id', '=', (owner as { venueId: number }).venueId))
  const [a, b] = await Promise.all([court.execute(), indoor.execute()])
  const rows = [...a, ...b] as FeedRow[]
  return rows.sort(
    (x, y) =>
      x.date.localeCompare(y.date) ||
      x.start_time.localeCompare(y.start_time) ||
      x.kind.localeCompare(y.kind) ||
      x.id - y.id,
  )
}
