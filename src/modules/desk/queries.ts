import type { Executor } from '../../lib/db.ts'

// Read models of the front-desk board (GET /venues/{venue}/board) and of the event streams' look-up
// from a court or game to its venue. Each answers for a whole venue day in one query.

/** The venue's holiday on `date`, if any. */
export async function holidayOn(db: Executor, venueId: number, date: string) {
  return db
    .selectFrom('venue_holidays')
    .select(['id', 'name as reason'])
    .where('venue_id', '=', venueId)
    .where('date', '=', date)
    .executeTakeFirst()
}

/** Courts and indoor games of a venue (not deleted), with what the board's columns show. */
export async function venueResources(db: Executor, venueId: number) {
  const [courts, games] = await Promise.all([
    db
      .selectFrom('courts')
      .select(['id', 'name', 'type', 'is_active'])
      .where('venue_id', '=', venueId)
      .where('deleted_at', 'is', null)
      .orderBy('id')
      .execute(),
    db
      .selectFrom('indoor_games')
      .select(['id', 'name', 'game_type as type', 'is_active', 'sort_order'])
      .where('venue_id', '=', venueId)
      .where('deleted_at', 'is', null)
      .orderBy('sort_order')
      .orderBy('id')
      .execute(),
  ])
  return { courts, games }
}

export interface DayBookingRow {
  id: number
  booking_number: string
  resource_id: number
  start_time: string
  end_time: string
  status: string
  customer_name: string
  customer_phone: string | null
  type: string
  base_amount: number
  discount_amount: number
  extras_total: number
  total_amount: number
  paid_amount: number
  refunded_amount: number
  payment_method: string | null
  hold_expires_at: Date | string | null
  /** Waiting waitlist entries overlapping the booking (court bookings; 0 for indoor ones). */
  waiting: number
  /** The recurring series the booking is an occurrence of (court bookings; null for indoor ones). */
  series_id: number | null
  /** The booking is a waitlist offer still open (court bookings; false for indoor ones). */
  waitlist_offer: boolean
}

/** The columns both kinds of booking share, as the board reads them. */
const SHARED_COLUMNS = [
  'b.id',
  'b.booking_number',
  'b.start_time',
  'b.end_time',
  'b.status',
  'b.customer_name',
  'b.type',
  'b.base_amount',
  'b.discount_amount',
  'b.extras_total',
  'b.total_amount',
  'b.paid_amount',
  'b.refunded_amount',
  'b.payment_method',
  'b.hold_expires_at',
] as const

/** Every court booking of the venue on `date` (cancelled ones too), by start time, with its waitlist count. */
export async function courtBookingsOn(db: Executor, venueId: number, date: string): Promise<DayBookingRow[]> {
  const rows = await db
    .selectFrom('bookings as b')
    .leftJoin('users as u', 'u.id', 'b.user_id')
    .select((eb) => [
      ...SHARED_COLUMNS,
      'b.court_id as resource_id',
      eb.fn.coalesce('b.customer_phone', 'u.phone').as('customer_phone'),
      eb
        .selectFrom('waitlist_entries as w')
        .select(eb.fn.countAll<string>().as('n'))
        .whereRef('w.court_id', '=', 'b.court_id')
        .whereRef('w.date', '=', 'b.date')
        .whereRef('w.start_time', '<', 'b.end_time')
        .whereRef('w.end_time', '>', 'b.start_time')
        .where('w.status', '=', 'waiting')
        .as('waiting'),
      'b.series_id',
      eb
        .exists(
          eb
            .selectFrom('waitlist_entries as o')
            .select('o.id')
            .whereRef('o.offer_booking_id', '=', 'b.id')
            .where('o.status', '=', 'offered'),
        )
        .as('waitlist_offer'),
    ])
    .where('b.venue_id', '=', venueId)
    .where('b.date', '=', date)
    .orderBy('b.start_time')
    .orderBy('b.id')
    .execute()
  return rows.map((r) => ({ ...r, waiting: Number(r.waiting ?? 0), waitlist_offer: Boolean(r.waitlist_offer) }))
}

/** Every indoor game booking of the venue on `date` (cancelled ones too), by start time. */
export async function indoorBookingsOn(db: Executor, venueId: number, date: string): Promise<DayBookingRow[]> {
  const rows = await db
    .selectFrom('indoor_game_bookings as b')
    .leftJoin('users as u', 'u.id', 'b.user_id')
    .select((eb) => [
      ...SHARED_COLUMNS,
      'b.indoor_game_id as resource_id',
      eb.fn.coalesce('b.customer_phone', 'u.phone').as('customer_phone'),
    ])
    .where('b.venue_id', '=', venueId)
    .where('b.date', '=', date)
    .orderBy('b.start_time')
    .orderBy('b.id')
    .execute()
  return rows.map((r) => ({ ...r, waiting: 0, series_id: null, waitlist_offer: false }))
}

/** Maintenance blocks of the venue's courts on `date`. */
export async function blocksOn(db: Executor, venueId: number, date: string) {
  return db
    .selectFrom('court_blocks as k')
    .innerJoin('courts as c', 'c.id', 'k.court_id')
    .select(['k.id', 'k.court_id', 'k.start_time', 'k.end_time', 'k.reason'])
    .where('c.venue_id', '=', venueId)
    .where('k.date', '=', date)
    .orderBy('k.court_id')
    .orderBy('k.start_time')
    .execute()
}

/**
 * Cash received for the venue's bookings of `date` (both kinds): completed cash payments, and cash
 * payments refunded later (the cash was taken; refunds go to the wallet), in paisa.
 */
export async function cashTakenOn(db: Executor, venueId: number, date: string): Promise<number> {
  const row = await db
    .selectFrom('payments as p')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<string>('p.amount'), eb.lit(0)).as('cash'))
    .where('p.method', '=', 'cash')
    .where('p.status', 'in', ['completed', 'partially_refunded', 'refunded'])
    .where((eb) =>
      eb.or([
        eb.and([
          eb('p.payable_type', '=', 'court'),
          eb(
            'p.payable_id',
            'in',
            eb.selectFrom('bookings').select('id').where('venue_id', '=', venueId).where('date', '=', date),
          ),
        ]),
        eb.and([
          eb('p.payable_type', '=', 'indoor'),
          eb(
            'p.payable_id',
            'in',
            eb.selectFrom('indoor_game_bookings').select('id').where('venue_id', '=', venueId).where('date', '=', date),
          ),
        ]),
      ]),
    )
    .executeTakeFirst()
  return Number(row?.cash ?? 0)
}

/** The venue of a court or an indoor game (deleted ones too: their changes still concern it). */
export async function venueOfResource(db: Executor, kind: 'court' | 'indoor_game', id: number) {
  const row =
    kind === 'court'
      ? await db.selectFrom('courts').select('venue_id').where('id', '=', id).executeTakeFirst()
      : await db.selectFrom('indoor_games').select('venue_id').where('id', '=', id).executeTakeFirst()
  return row?.venue_id
}
