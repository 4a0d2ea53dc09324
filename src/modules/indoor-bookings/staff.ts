import type { Static } from 'typebox'
import type { AuthUser } from '../../lib/auth.ts'
import type { AppContext } from '../../lib/context.ts'
import type { Executor } from '../../lib/db.ts'
import { Invalid, NotFound } from '../../lib/errors.ts'
import type { PageParams } from '../../lib/pagination.ts'
import { isValidDate } from '../../lib/time.ts'
import {
  addCharge,
  changeStatus as applyStatus,
  assertNotOwnBooking,
  deskAmount,
  type LockedBooking,
  lockBooking,
  recordDeskPayment,
  statusReason,
} from '../booking-core/index.ts'
import { assertVenueAccess, DESK_ROLES, resolveVenue } from '../venues/index.ts'
import { createIndoorBooking } from './create.ts'
import { indoorBookingResource, indoorBookingResources } from './queries.ts'
import { findBooking, listBookings } from './repository.ts'
import type { ChargeBody, PaymentBody, StaffCreateBody, StatusBody, VenueListQuery } from './schemas.ts'
import { bookingOr404 } from './service.ts'

// The venue side of indoor bookings (docs/bookings.md, "Staff operations"): owner, managers, staff.
// The state machine, charges and desk payments are the ones court bookings use (booking-core/operations.ts).

export async function venueFor(ctx: AppContext, user: AuthUser, key: string) {
  const venue = await resolveVenue(ctx.db, key)
  if (!venue) throw new NotFound()
  await assertVenueAccess(ctx.db, user, venue.id, DESK_ROLES)
  return venue
}

export async function listVenueBookings(
  ctx: AppContext,
  user: AuthUser,
  venueKey: string,
  query: Static<typeof VenueListQuery>,
  page: PageParams,
) {
  const venue = await venueFor(ctx, user, venueKey)
  if (query.date !== undefined && !isValidDate(query.date)) {
    throw new Invalid('date', 'The date field must be a valid date.')
  }
  const { rows, total } = await listBookings(
    ctx.db,
    { venueId: venue.id, date: query.date, status: query.status, indoorGameId: query.indoor_game_id },
    page,
    'schedule',
  )
  return { items: await indoorBookingResources(ctx, ctx.db, rows), total }
}

export async function createVenueBooking(
  ctx: AppContext,
  user: AuthUser,
  venueKey: string,
  input: Static<typeof StaffCreateBody>,
) {
  const venue = await venueFor(ctx, user, venueKey)
  const customerName = input.customer_name.trim()
  if (!customerName) throw new Invalid('customer_name', 'The customer name field is required.')
  const row = await createIndoorBooking(ctx, input, {
    type: input.type ?? 'offline',
    userId: null,
    customerName,
    customerPhone: null,
    createdBy: user.id,
    venueId: venue.id,
  })
  return indoorBookingResource(ctx, ctx.db, row)
}

/** A booking the caller may operate on: 404 unknown, 403 when not at its venue's desk. */
export async function operatedBooking(ctx: AppContext, user: AuthUser, rawId: string) {
  const found = await bookingOr404(ctx.db, rawId)
  await assertVenueAccess(ctx.db, user, found.venue_id, DESK_ROLES)
  return found
}

/** As operatedBooking, and 403 on the caller's own booking: staff never record a payment on it. */
export async function payableOperatedBooking(ctx: AppContext, user: AuthUser, rawId: string) {
  const found = await operatedBooking(ctx, user, rawId)
  assertNotOwnBooking(found, user)
  return found
}

/**
 * Runs `step` on the row-locked booking once the caller is known to operate its venue (404 for an
 * unknown id, 403 for anyone else), then answers the booking as it is afterwards.
 */
async function withOperatedBooking(
  ctx: AppContext,
  user: AuthUser,
  rawId: string,
  step: (trx: Executor, booking: LockedBooking) => Promise<unknown>,
) {
  const found = await operatedBooking(ctx, user, rawId)
  await ctx.db.transaction().execute(async (trx) => step(trx, (await lockBooking(trx, 'indoor', found.id))!))
  return indoorBookingResource(ctx, ctx.db, (await findBooking(ctx.db, found.id))!)
}

export async function changeStatus(ctx: AppContext, user: AuthUser, rawId: string, input: Static<typeof StatusBody>) {
  return withOperatedBooking(ctx, user, rawId, (trx, booking) =>
    applyStatus(ctx, trx, booking, input.status, statusReason(input)),
  )
}

export async function addBookingCharge(
  ctx: AppContext,
  user: AuthUser,
  rawId: string,
  input: Static<typeof ChargeBody>,
) {
  return withOperatedBooking(ctx, user, rawId, async (trx, booking) => {
    const amount = deskAmount(input.amount)
    const description = input.description.trim()
    if (!description) throw new Invalid('description', 'The description field is required.')
    await addCharge(ctx, trx, booking, { description, amount }, user)
  })
}

export async function recordVenuePayment(
  ctx: AppContext,
  user: AuthUser,
  rawId: string,
  input: Static<typeof PaymentBody>,
) {
  return withOperatedBooking(ctx, user, rawId, async (trx, booking) => {
    const amount = deskAmount(input.amount)
    const reference = input.reference?.trim() || null
    await recordDeskPayment(ctx, trx, booking, { amount, method: input.method ?? 'cash', reference }, user)
  })
}
