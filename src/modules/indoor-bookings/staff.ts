import type { FastifyRequest } from 'fastify'
import type { AuthUser } from '../../lib/auth.ts'
import type { AppContext } from '../../lib/context.ts'
import type { Executor } from '../../lib/db.ts'
import { Invalid, NotFound } from '../../lib/errors.ts'
import { formatMoney, toPaisa } from '../../lib/money.ts'
import { type PageParams, paginated } from '../../lib/pagination.ts'
import { isValidDate } from '../../lib/time.ts'
import { recordBookingPayment } from '../bookings/payable.ts'
import { type BookingStatus, type StaffTarget, transitionError } from '../bookings/state.ts'
import { insertPayment, newReference } from '../payments/repository.ts'
import { assertVenueAccess, type VenueRole } from '../venues/access.ts'
import { findVenueByKey } from '../venues/repository.ts'
import { createIndoorBooking, type NewIndoorBooking } from './create.ts'
import { addCharge, findBooking, listBookings, setStatus } from './repository.ts'
import { balanceDue, type IndoorBookingRow, indoorBookingResource, indoorBookingResources } from './resource.ts'
import { bookingOr404, hasStarted, notifyCancelled, refundOnCancel } from './service.ts'

// The venue side of indoor bookings (decisions.md "Staff operations"): owner, managers, staff.

const OPERATORS: VenueRole[] = ['owner', 'manager', 'staff']

/** States in which a booking still takes charges and payments. */
const OPEN_FOR_BILLING = ['pending', 'confirmed', 'playing', 'completed']

async function venueFor(ctx: AppContext, user: AuthUser, key: string) {
  const venue = await findVenueByKey(ctx.db, key)
  if (!venue) throw new NotFound()
  await assertVenueAccess(ctx.db, user, venue.id, OPERATORS)
  return venue
}

export interface VenueListQuery {
  date?: string
  status?: string
  indoor_game_id?: number
}

export async function listVenueBookings(
  ctx: AppContext,
  req: FastifyRequest,
  user: AuthUser,
  venueKey: string,
  query: VenueListQuery,
  page: PageParams,
) {
  const venue = await venueFor(ctx, user, venueKey)
  if (query.date !== undefined && !isValidDate(query.date))
    throw new Invalid('date', 'The date field must be a valid date.')
  const { rows, total } = await listBookings(
    ctx.db,
    { venueId: venue.id, date: query.date, status: query.status, indoorGameId: query.indoor_game_id },
    page,
    'schedule',
  )
  return paginated(req, ctx.config.appUrl, await indoorBookingResources(ctx, ctx.db, rows), total, page)
}

export interface StaffBookingInput extends NewIndoorBooking {
  type?: 'offline' | 'walkin'
  customer_name: string
}

export async function createVenueBooking(ctx: AppContext, user: AuthUser, venueKey: string, input: StaffBookingInput) {
  const venue = await venueFor(ctx, user, venueKey)
  const customerName = input.customer_name.trim()
  if (!customerName) throw new Invalid('customer_name', 'The customer name field is required.')
  const row = await createIndoorBooking(ctx, input, {
    type: input.type ?? 'offline',
    userId: null,
    customerName,
    createdBy: user.id,
    venueId: venue.id,
  })
  return indoorBookingResource(ctx, ctx.db, row)
}

/**
 * Runs `step` on the locked booking after checking the caller operates its venue; answers the
 * booking as it is afterwards.
 */
async function withOperatedBooking(
  ctx: AppContext,
  user: AuthUser,
  rawId: string,
  step: (trx: Executor, b: IndoorBookingRow) => Promise<void>,
) {
  const found = await bookingOr404(ctx.db, rawId)
  await assertVenueAccess(ctx.db, user, found.venue_id, OPERATORS)
  return ctx.db.transaction().execute(async (trx) => {
    const booking = (await findBooking(trx, found.id, true))!
    await step(trx, booking)
    return indoorBookingResource(ctx, trx, (await findBooking(trx, booking.id))!)
  })
}

export async function changeStatus(
  ctx: AppContext,
  user: AuthUser,
  rawId: string,
  input: { status: StaffTarget; cancel_reason?: string },
) {
  return withOperatedBooking(ctx, user, rawId, async (trx, booking) => {
    const refused = transitionError(booking.status as BookingStatus, input.status, hasStarted(booking))
    if (refused) throw new Invalid('status', refused)
    if (input.status !== 'cancelled') {
      await setStatus(trx, booking.id, input.status)
      return
    }
    const refund = await refundOnCancel(ctx, trx, booking, 'venue')
    const cancelled = await setStatus(
      trx,
      booking.id,
      'cancelled',
      input.cancel_reason?.trim() || 'Cancelled by the venue',
    )
    await notifyCancelled(ctx, trx, cancelled, refund)
  })
}

function positiveAmount(raw: number | string): number {
  if (!/^\d+(\.\d{1,2})?$/.test(String(raw).trim())) {
    throw new Invalid('amount', 'The amount field must be a number with at most 2 decimal places.')
  }
  const amount = toPaisa(raw)
  if (amount <= 0) throw new Invalid('amount', 'The amount field must be at least 0.01.')
  return amount
}

export async function addBookingCharge(
  ctx: AppContext,
  user: AuthUser,
  rawId: string,
  input: { description: string; amount: number | string },
) {
  return withOperatedBooking(ctx, user, rawId, async (trx, booking) => {
    const amount = positiveAmount(input.amount)
    const description = input.description.trim()
    if (!description) throw new Invalid('description', 'The description field is required.')
    if (!OPEN_FOR_BILLING.includes(booking.status)) {
      throw new Invalid('booking', `A ${booking.status.replace('_', '-')} booking cannot take charges.`)
    }
    await addCharge(trx, booking.id, { description, amount, createdBy: user.id })
  })
}

export async function recordVenuePayment(
  ctx: AppContext,
  user: AuthUser,
  rawId: string,
  input: { amount: number | string; method?: string; reference?: string },
) {
  return withOperatedBooking(ctx, user, rawId, async (trx, booking) => {
    const amount = positiveAmount(input.amount)
    if (!OPEN_FOR_BILLING.includes(booking.status)) {
      throw new Invalid('booking', `A ${booking.status.replace('_', '-')} booking cannot take payments.`)
    }
    const due = balanceDue(booking)
    if (due === 0) throw new Invalid('amount', 'This booking is already paid.')
    if (amount > due) {
      throw new Invalid('amount', `The amount must not be greater than the balance due of ${formatMoney(due)}.`)
    }
    const method = input.method ?? 'cash'
    const reference = input.reference?.trim() || newReference()
    const taken = await trx.selectFrom('payments').select('id').where('reference', '=', reference).executeTakeFirst()
    if (taken) throw new Invalid('reference', 'The reference has already been taken.')
    await insertPayment(trx, {
      user_id: booking.user_id,
      payable_type: 'indoor',
      payable_id: booking.id,
      method,
      amount,
      status: 'completed',
      // A gateway payment taken at the desk keeps the gateway's reference; cash gets our own.
      reference,
      recorded_by: user.id,
      completed_at: new Date(),
    })
    await recordBookingPayment(ctx, trx, 'indoor', booking.id, amount)
  })
}
