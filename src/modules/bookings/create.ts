import { cacheTags } from '../../lib/cache-tags.ts'
import type { AppContext } from '../../lib/context.ts'
import { Conflict } from '../../lib/errors.ts'
import { selectUsers, type UserRow, userResource } from '../accounts/index.ts'
import { COURT_UNAVAILABLE } from '../availability/index.ts'
import {
  type Booker,
  capsApply,
  insertPastLapsedHolds,
  tooManyUnpaid,
  unpaidHoldOf,
  unpaidHoldRefused,
} from '../booking-core/index.ts'
import { loadCourtResources } from '../courts/index.ts'
import { venueSummary } from '../venues/index.ts'
import { hasSubscribers } from '../webhooks/index.ts'
import { insertPlain, insertPreparedBooking } from './insert.ts'
import { type NewBooking, prepareCourtBooking } from './prepare.ts'
import { loadBooking } from './queries.ts'
import { insertBooking } from './repository.ts'
import { type Booking, bookingResource } from './resource.ts'
import { assertUnpaidCap, unpaidCapField } from './unpaid-cap.ts'

// Creating a court booking, for customers (online) and venue staff (offline, walk-in) alike:
// prepare (prepare.ts), insert by path (insert.ts), read the answer back.

type BookingRow = Awaited<ReturnType<typeof insertBooking>>

/** The contract's 409 for a taken slot, counted. */
export function courtConflict(ctx: AppContext) {
  ctx.metrics.bookingConflicts.inc({ kind: 'court' })
  return new Conflict(COURT_UNAVAILABLE)
}

/**
 * Creates a court booking and returns it as the resource, with its customer as `user`.
 *
 * The database decides whether the slot is free: the INSERT is refused by the exclusion constraint
 * bookings_no_overlap (SQLSTATE 23P01) when the range overlaps a live booking of the court, which
 * becomes 409. The booking number comes from a sequence inside the INSERT statement (a refused
 * booking leaves a gap), which also takes the court's advisory lock (booking-core/repository/numbers.ts).
 *
 * A plain booking (no coupon, something to pay) is that one statement, with its payment intent
 * already in the row; a customer's own is counted against their unpaid cap in the same statement
 * (the customer's lock, the count, CSU01 at the cap: bookings/repository.ts insertBooking), which
 * becomes the cap's 422; the same statement reads whether the customer has a verified phone, which
 * decides the hold (holdUntil). A coupon or a free booking also redeems the coupon / confirms and
 * notifies, in one transaction with the INSERT (a coupon booking's cap counted first in it).
 * Expired payment holds never block a slot: when the INSERT is refused, the expired holds on that
 * court and date are cancelled (their own transaction; a customer waiting for the slot is offered
 * it there, docs/bookings.md "Waitlist") and, if there were any, the INSERT is tried once more.
 */
export async function createCourtBooking(ctx: AppContext, input: NewBooking, booker: Booker): Promise<Booking> {
  const now = ctx.clock.now()
  const p = await prepareCourtBooking(ctx, input, booker, now)
  // A customer's own booking with something to pay is counted against their unpaid cap: a plain one
  // inside its INSERT (hold), one with a coupon in its transaction (unpaid-cap.ts); staff bookings
  // and free ones are not.
  const capped = capsApply(booker) && p.values.total_amount > 0
  // The webhook outbox needs a transaction; a plain booking at a venue nobody listens to stays one
  // statement, its unpaid cap (a customer's own) counted inside it.
  const outbox = p.plain && (await hasSubscribers(ctx, p.venueId, 'booking.created'))
  // Its hold is chosen inside the INSERT by the customer's phone (insertBooking): a customer without
  // a verified phone holds the slot only for the payment window, whatever the method.
  const hold = capped && p.plain ? { ...unpaidHoldOf(ctx, booker), unverifiedHold: p.unverifiedHold } : undefined
  const attempt = (): Promise<BookingRow | number> =>
    p.plain && !outbox
      ? insertBooking(ctx.db, p.values, p.year, hold)
      : ctx.db.transaction().execute(async (trx): Promise<BookingRow | number> => {
          if (p.plain) return insertPlain(ctx, trx, p, hold)
          if (capped) await assertUnpaidCap(ctx, trx, p)
          return insertPreparedBooking(ctx, trx, p)
        })
  const result = await insertPastLapsedHolds(ctx, 'court', { resourceId: p.courtId, date: input.date }, () =>
    attempt().catch((error: unknown) => {
      const held = unpaidHoldRefused(error)
      throw held === undefined ? error : tooManyUnpaid(ctx, held, unpaidCapField(p))
    }),
  )
  if (result === null) throw courtConflict(ctx)
  ctx.metrics.bookings.inc({ kind: 'court' })
  if (typeof result === 'number') return loadBooking(ctx, result)
  // A new booking has no payments, charges, coupon or review yet: only the court is read back.
  const { venue, customer_wallet_balance: wallet, ...row } = result
  const [courtResource, customer] = await Promise.all([
    cachedCourt(ctx, p.courtId, p.venueId),
    row.user_id === null ? null : cachedProfile(ctx, row.user_id),
  ])
  const booking = bookingResource(
    row,
    {
      court: courtResource,
      venue: venue ? venueSummary(venue) : null,
      payments: [],
      charges: [],
      couponUsage: null,
      review: null,
    },
    ctx.zone,
  )
  booking.user =
    customer && wallet !== null ? userResource(ctx, { ...customer, wallet_balance: wallet } as UserRow) : null
  return booking
}

/**
 * The court as embedded in the booking, through the read cache: a court, its schedule, rules and
 * images change rarely, and its bookings announce a different tag ('slots:<id>').
 */
function cachedCourt(ctx: AppContext, courtId: number, venueId: number) {
  return ctx.cache.through(
    `court-resource:${courtId}`,
    async () =>
      (await loadCourtResources(ctx.db, [courtId], { storage: ctx.storage, zone: ctx.zone })).get(courtId) ?? null,
    (court) => (court ? { tags: [cacheTags.court(courtId), cacheTags.venue(venueId), cacheTags.catalogue] } : null),
  )
}

/**
 * The customer's User (roles, permissions, profile) through the read cache, tagged 'user:<id>',
 * which every profile, suspension or role change announces. The wallet balance is not taken from
 * here: the INSERT returns the current one.
 */
function cachedProfile(ctx: AppContext, userId: number) {
  return ctx.cache.through(
    `user-profile:${userId}`,
    async () => (await selectUsers(ctx.db).where('u.id', '=', userId).executeTakeFirst()) ?? null,
    (profile) => (profile ? { tags: [cacheTags.user(userId)] } : null),
  )
}
