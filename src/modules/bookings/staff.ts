import type { Static } from 'typebox'
import type { AuthUser } from '../../lib/auth.ts'
import type { AppContext } from '../../lib/context.ts'
import { Invalid, NotFound } from '../../lib/errors.ts'
import type { PageParams } from '../../lib/pagination.ts'
import {
  addCharge,
  assertNotOwnBooking,
  changeStatus,
  deskAmount,
  lockBooking,
  recordDeskPayment,
  statusReason,
} from '../booking-core/index.ts'
import { assertVenueAccess, DESK_ROLES, resolveVenue } from '../venues/index.ts'
import { createCourtBooking } from './create.ts'
import { loadBooking, loadBookings, waitingCounts } from './queries.ts'
import { bookingOwnership, listBookingIds, parseId } from './repository.ts'
import type { Booking, Series } from './resource.ts'
import type {
  ChargeBody,
  PaymentBody,
  StaffCreateBody,
  StaffSeriesBody,
  StatusBody,
  VenueListQuery,
} from './schemas.ts'
import { createSeries } from './series.ts'

// Venue staff operations on court bookings (docs/bookings.md, "Staff operations"): the venue's owner,
// managers and staff, and any super_admin.

/** The venue's id when the caller works there: 404 unknown venue, 403 otherwise. */
export async function venueFor(ctx: AppContext, user: AuthUser, param: string): Promise<number> {
  const venueId = (await resolveVenue(ctx.db, param))?.id
  if (venueId === undefined) throw new NotFound()
  await assertVenueAccess(ctx.db, user, venueId, DESK_ROLES)
  return venueId
}

/** A court booking the caller may operate on: 404 unknown, 403 when not at its venue. */
export async function deskBookingId(ctx: AppContext, user: AuthUser, rawId: string): Promise<number> {
  return (await deskBooking(ctx, user, rawId)).id
}

/** As deskBookingId, and 403 on the caller's own booking: staff never record a payment on it. */
export async function payableDeskBookingId(ctx: AppContext, user: AuthUser, rawId: string): Promise<number> {
  const row = await deskBooking(ctx, user, rawId)
  assertNotOwnBooking(row, user)
  return row.id
}

async function deskBooking(ctx: AppContext, user: AuthUser, rawId: string) {
  const id = parseId(rawId)
  if (id === undefined) throw new NotFound()
  const row = await bookingOwnership(ctx.db, id)
  if (!row) throw new NotFound()
  await assertVenueAccess(ctx.db, user, row.venue_id, DESK_ROLES)
  return row
}

export async function listVenueBookings(
  ctx: AppContext,
  user: AuthUser,
  param: string,
  query: Static<typeof VenueListQuery>,
  page: PageParams,
): Promise<{ items: Booking[]; total: number }> {
  const venueId = await venueFor(ctx, user, param)
  const { ids, total } = await listBookingIds(
    ctx.db,
    { venueId, date: query.date, status: query.status, courtId: query.court_id },
    page,
  )
  const [items, waiting] = await Promise.all([loadBookings(ctx, ids, { withUser: true }), waitingCounts(ctx.db, ids)])
  for (const b of items) b.waitlist_count = waiting.get(b.id) ?? 0
  return { items, total }
}

export async function createVenueBooking(
  ctx: AppContext,
  user: AuthUser,
  param: string,
  input: Static<typeof StaffCreateBody>,
): Promise<Booking> {
  const venueId = await venueFor(ctx, user, param)
  const booking = await createCourtBooking(
    ctx,
    { ...input, coupon_code: null, payment_method: null },
    {
      type: input.type ?? 'offline',
      userId: null,
      customerName: input.customer_name.trim(),
      customerPhone: null,
      createdBy: user.id,
      venueId,
    },
  )
  // A desk booking has no customer account.
  booking.user = null
  return booking
}

export async function setBookingStatus(
  ctx: AppContext,
  user: AuthUser,
  rawId: string,
  input: Static<typeof StatusBody>,
): Promise<Booking> {
  const id = await deskBookingId(ctx, user, rawId)
  await ctx.db.transaction().execute(async (trx) => {
    const booking = (await lockBooking(trx, 'court', id))!
    await changeStatus(ctx, trx, booking, input.status, statusReason(input))
  })
  return loadBooking(ctx, id)
}

export async function addBookingCharge(
  ctx: AppContext,
  user: AuthUser,
  rawId: string,
  input: Static<typeof ChargeBody>,
): Promise<Booking> {
  const id = await deskBookingId(ctx, user, rawId)
  await ctx.db.transaction().execute(async (trx) => {
    const booking = (await lockBooking(trx, 'court', id))!
    const description = input.description.trim()
    if (!description) throw new Invalid('description', 'The description field is required.')
    await addCharge(ctx, trx, booking, { description, amount: deskAmount(input.amount) }, user)
  })
  return loadBooking(ctx, id)
}

export async function addBookingPayment(
  ctx: AppContext,
  user: AuthUser,
  rawId: string,
  input: Static<typeof PaymentBody>,
): Promise<Booking> {
  const id = await payableDeskBookingId(ctx, user, rawId)
  await ctx.db.transaction().execute(async (trx) => {
    const booking = (await lockBooking(trx, 'court', id))!
    await recordDeskPayment(
      ctx,
      trx,
      booking,
      { amount: deskAmount(input.amount), method: input.method ?? 'cash', reference: input.reference?.trim() || null },
      user,
    )
  })
  return loadBooking(ctx, id)
}

/** POST /venues/{venue}/bookings/series: a desk series (offline or walk-in) for a named customer. */
export async function createVenueSeries(
  ctx: AppContext,
  user: AuthUser,
  param: string,
  input: Static<typeof StaffSeriesBody>,
): Promise<Series> {
  const venueId = await venueFor(ctx, user, param)
  return createSeries(
    ctx,
    { ...input, payment_method: null },
    {
      type: input.type ?? 'offline',
      userId: null,
      customerName: input.customer_name.trim(),
      customerPhone: null,
      createdBy: user.id,
      venueId,
    },
  )
}
