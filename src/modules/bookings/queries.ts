import type { AppContext } from '../../lib/context.ts'
import type { Executor } from '../../lib/db.ts'
import { selectUsers, type UserRow, userResource } from '../accounts/index.ts'
import { loadBookingExtras } from '../booking-core/index.ts'
import { loadCourtResources } from '../courts/index.ts'
import { reviewsByBookingIds } from '../reviews/index.ts'
import { venueSummary } from '../venues/index.ts'
import { type Booking, bookingResource } from './resource.ts'
import { payBy } from './series-payments.ts'

// The batch loader of court booking resources: a page of bookings costs a fixed number of queries
// whatever its length.

/**
 * Court bookings by id, in the order of `ids` (unknown ids are skipped). `withUser` embeds the
 * customer (the single-booking views); lists leave `user` out.
 */
export async function loadBookings(
  ctx: AppContext,
  ids: number[],
  opts: { withUser?: boolean } = {},
): Promise<Booking[]> {
  if (ids.length === 0) return []
  // Never inside a transaction: the review loader reads through ctx.db (and PGlite has one session).
  const db = ctx.db
  const rows = await db.selectFrom('bookings').selectAll().where('id', 'in', ids).execute()
  const bookingIds = rows.map((r) => r.id)
  const userIds = [...new Set(rows.map((r) => r.user_id).filter((id): id is number => id !== null))]
  const [courts, venues, extras, reviews, users, laterWeeks] = await Promise.all([
    loadCourtResources(
      db,
      rows.map((r) => r.court_id),
      { storage: ctx.storage, zone: ctx.zone },
    ),
    db
      .selectFrom('venues')
      .select(['id', 'name', 'slug'])
      .where('id', 'in', [...new Set(rows.map((r) => r.venue_id))])
      .execute(),
    loadBookingExtras(db, 'court', bookingIds, ctx.zone),
    reviewsByBookingIds(ctx, bookingIds),
    opts.withUser && userIds.length > 0 ? selectUsers(db).where('u.id', 'in', userIds).execute() : Promise.resolve([]),
    customerLaterWeeks(db, rows),
  ])
  const venueById = new Map(venues.map((v) => [v.id, venueSummary(v)]))
  const userById = new Map(users.map((u) => [u.id, userResource(ctx, u as UserRow)]))
  const byId = new Map(rows.map((r) => [r.id, r]))
  const out: Booking[] = []
  for (const id of ids) {
    const b = byId.get(id)
    if (!b) continue
    const booking = bookingResource(
      laterWeeks.has(b.id) ? releasedBy(ctx, b) : b,
      {
        court: courts.get(b.court_id) ?? null,
        venue: venueById.get(b.venue_id) ?? null,
        payments: extras.payments(b.id),
        charges: extras.charges(b.id),
        couponUsage: extras.couponUsage(b.id),
        review: reviews.get(b.id) ?? null,
      },
      ctx.zone,
    )
    if (opts.withUser) booking.user = b.user_id === null ? null : (userById.get(b.user_id) ?? null)
    out.push(booking)
  }
  return out
}

/**
 * The pending bookings among `rows` that are later weeks of a customer's series: the series
 * payment sweep releases them SERIES_PAY_BEFORE_HOURS before their start (series-payments.ts).
 */
async function customerLaterWeeks(
  db: Executor,
  rows: Array<{ id: number; status: string; date: string; series_id: number | null }>,
): Promise<Set<number>> {
  const pending = rows.filter((r) => r.status === 'pending' && r.series_id !== null)
  if (pending.length === 0) return new Set()
  const series = await db
    .selectFrom('booking_series')
    .select(['id', 'start_date'])
    .where('id', 'in', [...new Set(pending.map((r) => r.series_id as number))])
    .where('type', '=', 'online')
    .where('user_id', 'is not', null)
    .execute()
  const startOf = new Map(series.map((s) => [s.id, s.start_date]))
  return new Set(
    pending
      .filter((r) => {
        const start = startOf.get(r.series_id as number)
        return start !== undefined && r.date > start
      })
      .map((r) => r.id),
  )
}

/**
 * A later week's row as the resource shows it: it holds its slot until the series payment
 * deadline, not its start, so hold_expires_at (the "Pay by" players read) is that deadline.
 */
function releasedBy<T extends { date: string; start_time: string; hold_expires_at: Date | null }>(
  ctx: AppContext,
  b: T,
): T {
  const deadline = payBy(ctx, b.date, b.start_time)
  const hold = b.hold_expires_at
  return hold !== null && hold.getTime() <= deadline.getTime() ? b : { ...b, hold_expires_at: deadline }
}

/** One court booking as the resource (with its customer unless told otherwise). */
export async function loadBooking(ctx: AppContext, id: number, opts = { withUser: true }): Promise<Booking> {
  const [booking] = await loadBookings(ctx, [id], opts)
  if (!booking) throw new Error(`booking ${id} vanished`)
  return booking
}

/**
 * How many customers wait for a slot overlapping each booking (booking id → count; 0 left out), for
 * the venue's booking list. A read of waitlist_entries shaped for that answer; the waitlist module
 * owns the entries and their offers.
 */
export async function waitingCounts(db: Executor, bookingIds: number[]): Promise<Map<number, number>> {
  if (bookingIds.length === 0) return new Map()
  const rows = await db
    .selectFrom('bookings as b')
    .innerJoin('waitlist_entries as w', (j) =>
      j
        .onRef('w.court_id', '=', 'b.court_id')
        .onRef('w.date', '=', 'b.date')
        .onRef('w.start_time', '<', 'b.end_time')
        .onRef('w.end_time', '>', 'b.start_time')
        .on('w.status', '=', 'waiting'),
    )
    .select(['b.id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('b.id', 'in', bookingIds)
    .groupBy('b.id')
    .execute()
  return new Map(rows.map((r) => [r.id, Number(r.n)]))
}
